"""Each worker's heartbeat: presence that survives a crash, screens that catch up.

Every ``CARDGAMES_HEARTBEAT_SECONDS`` (15 s) a worker, for all its open table
sockets at once:

- pushes their presence rows' expiry forward (``SeatConnection``); a worker
  that is killed stops doing so and its rows expire, so a seat never stays
  "connected" on a socket that no longer exists;
- reads where each of their tables is (version and status) and re-sends the
  screen of any socket still short of where its table was one beat earlier. A
  channel-layer message can be lost (Redis restarting, a full channel): the
  tablet then catches up within two heartbeats instead of waiting for the next
  move, while a socket merely a moment behind (its update on the way) is left
  alone.

One database call per worker per heartbeat, whatever the number of sockets.
The set of sockets is per event loop (tests run several loops).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.conf import settings

from cardgames.dbwork import db_work

logger = logging.getLogger(__name__)


class Live(Protocol):
    """What the heartbeat needs from a socket (``TableConsumer``)."""

    table_id: int
    channel_name: str
    rendered_version: int
    rendered_status: str
    # Where the table was when this socket was last found behind (or None).
    lagging: Any

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
    marks = await db_work(services.seat_connections_heartbeat)(
        channel_names=[s.channel_name for s in sockets if s.present_on_seat()],
        table_ids=sorted({s.table_id for s in sockets}),
    )
    for socket in sockets:
        mark = marks.get(socket.table_id)
        if mark is None:
            continue
        if not _behind(socket, mark):
            socket.lagging = None
            continue
        lag = socket.lagging
        socket.lagging = mark
        # Behind at one beat is normal under load (the broadcast is on its way);
        # still short of that same mark one beat later, the message was lost.
        if lag is None or not _behind(socket, lag):
            continue
        logger.info("table %s: a socket missed a change, resending", socket.table_id)
        task = asyncio.create_task(socket.resync())
        if state is not None:
            state.resyncs.add(task)
            task.add_done_callback(state.resyncs.discard)
        else:
            await task


def _behind(socket: Any, mark: Any) -> bool:
    """The socket's screen is older than ``mark`` (a version, or the same version
    with another status: a pause)."""
    return bool(
        socket.rendered_version < mark.version
        or (socket.rendered_version == mark.version and socket.rendered_status != mark.status)
    )
