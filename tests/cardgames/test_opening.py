"""A crowd of tablets (re)connecting does not hold up the children already
playing: when a worker dies, its tablets all reconnect to another one at once,
and a move made meanwhile must not wait until every one of them is in."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async

from cardgames.consumers import TableConsumer
from cardgames.live_screens import OPENING_AT_ONCE
from tests.cardgames.factories import (  # noqa: F401
    communicator,
    fresh_channel_layer,
    seat_resolver,
    session_cookie,
    started_table,
)
from tests.cardgames.wsclient import Tablet, play_form, table_state

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

CROWD = 4 * OPENING_AT_ONCE
OPEN_SECONDS = 0.1  # a slow open: reading the table and the seat under load


async def test_a_move_is_answered_while_a_crowd_of_tablets_is_still_reconnecting(
    monkeypatch: Any,
) -> None:
    table = await database_sync_to_async(started_table)(
        pupils=2, bots=0, options={"announce": "shown"}, seed=4
    )
    engine, state, version, _ = await table_state(table.pk)
    current = engine.view(state, None)["current_seat"]
    mover = Tablet(table.pk, await database_sync_to_async(session_cookie)(f"pupil:{current + 1}"))
    assert await mover.connect()
    other_key = await database_sync_to_async(session_cookie)(f"pupil:{2 - current}")

    real_open = TableConsumer._open

    def slow_open(self: TableConsumer) -> Any:
        time.sleep(OPEN_SECONDS)
        return real_open(self)

    monkeypatch.setattr(TableConsumer, "_open", slow_open)
    accepted: list[float] = []
    crowd = [communicator(table.pk, other_key) for _ in range(CROWD)]

    async def reconnect(comm: Any) -> None:
        connected, _ = await comm.connect(timeout=30)
        assert connected
        accepted.append(time.monotonic())

    joining = [asyncio.ensure_future(reconnect(comm)) for comm in crowd]
    try:
        await asyncio.sleep(0.05)  # the crowd is knocking
        await mover.send(play_form(engine.legal_actions(state, current)[0], version))
        await mover.wait_version(version + 1, timeout=20)
        answered = time.monotonic()
        await asyncio.gather(*joining)
        in_before = sum(1 for at in accepted if at <= answered)
        # The move slipped in between the openings instead of waiting for them all.
        assert in_before < CROWD, f"the move waited for all {CROWD} tablets to open"
    finally:
        for task in joining:
            task.cancel()
        await asyncio.gather(*joining, return_exceptions=True)
        await mover.close()
        for comm in crowd:
            await comm.disconnect()
