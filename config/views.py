"""Pages that belong to no app: the landing page and a health check."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from config.channel_layer import layer_down

logger = logging.getLogger(__name__)

# A health check must answer fast, even when a part it checks hangs: a proxy
# or a monitor waits for it (override with HEALTH_TIMEOUT_SECONDS).
HEALTH_TIMEOUT_SECONDS = 1.0
# The last answer of each check in this process: a change is logged, once.
_last: dict[str, str] = {}


def home(request: HttpRequest) -> HttpResponse:
    """Two clear paths: the teacher logs in, the pupil joins with a code."""
    return render(request, "home.html")


def _database_ok() -> None:
    """On a thread of its own (not the one every sync view shares, which a busy
    worker keeps busy), its connection given back to the pool afterwards."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()


async def _channel_layer_ok() -> None:
    """A message through the layer and back: proves Redis (or the in-memory
    layer) delivers, not only that a socket to it opens.

    On a channel of its own, not one of the process' channels
    (``new_channel()``'s "name!id"): channels_redis reads all of those with one
    blocking pop under one lock, held by whoever waits first (an idle socket,
    the table hub), so with any socket open the check waited behind a 5 s pop
    and answered 503 although Redis was fine. A plain name is read directly.
    A layer that knows it lost Redis says so at once."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    if layer_down(layer):
        raise ConnectionError("the channel layer is waiting for Redis")
    channel = f"health.{uuid.uuid4().hex}"
    await layer.send(channel, {"type": "health.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "health.ping":
        raise RuntimeError("unexpected message")


async def _checked(name: str, check: Awaitable[None], timeout: float) -> str:
    try:
        await asyncio.wait_for(check, timeout)
        result, why = "ok", ""
    except Exception as error:
        result, why = "failing", type(error).__name__ or "timeout"
    if _last.get(name, "ok") != result:
        # One readable line when a part goes and when it is back, never a
        # traceback per poll (a monitor asks every few seconds).
        if result == "ok":
            logger.warning("health check: %s ok again", name)
        else:
            logger.warning("health check: %s failing (%s)", name, why)
    _last[name] = result
    return result


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    """For the reverse proxy or a monitor: 200 when the database answers a query
    and the channel layer carries a message, 503 otherwise, within
    ``HEALTH_TIMEOUT_SECONDS`` (both checked at once). Which part failed is
    named, nothing more: no host, no error text."""
    timeout = float(getattr(settings, "HEALTH_TIMEOUT_SECONDS", HEALTH_TIMEOUT_SECONDS))
    names = ("database", "channel_layer")
    results = await asyncio.gather(
        _checked("database", sync_to_async(_database_ok, thread_sensitive=False)(), timeout),
        _checked("channel_layer", _channel_layer_ok(), timeout),
    )
    status = dict(zip(names, results, strict=True))
    ok = all(value == "ok" for value in status.values())
    return JsonResponse({"ok": ok, **status}, status=200 if ok else 503)
