"""Pages that belong to no app: the landing page and a health check."""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

logger = logging.getLogger(__name__)

# A health check must answer fast, even when a part it checks hangs.
HEALTH_TIMEOUT_SECONDS = 5.0


def home(request: HttpRequest) -> HttpResponse:
    """Two clear paths: the teacher logs in, the pupil joins with a code."""
    return render(request, "home.html")


def _database_ok() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _channel_layer_ok() -> None:
    """A message through the layer and back: proves Redis (or the in-memory
    layer) delivers, not only that a socket to it opens."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel("health.")
    await layer.send(channel, {"type": "health.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "health.ping":
        raise RuntimeError("unexpected message")


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    """For the reverse proxy or a monitor: 200 when the database answers a query
    and the channel layer carries a message, 503 otherwise (which part failed is
    named, nothing more: no host, no error text)."""
    checks = {
        "database": sync_to_async(_database_ok, thread_sensitive=True)(),
        "channel_layer": _channel_layer_ok(),
    }
    status: dict[str, str] = {}
    for name, check in checks.items():
        try:
            await asyncio.wait_for(check, HEALTH_TIMEOUT_SECONDS)
            status[name] = "ok"
        except Exception:
            logger.exception("health check failed: %s", name)
            status[name] = "failing"
    ok = all(value == "ok" for value in status.values())
    return JsonResponse({"ok": ok, **status}, status=200 if ok else 503)
