"""What a move makes others write (the learning record, in a lesson; a game's
record at its end) is a database job of its own: the pupil who moved sees
their new screen without waiting for it, and it still runs, once."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async

from cardgames.signals import actions_applied
from tests.cardgames.factories import (  # noqa: F401
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


async def test_the_movers_screen_does_not_wait_for_the_moves_receivers() -> None:
    table = await database_sync_to_async(started_table)(
        pupils=2, bots=0, options={"announce": "shown"}, seed=4
    )
    tablets = [
        Tablet(table.pk, await database_sync_to_async(session_cookie)(f"pupil:{n}"))
        for n in (1, 2)
    ]
    for tablet in tablets:
        assert await tablet.connect()
    release = threading.Event()
    heard: list[tuple[int, bool]] = []

    def slow_receiver(sender: Any, **kwargs: Any) -> None:
        # A receiver still busy long after the move (a slow database, say).
        heard.append((int(kwargs["version"]), release.wait(10)))

    actions_applied.connect(slow_receiver, dispatch_uid="test-slow-receiver")
    try:
        engine, state, version, _ = await table_state(table.pk)
        current = engine.view(state, None)["current_seat"]
        action = engine.legal_actions(state, current)[0]
        await tablets[current].send(play_form(action, version))
        # Both screens show the move while the receiver is still waiting...
        for tablet in tablets:
            await tablet.wait_version(version + 1, timeout=5)
        assert not release.is_set() and heard == []
        release.set()
        # ...and the receiver, released, did its work for that move, once.
        for _ in range(200):
            if heard:
                break
            await asyncio.sleep(0.025)
        assert heard == [(version + 1, True)]
    finally:
        release.set()
        actions_applied.disconnect(dispatch_uid="test-slow-receiver")
        for tablet in tablets:
            await tablet.close()
