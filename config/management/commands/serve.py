"""``python manage.py serve --workers 4``: production ASGI workers (uvicorn).

Several workers only make sense with a shared channel layer: the in-memory
layer reaches the sockets of its own process alone, so a move made through one
worker would never reach the tablets connected to another. The command refuses
that configuration instead of letting tables silently stop updating.

With ``--workers N`` (N > 1) uvicorn's supervisor starts N worker processes,
each with a listening socket of its own on the same port, so that the kernel
spreads the tablets evenly (``config/serving.py`` says why uvicorn's one shared
socket does not). A worker that dies is started again and its tablets
reconnect (htmx's ws extension retries with backoff) to whichever worker
accepts them. Any worker serves any table: moves reach the sockets of the other
workers through Redis, and nothing of a table lives in a worker's memory.
"""

from __future__ import annotations

from typing import Any

import uvicorn
from channels.layers import InMemoryChannelLayer
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.module_loading import import_string

from config import serving


def _in_memory(backend: str) -> bool:
    """Whether the layer is channels' in-memory one (or a subclass, as ours)."""
    try:
        layer = import_string(backend)
    except ImportError:
        return False
    return isinstance(layer, type) and issubclass(layer, InMemoryChannelLayer)


def check_workers(workers: int) -> None:
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    if workers < 1:
        raise CommandError("--workers must be at least 1.")
    if workers > 1 and _in_memory(backend):
        raise CommandError(
            "Several workers need a shared channel layer: set REDIS_URL (and DATABASE_URL) first. "
            "The in-memory layer only reaches the sockets of its own process."
        )


class Command(BaseCommand):
    help = "Serve HTTP and websockets with uvicorn workers (refuses several workers without Redis)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--workers", type=int, default=1)
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--app",
            default="config.asgi:application",
            help="ASGI application to serve (the load test adds its echo route this way).",
        )
        parser.add_argument(
            "--log-level", default="warning", help="uvicorn's own log level (access logs are off)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        check_workers(options["workers"])
        server_options: dict[str, Any] = {
            "host": options["host"],
            "port": options["port"],
            "workers": options["workers"],
            "proxy_headers": True,
            "log_level": options["log_level"],
            "access_log": False,
            # Seconds a worker gets to finish its requests on a restart or stop.
            "timeout_graceful_shutdown": 10,
            # A frame bigger than this is refused by uvicorn (close 1009) before
            # it is buffered; uvicorn's default would buffer up to 16 MiB per
            # socket before the app's own 16 KiB check could refuse it.
            "ws_max_size": int(settings.WS_SERVER_MAX_BYTES),
        }
        if options["workers"] > 1 and serving.balances_connections():
            serving.run_workers(uvicorn.Config(options["app"], **server_options))
        else:
            uvicorn.run(options["app"], **server_options)
