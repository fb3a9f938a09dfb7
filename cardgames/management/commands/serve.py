"""``python manage.py serve --workers 4``: production ASGI workers (uvicorn).

Several workers only make sense with a shared channel layer: the in-memory
layer reaches the sockets of its own process alone, so a move made through one
worker would never reach the tablets connected to another. The command refuses
that configuration instead of letting tables silently stop updating.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

IN_MEMORY = "channels.layers.InMemoryChannelLayer"


def check_workers(workers: int) -> None:
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    if workers < 1:
        raise CommandError("--workers must be at least 1.")
    if workers > 1 and backend == IN_MEMORY:
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

    def handle(self, *args: Any, **options: Any) -> None:
        check_workers(options["workers"])
        argv = [
            sys.executable, "-m", "uvicorn", "config.asgi:application",
            "--host", options["host"], "--port", str(options["port"]),
            "--workers", str(options["workers"]), "--proxy-headers",
        ]
        os.execv(sys.executable, argv)
