"""Each worker's heartbeat: presence that survives a crash, screens that catch up.

Every ``CARDGAMES_HEARTBEAT_SECONDS`` (15 s) a worker, for all its open table
sockets at once:

- pushes their presence rows' expiry forward (``SeatConnection``); a worker
  that is killed stops doing so and its rows expire, so a seat never stays
  "connected" on a socket that no longer exists;
- reads where each of their tables is (version and status) and re-sends the
  screen of any socket that shows an older one. A channel-layer message can be
  lost (Redis restarting, a full channel): the tablet then catches up within a
  heartbeat instead of waiting for the next move.

One database call per worker per heartbeat, whatever the number of sockets.
The set of sockets is per event loop (tests run several loops).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.db import database_sync_to_async
from django.conf import settings

logger = logging.getLogger(__name__)


class Live(Protocol):
    """What the heartbeat needs from a socket (``TableConsumer``)."""

    table_id: int
    channel_name: str
    rendered_version: int
    rendered_status: str

    def present_on_seat(self) -> bool: ...

    async def resync(self) -> None: ...


@dataclass
class _LoopSockets:
    sockets: weakref.WeakSet[Any] = field(default_factory=weakref.WeakSet)
    task: asyncio.Task[None] | None = None
    resyncs: set[asyncio.Task[None]] = field(default_factory=set)


_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopSockets] = (
    weakref.WeakKeyDictionary()
)


def interval() -> float:
    return float(getattr(settings, "CARDGAMES_HEARTBEAT_SECONDS", 15))


def register(socket: Live) -> None:
    """From the socket's event loop, once it is accepted."""
    loop = asyncio.get_running_loop()
    state = _loops.get(loop)
    if state is None:
        state = _loops[loop] = _LoopSockets()
    state.sockets.add(socket)
    if state.task is None or state.task.done():
        state.task = loop.create_task(_run(state))


def unregister(socket: Live) -> None:
    try:
        state = _loops.get(asyncio.get_running_loop())
    except RuntimeError:  # pragma: no cover - always called from the loop
        return
    if state is not None:
        state.sockets.discard(socket)


async def _run(state: _LoopSockets) -> None:
    while state.sockets:
        await asyncio.sleep(interval())
        try:
            await beat(list(state.sockets), state)
        except Exception:
            logger.exception("heartbeat failed")


async def beat(sockets: list[Any], state: _LoopSockets | None = None) -> None:
    """One heartbeat for ``sockets`` (all of this loop's by default)."""
    from cardgames import services

    if not sockets:
        return
    marks = await database_sync_to_async(services.seat_connections_heartbeat)(
        channel_names=[s.channel_name for s in sockets if s.present_on_seat()],
        table_ids=sorted({s.table_id for s in sockets}),
    )
    for socket in sockets:
        mark = marks.get(socket.table_id)
        if mark is None:
            continue
        if mark.version > socket.rendered_version or mark.status != socket.rendered_status:
            logger.info("table %s: a socket missed a change, resending", socket.table_id)
            task = asyncio.create_task(socket.resync())
            if state is not None:
                state.resyncs.add(task)
                task.add_done_callback(state.resyncs.discard)
            else:
                await task


async def beat_now() -> None:
    """Run this loop's heartbeat at once and wait for the resyncs (tests)."""
    state = _loops.get(asyncio.get_running_loop())
    if state is None:
        return
    await beat(list(state.sockets), None)
