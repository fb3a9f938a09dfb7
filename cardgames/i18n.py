"""Which language a request or a websocket speaks, decided in one place.

A page and the websocket it opens must speak the same language, or the first
live update rewrites a German screen in French. Both ask, in this order:

1. the language stored in the browser session under ``SESSION_LANGUAGE_KEY``
   (whoever owns the session chose it, e.g. a class's language for its tablets);
2. Django's usual choice: the language cookie, then ``Accept-Language``, then
   ``LANGUAGE_CODE``.

cardgames knows no classes: it only reads the session key; who writes it is
the owner's business.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation

SESSION_LANGUAGE_KEY = "language"


def supported(code: object) -> str | None:
    """``code`` if it is one of ``settings.LANGUAGES`` (or a variant of one), else ``None``."""
    if not isinstance(code, str) or not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def session_language(session: Mapping[str, Any] | None) -> str | None:
    if session is None:
        return None
    try:
        return supported(session.get(SESSION_LANGUAGE_KEY))
    except Exception:  # a session that cannot be read speaks no language
        return None


class _ScopeRequest:
    """Just enough of an ``HttpRequest`` for Django's ``get_language_from_request``."""

    def __init__(self, scope: Mapping[str, Any]) -> None:
        self.COOKIES: dict[str, str] = dict(scope.get("cookies") or {})
        self.META: dict[str, str] = {}
        for name, value in scope.get("headers") or []:
            if name.lower() == b"accept-language":
                self.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
        self.path_info = str(scope.get("path", ""))


def scope_language(scope: Mapping[str, Any]) -> str:
    """The language of a websocket, exactly as its page would have chosen it.
    Reads the session, so call it from a sync (database) thread."""
    chosen = session_language(scope.get("session"))
    if chosen:
        return chosen
    return translation.get_language_from_request(_ScopeRequest(scope))  # type: ignore[arg-type]


class SessionLanguageMiddleware:
    """After ``LocaleMiddleware``: a language stored in the session wins over
    the browser's (a class's tablets speak the class's language)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = session_language(getattr(request, "session", None))
        if chosen and chosen != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        return self.get_response(request)


def request_language_set(request: HttpRequest, code: str | None) -> None:
    """Use ``code`` for the rest of this request (``None``: leave it as it is)."""
    chosen = supported(code)
    if chosen:
        translation.activate(chosen)
        request.LANGUAGE_CODE = chosen


class SocketLanguageMixin:
    """For a Channels consumer: every message (connect included) is handled in
    the socket's own language, decided once at connect by ``scope_language``.
    Renders done in database threads inherit it (Django's active language is
    context-local)."""

    language: str = ""
    scope: Mapping[str, Any]

    async def dispatch(self, message: Any) -> None:
        from cardgames.dbwork import db_work

        if not self.language:
            self.language = await db_work(scope_language)(self.scope)
        with translation.override(self.language):
            await super().dispatch(message)  # type: ignore[misc]


__all__ = [
    "SESSION_LANGUAGE_KEY",
    "SessionLanguageMiddleware",
    "SocketLanguageMixin",
    "request_language_set",
    "scope_language",
    "session_language",
    "supported",
]
