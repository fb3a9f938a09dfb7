"""``/healthz`` with table sockets open on Redis (issue 49).

With any socket open, the old check waited behind channels_redis' shared
receive lock (held by a socket's 5 s blocking pop) and answered 503 with a
``TimeoutError`` traceback although Redis was fine. It must answer 200 within
a second while sockets are open, 503 naming the part when Redis is really
down, and never log a traceback.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import AsyncClient

from benchmarks.fault_services import OwnRedis
from tests.cardgames.factories import (  # noqa: F401
    pupil_tablets,
    seat_resolver,
    started_table,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the PostgreSQL + Redis pass"),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
    pytest.mark.usefixtures("seat_resolver"),
]


@pytest.fixture
def own_redis(settings: Any) -> Iterator[OwnRedis]:
    from channels.layers import channel_layers

    with OwnRedis() as redis:
        config = dict(settings.CHANNEL_LAYERS["default"].get("CONFIG") or {})
        host = dict((config.get("hosts") or [{}])[0])
        host["address"] = redis.url
        config["hosts"] = [host]
        settings.CHANNEL_LAYERS = {
            "default": {"BACKEND": "config.channel_layer.RedisChannelLayer", "CONFIG": config}
        }
        channel_layers.backends.clear()
        try:
            yield redis
        finally:
            channel_layers.backends.clear()


async def test_health_is_200_fast_with_sockets_open_and_503_when_redis_is_down(
    own_redis: OwnRedis, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from channels.db import database_sync_to_async

    from config import views

    monkeypatch.setattr(views, "_last", {})

    table = await database_sync_to_async(started_table)(pupils=2, bots=1)
    tablets = await pupil_tablets(table, 2)
    client = AsyncClient()
    with caplog.at_level(logging.INFO):
        for _ in range(3):
            start = time.monotonic()
            response = await client.get("/healthz")
            took = time.monotonic() - start
            assert response.status_code == 200, response.content
            assert response.json() == {"ok": True, "database": "ok", "channel_layer": "ok"}
            assert took < 1.0, f"{took:.2f} s"
        own_redis.stop()
        start = time.monotonic()
        response = await client.get("/healthz")
        assert time.monotonic() - start < 1.5
        assert response.status_code == 503
        assert response.json() == {"ok": False, "database": "ok", "channel_layer": "failing"}
        own_redis.start()
        deadline = time.monotonic() + 5
        while (await client.get("/healthz")).status_code != 200:
            assert time.monotonic() < deadline, "still 503 five seconds after Redis came back"
    for tablet in tablets:
        await tablet.close()
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    said = [r.getMessage() for r in caplog.records if r.name == "config.views"]
    assert said == [
        "health check: channel_layer failing (ConnectionError)",
        "health check: channel_layer ok again",
    ], said
