"""What a move makes others write (the learning record, in a lesson; a game's
record at its end) waits until the pupil who moved has their new screen, and
still runs, once, before that socket's next message is handled."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async

from cardgames import services
from cardgames.signals import actions_applied
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
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]


async def test_the_movers_screen_does_not_wait_for_the_moves_receivers() -> None:
    table = await database_sync_to_async(started_table)(
        pupils=2, bots=0, options={"announce": "shown"}, seed=4
    )
    tablets = await pupil_tablets(table)
    started = threading.Event()
    release = threading.Event()
    heard: list[int] = []

    def slow_receiver(sender: Any, **kwargs: Any) -> None:
        # A receiver still busy after the move (a slow database, say).
        started.set()
        release.wait(10)
        heard.append(int(kwargs["version"]))

    actions_applied.connect(slow_receiver, dispatch_uid="test-slow-receiver")
    try:
        engine, state, version, _ = await table_state(table.pk)
        current = engine.view(state, None)["current_seat"]
        action = engine.legal_actions(state, current)[0]
        await tablets[current].send(play_form(action, version))
        # Both screens show the move while the receiver has not finished...
        for tablet in tablets:
            await tablet.wait_version(version + 1, timeout=5)
        assert heard == []
        release.set()
        # ...and the receiver did its work for that move, once, before the
        # mover's socket handles anything else (here: a request for its screen).
        await tablets[current].send({"kind": "sync"})
        await tablets[current].receive(timeout=5)
        assert started.is_set() and heard == [version + 1]
    finally:
        release.set()
        actions_applied.disconnect(dispatch_uid="test-slow-receiver")
        for tablet in tablets:
            await tablet.close()


def test_receivers_outside_a_reply_run_on_commit_and_inside_wait_for_the_caller() -> None:
    ran: list[str] = []
    services.after_reply.receivers_dispatch(lambda: ran.append("at once"))
    assert ran == ["at once"]
    with services.receivers_after_reply() as later:
        services.after_reply.receivers_dispatch(lambda: ran.append("later"))
        assert ran == ["at once"]
    assert len(later) == 1
    # After the block the thread runs receivers at once again.
    services.after_reply.receivers_dispatch(lambda: ran.append("again"))
    assert ran == ["at once", "again"]

    def broken() -> None:
        raise RuntimeError("a receiver's bug")

    # A failing one is logged; the others still run, in order.
    services.receivers_run(receivers=[broken, *later])
    assert ran == ["at once", "again", "later"]

    # A send a receiver asks for is left to receivers_run's caller (the table
    # socket makes it on its event loop); anywhere else it is the sender's own.
    message = {"type": "help.play", "pupil_id": 1}

    def pushes() -> None:
        assert services.group_send_after_reply(group="monitor.1", message=message)

    assert services.receivers_run(receivers=[pushes, pushes]) == [("monitor.1", message)] * 2
    assert not services.group_send_after_reply(group="monitor.1", message=message)


async def test_a_move_is_applied_after_the_screens_being_drawn_and_then_shown() -> None:
    """A pupil's move that arrives while another table's screen is being drawn
    is worked on once that screen is out, and then shown as always."""
    from cardgames import live_screens

    table = await database_sync_to_async(started_table)(
        pupils=2, bots=0, options={"announce": "shown"}, seed=6
    )
    tablet = Tablet(table.pk, await database_sync_to_async(session_cookie)("pupil:1"))
    other = Tablet(table.pk, await database_sync_to_async(session_cookie)("pupil:2"))
    assert await tablet.connect() and await other.connect()
    busy = threading.Event()
    release = threading.Event()

    def other_tables_screen() -> None:
        busy.set()
        release.wait(10)

    try:
        engine, state, version, _ = await table_state(table.pk)
        current = engine.view(state, None)["current_seat"]
        mover = (tablet, other)[current]
        live_screens._RENDERER.submit(live_screens._RENDERER.BROADCAST, other_tables_screen)
        assert busy.wait(5)
        await mover.send(play_form(engine.legal_actions(state, current)[0], version))
        await asyncio.sleep(0.2)
        # Read beside the database thread, which holds the move back meanwhile.
        assert await asyncio.to_thread(_stored_version, table.pk) == version  # not applied yet
        release.set()
        for each in (tablet, other):
            await each.wait_version(version + 1, timeout=5)
        assert (await table_state(table.pk))[2] == version + 1
    finally:
        release.set()
        await tablet.close()
        await other.close()


def _stored_version(table_id: int) -> int:
    from django.db import connection

    from cardgames.models import GameState

    try:
        return GameState.objects.get(table_id=table_id).version
    finally:
        connection.close()
