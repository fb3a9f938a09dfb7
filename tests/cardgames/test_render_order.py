"""The render thread draws a socket's answer to its own message first: the
pupil who moved sees their screen before the broadcast's screens are drawn."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest

from cardgames import live_screens
from cardgames.live_screens import _RenderThread
from tests.cardgames.factories import fresh_channel_layer, seat_resolver  # noqa: F401


def test_the_movers_screen_is_drawn_before_the_broadcasts_waiting() -> None:
    renderer = _RenderThread()
    busy = threading.Event()
    release = threading.Event()
    drawn: list[str] = []

    def draw(name: str) -> str:
        if name == "busy":
            busy.set()
            release.wait(5)
        drawn.append(name)
        return name

    first = renderer.submit(renderer.BROADCAST, draw, "busy")
    assert busy.wait(5)
    # While the thread is busy, a move's broadcast queues three screens, then
    # the mover's own reply arrives.
    waiting = [renderer.submit(renderer.BROADCAST, draw, f"seat {n}") for n in (1, 2, 3)]
    mover = renderer.submit(renderer.OWN, draw, "mover")
    release.set()
    assert mover.result(5) == "mover"
    assert [future.result(5) for future in waiting] == ["seat 1", "seat 2", "seat 3"]
    assert first.result(5) == "busy"
    assert drawn == ["busy", "mover", "seat 1", "seat 2", "seat 3"]


def test_a_failed_render_reaches_its_socket_and_the_thread_goes_on() -> None:
    renderer = _RenderThread()

    def broken() -> None:
        raise ValueError("template error")

    failed = renderer.submit(renderer.OWN, broken)
    assert isinstance(failed.exception(5), ValueError)
    assert renderer.submit(renderer.OWN, lambda: "next").result(5) == "next"


def _slow_drawing() -> tuple[threading.Event, threading.Event, list[str], Callable[[str], None]]:
    """A drawing job that blocks on "slow" until released, and the names drawn."""
    busy = threading.Event()
    release = threading.Event()
    drawn: list[str] = []

    def draw(name: str) -> None:
        if name == "slow":
            busy.set()
            release.wait(5)
        drawn.append(name)

    return busy, release, drawn, draw


async def test_work_that_can_wait_starts_after_the_screens_already_queued() -> None:
    """A move's learning record waits for the broadcast's screens queued before
    it (``screens_queued_drawn``), so it does not hold them back."""
    busy, release, drawn, draw = _slow_drawing()
    renderer = live_screens._RENDERER
    renderer.submit(renderer.BROADCAST, draw, "slow")
    assert busy.wait(5)
    renderer.submit(renderer.BROADCAST, draw, "seat 1")
    waiting = asyncio.ensure_future(live_screens.screens_queued_drawn())
    await asyncio.sleep(0.05)
    assert not waiting.done()
    release.set()
    await asyncio.wait_for(waiting, 5)
    assert drawn == ["slow", "seat 1"]


def test_a_new_move_waits_for_the_screens_already_queued() -> None:
    """On a database thread, a move starts after the screens queued before it
    (another table's broadcast: they would otherwise share the GIL with it, and
    both tables wait); with nothing queued it does not wait at all."""
    busy, release, drawn, draw = _slow_drawing()
    renderer = live_screens._RENDERER
    live_screens.screens_in_flight_drawn(timeout=5)  # idle: returns at once
    renderer.submit(renderer.BROADCAST, draw, "slow")
    assert busy.wait(5)
    renderer.submit(renderer.BROADCAST, draw, "other table's screen")
    assert renderer.busy()
    started = threading.Event()
    done = threading.Event()

    def move() -> None:
        started.set()
        live_screens.screens_in_flight_drawn(timeout=5)
        drawn.append("move")
        done.set()

    threading.Thread(target=move).start()
    assert started.wait(5)
    assert not done.wait(0.05)
    release.set()
    assert done.wait(5)
    assert drawn == ["slow", "other table's screen", "move"]


async def test_a_robots_screens_give_way_to_a_pupils_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """A robot's move is drawn behind the pupils' screens, one screen per job
    (``screens_later``): a pupil's broadcast queued after the robot's screens
    is drawn before them, and a pupil's move starting on a database thread
    does not wait for the robot's screens at all."""
    busy, release, drawn, draw = _slow_drawing()
    hold = threading.Event()

    def robot_screen(snap: Any, stamp: object, viewers: list[tuple[Any, bool, str]]) -> list[str]:
        hold.wait(5)
        drawn.append(f"robot's screen for {viewers[0][0]}")
        return [f"screen {viewers[0][0]}"]

    monkeypatch.setattr(live_screens, "_shared_screens", robot_screen)
    renderer = live_screens._RENDERER
    renderer.submit(renderer.BROADCAST, draw, "slow")
    assert busy.wait(5)
    later = live_screens.screens_later(
        None, stamp="robot", viewers=[(0, False, "fr"), (1, False, "fr"), (None, False, "fr")]
    )  # type: ignore[arg-type]
    renderer.submit(renderer.BROADCAST, draw, "pupil's broadcast")
    moved = threading.Event()

    def move() -> None:
        live_screens.screens_in_flight_drawn(timeout=5)
        moved.set()

    threading.Thread(target=move).start()
    release.set()
    # The pupil's move goes ahead while the robot's first screen is still held.
    assert await asyncio.to_thread(moved.wait, 5)
    assert drawn == ["slow", "pupil's broadcast"]
    hold.set()
    assert [await screen for screen in later] == [["screen 0"], ["screen 1"], ["screen None"]]
    assert drawn[2:] == ["robot's screen for 0", "robot's screen for 1", "robot's screen for None"]


def test_a_stopped_render_thread_holds_a_move_back_only_briefly() -> None:
    release = threading.Event()
    renderer = live_screens._RENDERER
    renderer.submit(renderer.BROADCAST, release.wait, 5)
    try:
        assert renderer.busy()
        live_screens.screens_in_flight_drawn(timeout=0.05)  # returns, the render still stuck
        assert renderer.busy()
    finally:
        release.set()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer")
async def test_the_mover_draws_its_own_move_once_and_the_others_see_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The mover's reply shows the move; the broadcast of that same move is
    not drawn again for the mover's socket (it found nothing to send), while
    the other tablet is drawn and shown the move as always."""
    from channels.db import database_sync_to_async

    from cardgames import table_hub, table_screen
    from tests.cardgames.factories import pupil_tablets, started_table
    from tests.cardgames.wsclient import play_form, table_state

    drawn: list[tuple[int | None, int]] = []
    real = table_screen.render_screen

    async def counted(snap: Any, **kwargs: Any) -> Any:
        drawn.append((kwargs.get("seat"), snap.version))
        return await real(snap, **kwargs)

    monkeypatch.setattr(table_screen, "render_screen", counted)
    # The other sockets of the table are drawn together by the worker's hub.
    real_many = table_hub.render_screens

    async def counted_many(snap: Any, **kwargs: Any) -> Any:
        drawn.extend((seat, snap.version) for seat, _steer, _language in kwargs["viewers"])
        return await real_many(snap, **kwargs)

    monkeypatch.setattr(table_hub, "render_screens", counted_many)
    table = await database_sync_to_async(started_table)(
        pupils=2, bots=0, options={"announce": "shown"}, seed=4
    )
    tablets = await pupil_tablets(table)
    for _move in range(3):
        engine, state, version, _ = await table_state(table.pk)
        mover = engine.view(state, None)["current_seat"]
        drawn.clear()
        await tablets[mover].send(play_form(engine.legal_actions(state, mover)[0], version))
        for tablet in tablets:
            await tablet.wait_version(version + 1, timeout=5)
        await tablets[mover].send({"kind": "sync"})  # the mover's next message...
        await tablets[mover].wait_version(version + 1)
        for tablet in tablets:
            await tablet.drain(quiet=0.1)  # ...and the broadcast, long handled
        moved = [seat for seat, v in drawn if v == version + 1]
        assert moved.count(mover) == 2  # the reply, and the asked-for sync
        assert moved.count(1 - mover) == 1
    for tablet in tablets:
        await tablet.close()
