"""When bots and turn timers run: a tiny per-event-loop scheduler.

The *state* of every timer lives in the database (``Seat.next_think_at``,
``GameState.turn_started_at`` and the ``turn_seconds`` option), so this module
only decides *when* to call :func:`cardgames.services.bot_turns`. Losing its
memory (a restart) loses nothing: any socket connecting to a table asks
``table_next_due`` and reschedules it.

Runs go on the server's asyncio loop as tasks; the consumer handlers never
sleep. Services run in worker threads (``dbwork.db_work``), so they
reach the loop with ``call_soon_threadsafe``. One run per table at a time; a
request arriving during a run is remembered and served after it.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import weakref
from dataclasses import dataclass, field
from datetime import datetime

from asgiref.sync import async_to_sync
from django.db import close_old_connections
from django.utils import timezone

from cardgames import services
from cardgames.dbwork import db_work
from cardgames.live_screens import screens_in_flight_drawn

logger = logging.getLogger(__name__)


@dataclass
class _LoopScheduler:
    loop: asyncio.AbstractEventLoop
    handles: dict[int, tuple[datetime, asyncio.TimerHandle]] = field(default_factory=dict)
    running: set[int] = field(default_factory=set)
    rerun: set[int] = field(default_factory=set)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def schedule(self, table_id: int, at: datetime) -> None:
        """On the loop's thread: run the table at ``at`` unless a run is due sooner."""
        if table_id in self.running:
            self.rerun.add(table_id)
            return
        existing = self.handles.get(table_id)
        if existing is not None:
            if existing[0] <= at:
                return
            existing[1].cancel()
        delay = max(0.0, (at - timezone.now()).total_seconds())
        handle = self.loop.call_later(delay, self._fire, table_id, context=contextvars.Context())
        self.handles[table_id] = (at, handle)

    def _fire(self, table_id: int) -> None:
        self.handles.pop(table_id, None)
        if table_id in self.running:
            self.rerun.add(table_id)
            return
        self.running.add(table_id)
        # A fresh context: a run must not inherit asgiref's "inside a sync thread"
        # markers from whoever scheduled it (that would refuse to deadlock).
        task = self.loop.create_task(self._run(table_id), context=contextvars.Context())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _run(self, table_id: int) -> None:
        next_due: datetime | None = None
        try:
            next_due = await db_work(_bot_turns_after_screens)(table_id)
        except Exception:
            logger.exception("bot_turns failed for table %s", table_id)
        finally:
            self.running.discard(table_id)
        if table_id in self.rerun:
            self.rerun.discard(table_id)
            self.schedule(table_id, timezone.now())
        elif next_due is not None:
            self.schedule(table_id, next_due)

    async def drain(self) -> None:
        """Wait until no run is pending or running (tests)."""
        while self.tasks or any(at <= timezone.now() for at, _ in self.handles.values()):
            await asyncio.sleep(0.005)


_schedulers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopScheduler] = (
    weakref.WeakKeyDictionary()
)
_main_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def _bot_turns_after_screens(table_id: int) -> datetime | None:
    """A robot's turn, on a database thread: as a pupil's move does, it lets
    the screens already queued go out first (``screens_in_flight_drawn``)."""
    screens_in_flight_drawn()
    return services.bot_turns(table_id=table_id)


def _scheduler(loop: asyncio.AbstractEventLoop) -> _LoopScheduler:
    with _lock:
        scheduler = _schedulers.get(loop)
        if scheduler is None:
            scheduler = _schedulers[loop] = _LoopScheduler(loop)
        return scheduler


def remember_loop() -> None:
    """Called from async code (every consumer connect): the loop runs will use."""
    global _main_loop
    _main_loop = asyncio.get_running_loop()


async def _running_loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


def _find_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    loop = _main_loop
    if loop is not None and loop.is_running() and not loop.is_closed():
        return loop
    # Inside a sync view served by an ASGI server, async_to_sync runs on the
    # server's loop; in a plain thread it makes a throwaway loop (not running
    # afterwards), which we must not use.
    try:
        loop = async_to_sync(_running_loop)()
    except Exception:  # pragma: no cover
        return None
    return loop if loop.is_running() and not loop.is_closed() else None


def schedule(table_id: int, at: datetime) -> None:
    """Run ``bot_turns`` for ``table_id`` at ``at`` (now if in the past)."""
    loop = _find_loop()
    if loop is None:
        _schedule_in_thread(table_id, at)
        return
    scheduler = _scheduler(loop)
    try:
        current = asyncio.get_running_loop()
    except RuntimeError:
        current = None
    if current is loop:
        scheduler.schedule(table_id, at)
    else:
        loop.call_soon_threadsafe(scheduler.schedule, table_id, at, context=contextvars.Context())


def table_due(table_id: int, at: datetime) -> None:
    """The hook services call (see ``CardgamesConfig.ready``): "table N is next
    due at T". Looks ``schedule`` up at call time, so tests can replace it."""
    schedule(table_id, at)


def _schedule_in_thread(table_id: int, at: datetime) -> None:
    """No server loop in this process (a management command): a timer thread."""

    def run() -> None:
        try:
            next_due = services.bot_turns(table_id=table_id)
        except Exception:
            logger.exception("bot_turns failed for table %s", table_id)
            next_due = None
        finally:
            close_old_connections()
        if next_due is not None:
            _schedule_in_thread(table_id, next_due)

    delay = max(0.0, (at - timezone.now()).total_seconds())
    timer = threading.Timer(delay, run)
    timer.daemon = True
    timer.start()


async def drain() -> None:
    """Wait for every due run on this loop to finish (tests and benchmarks)."""
    scheduler = _schedulers.get(asyncio.get_running_loop())
    if scheduler is not None:
        await scheduler.drain()
