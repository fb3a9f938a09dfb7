"""A worker's table sockets get their table's changes through the worker's hub:
one channel-layer member per worker and table, one render job per change."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from cardgames import services, table_hub, table_screen
from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    pupil_tablets,
    seat_resolver,
    started_table,
)
from tests.cardgames.wsclient import play_form, table_state

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

SHOWN = {"announce": "shown"}


async def _members(table_id: int) -> list[str]:
    """This process's channels in the table's group, on the in-memory layer or
    on Redis (where earlier runs may have left other processes' members)."""
    layer = get_channel_layer()
    group = services.table_group(table_id)
    if hasattr(layer, "groups"):
        return list(layer.groups.get(group, {}))
    key = layer._group_key(group)
    async with layer.connection(layer.consistent_hash(group)) as connection:
        names = [name.decode() for name in await connection.zrange(key, 0, -1)]
    return [name for name in names if f".{layer.client_prefix}!" in name]


async def test_a_worker_is_one_member_of_a_tables_group_whatever_its_sockets() -> None:
    """Three tablets of a table in one worker: the table's group holds the
    worker's hub alone, so a move is one message to the worker, and every
    tablet still sees it. The last tablet to leave takes the worker out."""
    table = await database_sync_to_async(started_table)(pupils=3, bots=0, options=SHOWN, seed=4)
    tablets = await pupil_tablets(table, pupils=3)
    members = await _members(table.pk)
    # The worker's hub, alone: one member for three sockets.
    assert len(members) == 1

    engine, state, version, _ = await table_state(table.pk)
    mover = engine.view(state, None)["current_seat"]
    await tablets[mover].send(play_form(engine.legal_actions(state, mover)[0], version))
    for tablet in tablets:
        await tablet.wait_version(version + 1, timeout=5)
        assert tablet.version == version + 1

    await tablets[0].close()
    await tablets[1].close()
    assert await _members(table.pk) == members  # one tablet left: still subscribed
    await tablets[2].close()
    assert await _members(table.pk) == []


async def test_a_change_during_a_sockets_own_message_is_shown_once_that_is_done(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tablet asks for its screen again; while its answer is being drawn the
    other pupil moves. The tablet is shown its answer, then the move, without
    asking again: the change waited for its message instead of being lost."""
    table = await database_sync_to_async(started_table)(pupils=2, bots=0, options=SHOWN, seed=4)
    tablets = await pupil_tablets(table)
    engine, state, version, _ = await table_state(table.pk)
    mover = engine.view(state, None)["current_seat"]
    watcher = tablets[1 - mover]

    drawing, release = asyncio.Event(), asyncio.Event()
    real = table_screen.render_screen

    async def held(snap: Any, **kwargs: Any) -> Any:
        if kwargs.get("seat") == 1 - mover and snap.version == version:
            drawing.set()
            await release.wait()
        return await real(snap, **kwargs)

    monkeypatch.setattr(table_screen, "render_screen", held)
    await watcher.send({"kind": "sync"})
    await asyncio.wait_for(drawing.wait(), 5)
    await tablets[mover].send(play_form(engine.legal_actions(state, mover)[0], version))
    await tablets[mover].wait_version(version + 1, timeout=5)
    release.set()
    await watcher.wait_version(version + 1, timeout=5)
    assert watcher.version == version + 1
    for tablet in tablets:
        await tablet.close()


class _Socket:
    """A stand-in table socket, as the hub sees one."""

    def __init__(self, seat: int, *, rendered: int = 0, busy: int = 0) -> None:
        self.table_id = 7
        self.channel_name = f"socket-{seat}"
        self.channel_layer = None
        self.joined = True
        self.busy = busy
        self.rendered_version = rendered
        self.answered_stamp: str | None = None
        self.missed: dict[str, Any] | None = None
        self.language = "de"
        self.seat = seat
        self.sent: list[Any] = []

    def viewer(self) -> tuple[int | None, bool]:
        return self.seat, False

    async def screen_send(self, screen: Any) -> None:
        self.sent.append(screen)


async def test_the_hub_draws_each_socket_behind_the_change_in_one_job(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only the sockets that must show the change are drawn, together and each
    in its own language; a busy one keeps the newest change for later; the
    mover's (its reply showed it) and one already further are left alone."""
    idle_a, idle_b = _Socket(0), _Socket(1)
    busy = _Socket(2, busy=1)
    mover = _Socket(3)
    mover.answered_stamp = "s5"
    ahead = _Socket(4, rendered=9)
    hub = table_hub._Hub(layer=None, channel="specific.hub!test")
    hub.tables[7] = {idle_a, idle_b, busy, mover, ahead}
    jobs: list[list[tuple[Any, ...]]] = []

    async def snapshot(table_id: int, stamp: object) -> str:
        return f"snap {table_id} {stamp}"

    async def render(snap: str, *, stamp: object, viewers: list[tuple[Any, ...]]) -> list[str]:
        jobs.append(viewers)
        return [f"{snap} seat {seat}" for seat, _steer, _language in viewers]

    monkeypatch.setattr(table_hub, "shared_snapshot", snapshot)
    monkeypatch.setattr(table_hub, "render_screens", render)
    await table_hub._changed(hub, 7, {"type": "table.changed", "version": 4, "stamp": "s4"})
    await table_hub._changed(hub, 7, {"type": "table.changed", "version": 5, "stamp": "s5"})

    assert len(jobs) == 2  # one job per change
    assert sorted(jobs[0]) == [(0, False, "de"), (1, False, "de"), (3, False, "de")]
    assert sorted(jobs[1]) == [(0, False, "de"), (1, False, "de")]
    assert idle_a.sent == ["snap 7 s4 seat 0", "snap 7 s5 seat 0"]
    assert mover.sent == ["snap 7 s4 seat 3"]
    assert ahead.sent == [] and busy.sent == []
    assert busy.missed is not None and busy.missed["version"] == 5


async def test_rejouer_takes_every_tablet_of_the_table_to_the_new_game() -> None:
    """The teacher's "Rejouer": the pupils' tablets, not only the teacher's page,
    are told where the new game is (the hub passes on only the events that
    name their table)."""
    from classroom.services.tables import table_rematch

    table = await database_sync_to_async(started_table)(pupils=2, bots=1, options=SHOWN, seed=4)
    tablets = await pupil_tablets(table, pupils=2)
    for tablet in tablets:
        await tablet.drain()
    new = await database_sync_to_async(table_rematch)(table=table)
    for tablet in tablets:
        moved = await tablet.receive_until('data-moved="', timeout=5)
        assert f'data-moved="/table/{new.pk}/"' in moved
        assert "Nouvelle partie" in moved
    # The old game was ended mid-play: its last screen, drawn meanwhile, does
    # not cover the way to the new game.
    for tablet in tablets:
        await tablet.drain(quiet=0.3)
        assert f'data-moved="/table/{new.pk}/"' in tablet.screen
        await tablet.close()
    # A tablet that slept through it opens the old table again: it is sent on.
    late = (await pupil_tablets(table, pupils=1))[0]
    moved = await late.receive_until('data-moved="', timeout=5)
    assert f'data-moved="/table/{new.pk}/"' in moved
    await late.close()


async def test_a_reader_that_lost_its_cancel_is_cancelled_again_and_ends() -> None:
    """channels_redis' receive sometimes loses a ``cancel()`` and reads on (up to
    its 5 s ``BZPOPMIN``). The last socket's ``disconnect`` waited that long and
    a tablet's closed tab kept counting as connected: the hub cancels again."""
    cancels = 0

    async def reader_losing_one_cancel() -> None:
        nonlocal cancels
        while True:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                cancels += 1
                if cancels == 1:
                    continue  # lost, as inside the Redis client
                raise

    reader = asyncio.get_running_loop().create_task(reader_losing_one_cancel())
    await asyncio.sleep(0)
    reader.cancel()
    await asyncio.wait_for(table_hub._stopped(reader), timeout=2)
    assert reader.cancelled() and cancels == 2
