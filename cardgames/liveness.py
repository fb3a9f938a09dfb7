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

It also tells the tablets when the server cannot reach Redis or PostgreSQL
(``outage``): each open screen says "Connexion au serveur perdue, on
réessaie…" in its reader's language, and once the service is back every
screen is brought up to its table at once (``catch_up``), not one or two
heartbeats later, and the line goes away by itself. The socket stays open
throughout: closing it would only make the tablet reconnect into the same
outage, each failure doubling htmx's reconnect delay.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import translation
from django.utils.translation import gettext as _

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
    # Services this loop cannot reach now ("redis", "database"), and the task
    # that waits for the database to answer again.
    down: set[str] = field(default_factory=set)
    db_probe: asyncio.Task[None] | None = None
    db_down_since: float = 0.0
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


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
    if state.down:  # connected during an outage: say so at once
        state.spawn(_tell([socket]))


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
        except DatabaseError:
            database_unreachable()  # one line for the outage, not a traceback per beat
        except Exception:
            logger.exception("heartbeat failed")


# ----------------------------------------------------------------- outages
# How often an unreachable database is asked again ("SELECT 1").
DB_PROBE_SECONDS = 0.5


def _loop_state() -> _LoopSockets | None:
    try:
        return _loops.get(asyncio.get_running_loop())
    except RuntimeError:
        return None


def outage_message() -> str:
    """What a tablet says while the server cannot reach a service it needs."""
    return _("Connexion au serveur perdue, on réessaie…")


def outage(service: str, down: bool) -> None:
    """From the event loop that found ``service`` ("redis", "database")
    unreachable (``down``) or back: tell this loop's screens, and bring them
    all up to their tables once nothing is down any more."""
    state = _loop_state()
    if state is None:
        return
    was_down = bool(state.down)
    if down:
        state.down.add(service)
    else:
        state.down.discard(service)
    sockets = list(state.sockets)
    if down and not was_down:
        state.spawn(_tell(sockets))
    elif was_down and not state.down:
        state.spawn(catch_up(sockets))


def redis_outage(down: bool) -> None:
    """The channel layer lost Redis (``down``) or has it back. The project's
    Redis layer calls this (``config.channel_layer`` registers it): the layer
    belongs to the project, and cardgames does not reach up into it."""
    outage("redis", down)


def database_unreachable() -> None:
    """A call to the database failed for want of a connection: tell the screens
    once, and probe until it answers (then ``outage("database", False)``)."""
    state = _loop_state()
    if state is None:
        return
    if "database" not in state.down:
        logger.warning("database unreachable: sockets stay open, waiting for it")
        state.db_down_since = time.monotonic()
    outage("database", True)
    if state.db_probe is None or state.db_probe.done():
        state.db_probe = asyncio.get_running_loop().create_task(_db_probe(state))


def _select_one() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        connection.close()  # back to the pool, or dropped when broken


async def _db_probe(state: _LoopSockets) -> None:
    while True:
        await asyncio.sleep(DB_PROBE_SECONDS)
        try:
            await db_work(_select_one)()
        except DatabaseError:
            continue
        logger.warning(
            "database reachable again after %.1f s", time.monotonic() - state.db_down_since
        )
        outage("database", False)
        return


async def _tell(sockets: list[Any]) -> None:
    """The outage line on each screen, in its reader's language. Straight onto
    the notice line, not held like a refusal: the next screen redraws it."""
    from cardgames import rendering

    for socket in sockets:
        if not getattr(socket, "joined", False):
            continue
        with translation.override(getattr(socket, "language", "") or settings.LANGUAGE_CODE):
            html = rendering.render_notice(outage_message())
        socket.shown.units.pop("table-notice", None)
        try:
            await socket._push(html)
        except Exception:  # a tablet gone meanwhile
            logger.debug("outage notice not sent", exc_info=True)


async def catch_up(sockets: list[Any]) -> None:
    """After an outage: every screen drawn again from its table (broadcasts
    were lost meanwhile), which also clears the outage line. One read per
    table, shared by its sockets (``shared_snapshot``); retried a few times
    should the database still be waking up."""
    from cardgames.live_screens import read_snapshot

    snaps: dict[int, Any] = {}
    for socket in sockets:
        if not getattr(socket, "joined", False):
            continue
        socket.shown.units.pop("table-notice", None)  # redrawn without the outage line
        for attempt in range(5):
            try:
                if socket.table_id not in snaps:
                    snaps[socket.table_id] = await read_snapshot(socket.table_id)
                await socket._show(snaps[socket.table_id])
                break
            except DatabaseError:
                await asyncio.sleep(0.5 * (attempt + 1))
            except Exception:  # a tablet gone meanwhile: its next connect redraws it
                logger.debug("catch-up failed for a socket", exc_info=True)
                break


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
