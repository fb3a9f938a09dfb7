"""The live path's shared work, kept off the event loop and off the database
threads, for every table socket of a worker (``consumers.TableConsumer``):

- the read of a table after a change runs on two reader threads
  (``read_snapshot``), once per change per worker (``shared_snapshot``), shared
  by all its sockets of that table (none at all when the move was made in this
  worker: ``services.move_after``);
- rendering runs on a render thread of its own, once per change per seat and
  worker (``render_screen``): the projector and the teacher's screens share the
  public one, and every screen of a change shares the parts common to all;
- a worker opens a few sockets at a time (``opening_slots``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import itertools
import queue
import threading
import weakref
from collections import OrderedDict
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import translation

from cardgames import rendering, screen_units, services

# Reads of a table for a broadcast or a resync run on their own two threads, not
# on the database thread where every move, bot and connect of the worker waits
# in one queue: a screen update then never queues behind other tables' writes.
_READERS = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="table-read")


def _read_snapshot(table_id: int) -> rendering.Snapshot | None:
    close_old_connections()  # as database_sync_to_async does around each call
    try:
        return rendering.snapshot(table_id)
    finally:
        close_old_connections()


def _readers_allowed() -> bool:
    """Not on SQLite's in-memory test database: its shared cache locks whole
    tables between connections (a file in WAL mode lets readers run alongside)."""
    return not (connection.vendor == "sqlite" and connection.is_in_memory_db())


async def read_snapshot(table_id: int) -> rendering.Snapshot | None:
    if not _readers_allowed():
        return await database_sync_to_async(rendering.snapshot)(table_id)
    return await asyncio.get_running_loop().run_in_executor(_READERS, _read_snapshot, table_id)


# One read of a table per broadcast per process. Every socket of a table gets
# the same ``table.changed`` message (same stamp): the first to handle it loads
# the table, the others reuse that read-only snapshot and only render their own
# seat. Keyed by the stamp, so a stale entry can never be served for a new change.
_SHARED_SNAPSHOTS: OrderedDict[tuple[int, str], asyncio.Future[rendering.Snapshot | None]] = (
    OrderedDict()
)
_SHARED_SNAPSHOTS_MAX = 256


async def shared_snapshot(table_id: int, stamp: object) -> rendering.Snapshot | None:
    if not isinstance(stamp, str) or not stamp:
        return await read_snapshot(table_id)
    after = services.move_after(stamp=stamp)
    if after is not None:
        # The move was made in this process: its committed table is at hand.
        return after
    key = (table_id, stamp)
    future = _SHARED_SNAPSHOTS.get(key)
    if future is None or future.get_loop() is not asyncio.get_running_loop():
        future = asyncio.ensure_future(read_snapshot(table_id))
        _SHARED_SNAPSHOTS[key] = future
        while len(_SHARED_SNAPSHOTS) > _SHARED_SNAPSHOTS_MAX:
            _SHARED_SNAPSHOTS.popitem(last=False)
    return await asyncio.shield(future)


# Rendering runs on one thread of its own: not on the database thread (a table's
# screens must not wait behind another table's transaction) and not on the event
# loop, which must stay free to read and write every socket. Renders on the
# loop starved it for the GIL; a pool of several threads was no better; one
# render thread with a short GIL switch interval (config/asgi.py) was what
# worked. Measured: docs/performance.md.
# One render per change, seat and viewer kind per process (same stamp as the
# snapshot): two sockets of one seat, or every public screen, share it. The
# cache is only touched from the render thread.
class _RenderThread:
    """The render thread, with its queue in order of urgency: a socket's answer
    to its own message (the mover's new screen, a tapped card) before the
    broadcasts. A move's broadcast reaches the other sockets of the table while
    the mover's reply is still on its way back from the database thread; in a
    plain queue their renders came first, and the pupil who moved waited for
    three screens to be drawn before seeing their own."""

    # LATER: a robot's move. Its screens are drawn one job each, so that a
    # pupil's move that comes meanwhile waits for one screen at most, not four.
    OWN, BROADCAST, LATER = 0, 1, 2

    def __init__(self) -> None:
        self._queue: queue.PriorityQueue[tuple[int, int, Any]] = queue.PriorityQueue()
        self._order = itertools.count()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._working = False

    def submit(self, urgency: int, func: Any, *args: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._queue.put((urgency, next(self._order), (future, func, args)))
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="render_0", daemon=True)
                self._thread.start()
        return future

    def busy(self) -> bool:
        """Whether a screen is being drawn or waits to be (read from any thread:
        a stale answer only costs one wait for nothing, or one skipped)."""
        return self._working or not self._queue.empty()

    def _run(self) -> None:
        while True:
            _urgency, _order, (future, func, args) = self._queue.get()
            if not future.set_running_or_notify_cancel():
                continue
            self._working = True
            try:
                future.set_result(func(*args))
            except BaseException as exc:  # handed to the awaiting socket
                future.set_exception(exc)
            finally:
                self._working = False


_RENDERER = _RenderThread()
_SHARED_SCREENS: OrderedDict[tuple[Any, ...], screen_units.Screen] = OrderedDict()
_SHARED_SCREENS_MAX = 1024


def _shared_screen(
    snap: rendering.Snapshot,
    stamp: object,
    seat: int | None,
    steer: bool,
    notice: str,
    language: str,
) -> screen_units.Screen:
    # asgiref's Local ignores context that merely crossed into another thread,
    # so the socket's language is handed over explicitly.
    with translation.override(language):
        return _render_shared(snap, stamp, seat, steer, notice)


# The parts common to every screen of one snapshot (the board, the other
# players' lines), per table, change and language: the first render draws them,
# the other seats' and the projector's copy them. Reused only for the very
# snapshot they were drawn from: two reads under one stamp (a broadcast racing
# the mover's reply) never mix.
#
# The snapshot is known by a weak reference. Held strongly, the 1024 entries
# kept 1024 snapshots (their seats, state and event log) alive long after their
# screens were sent, and every full pass of the garbage collector walked them
# while every thread of the worker waited. A snapshot is needed only while it
# is being drawn, and the caches that hand it out (``services.move_after``,
# ``shared_snapshot``) keep it that long.
_SHARED_PARTS: OrderedDict[
    tuple[Any, ...], tuple[weakref.ref[rendering.Snapshot], dict[tuple[Any, ...], str]]
] = OrderedDict()


def _kept_parts(key: tuple[Any, ...], snap: rendering.Snapshot) -> dict[tuple[Any, ...], str] | None:
    """The parts kept under ``key``, if drawn from this very snapshot."""
    entry = _SHARED_PARTS.get(key)
    return entry[1] if entry is not None and entry[0]() is snap else None


def _shared_parts(snap: rendering.Snapshot, stamp: str) -> dict[tuple[Any, ...], str]:
    key = (snap.table.pk, stamp, translation.get_language())
    parts = _kept_parts(key, snap)
    if parts is None:
        parts = {}
        _SHARED_PARTS[key] = (weakref.ref(snap), parts)
        while len(_SHARED_PARTS) > _SHARED_SCREENS_MAX:
            _SHARED_PARTS.popitem(last=False)
    return parts


def _render_shared(
    snap: rendering.Snapshot, stamp: object, seat: int | None, steer: bool, notice: str
) -> screen_units.Screen:
    if not isinstance(stamp, str) or not stamp:
        return rendering.render_screen(snap, seat, notice=notice, steer=steer)
    parts = _shared_parts(snap, stamp)
    if notice:
        return rendering.render_screen(snap, seat, notice=notice, steer=steer, shared_parts=parts)
    key = (snap.table.pk, stamp, seat, steer, translation.get_language())
    screen = _SHARED_SCREENS.get(key)
    if screen is None:
        # A broadcast is news to every screen: its spoken line is said once.
        screen = _SHARED_SCREENS[key] = rendering.render_screen(
            snap, seat, steer=steer, announce=True, shared_parts=parts
        )
        while len(_SHARED_SCREENS) > _SHARED_SCREENS_MAX:
            _SHARED_SCREENS.popitem(last=False)
    return screen


async def render_screen(
    snap: rendering.Snapshot,
    *,
    stamp: object,
    seat: int | None,
    steer: bool,
    notice: str = "",
    own: bool = False,
) -> screen_units.Screen:
    """The screen of ``seat`` for ``snap``, rendered on the render thread (with
    this task's context: the active language). ``own``: the answer to this
    socket's own message, drawn before any broadcast waiting for the thread."""
    context = contextvars.copy_context()
    future = _RENDERER.submit(
        _RENDERER.OWN if own else _RENDERER.BROADCAST,
        context.run,
        _shared_screen,
        snap,
        stamp,
        seat,
        steer,
        notice,
        translation.get_language() or settings.LANGUAGE_CODE,
    )
    return await asyncio.wrap_future(future)


def _shared_screens(
    snap: rendering.Snapshot, stamp: object, viewers: list[tuple[int | None, bool, str]]
) -> list[screen_units.Screen]:
    return [
        _shared_screen(snap, stamp, seat, steer, "", language) for seat, steer, language in viewers
    ]


async def render_screens(
    snap: rendering.Snapshot, *, stamp: object, viewers: list[tuple[int | None, bool, str]]
) -> list[screen_units.Screen]:
    """The screens of several sockets of one table for one change (``viewers``:
    each one's seat, whether it steers, and its language), drawn in one job on
    the render thread: one trip there and back for a worker's sockets of the
    table, not one each (``cardgames.table_hub``)."""
    future = _RENDERER.submit(_RENDERER.BROADCAST, _shared_screens, snap, stamp, viewers)
    return await asyncio.wrap_future(future)


def screens_later(
    snap: rendering.Snapshot, *, stamp: object, viewers: list[tuple[int | None, bool, str]]
) -> list[asyncio.Future[screen_units.Screen]]:
    """The screens of a robot's move, as ``render_screens`` draws them, but
    each a job of its own behind every pupil's screen (``_RenderThread.LATER``).

    Why: changes of different tables share one GIL, so a pupil whose tap comes
    while another table's change is drawn waits for it (``bench_ws.py``: most
    of the slowest moves overlapped another table's change, often a robot's).
    A robot "thinks" for a second or more: a few milliseconds more
    are invisible on its table, while the pupil's are the measured wait."""
    return [
        asyncio.wrap_future(
            _RENDERER.submit(_RENDERER.LATER, _shared_screens, snap, stamp, [viewer])
        )
        for viewer in viewers
    ]


async def screens_queued_drawn() -> None:
    """Wait until the render thread has drawn every screen queued so far (a
    move's broadcast), so that work which can wait starts after them."""
    await asyncio.wrap_future(_RENDERER.submit(_RENDERER.BROADCAST, _nothing))


def screens_in_flight_drawn(*, timeout: float = 1.0) -> None:
    """Called on a database thread as a move (a pupil's message, a robot's turn)
    starts there: let the screens already queued for other moves go out first.
    Free when the render thread is idle (the usual case); ``timeout`` only
    guards against a render thread that stopped.

    Every thread of a worker shares one GIL. When a move's database work ran
    while another table's four screens were being drawn, the two took the GIL
    turn about and *both* tables waited for the sum of their work; finishing
    the screens queued first gives the earlier table its screens at once and
    costs the later one nothing it would not have waited anyway. Renders never
    wait for a database thread, so this wait cannot close a circle. Measured:
    docs/performance.md."""
    if not _RENDERER.busy():
        return
    marker = _RENDERER.submit(_RENDERER.BROADCAST, _nothing)
    with contextlib.suppress(concurrent.futures.TimeoutError):
        marker.result(timeout)


def _nothing() -> None:
    return None


# Sockets of one worker that open (read their table, draw their whole screen)
# at the same time. Opening costs several times a move; when a killed worker's
# tablets reconnect to this one at once, each move queued behind all their
# reads and renders. A few at a time, the moves of the tables already playing
# slip between.
OPENING_AT_ONCE = 4
_opening: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def opening_slots() -> asyncio.Semaphore:
    """This event loop's opening slots (tests run several loops)."""
    loop = asyncio.get_running_loop()
    slots = _opening.get(loop)
    if slots is None:
        slots = _opening[loop] = asyncio.Semaphore(OPENING_AT_ONCE)
    return slots
