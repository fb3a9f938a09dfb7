"""The websocket origin check: scheme, host *and* port of the page that opens
the socket must be this site's own.

Channels' ``AllowedHostsOriginValidator`` compares the host only, so a page
served from any port or scheme of an allowed host (``http://school:8081``, a
forgotten admin tool on the same machine) could open a pupil's table socket
with the pupil's cookies. Here the ``Origin`` header must equal the origin the
socket itself was opened on (``ws`` ↔ ``http``, ``wss`` ↔ ``https``, default
ports filled in; behind a TLS proxy the forwarded scheme counts when
``SECURE_PROXY_SSL_HEADER`` says so), or be listed in
``CSRF_TRUSTED_ORIGINS``; the host must be in ``ALLOWED_HOSTS``. A socket
without an ``Origin`` is refused, as before.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

Origin = tuple[str, str, int]
DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(value: str) -> Origin | None:
    try:
        parts = urlsplit(value.strip())
        scheme = parts.scheme.lower()
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None
    if scheme not in DEFAULT_PORTS or not parts.hostname or port is None:
        return None
    return scheme, parts.hostname.lower(), port


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin1")
    return ""


def socket_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin the socket was opened on, from its ``Host`` header and scheme."""
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        header, secure_value = proxy
        wanted = header.lower().removeprefix("http_").replace("_", "-").encode()
        forwarded = _header(scope, wanted).split(",")[0].strip()
        if forwarded:
            scheme = "https" if forwarded == secure_value else "http"
    host = _header(scope, b"host")
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return parse_origin(f"{scheme}://{host}")


def origin_allowed(scope: dict[str, Any]) -> bool:
    origin = parse_origin(_header(scope, b"origin"))
    if origin is None:
        return False
    if origin == socket_origin(scope):
        return True
    trusted = {parse_origin(o) for o in settings.CSRF_TRUSTED_ORIGINS}
    return origin in trusted


class SameOriginValidator:
    """ASGI middleware: refuse (close at handshake) any websocket whose page
    came from another origin (see the module docstring)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
