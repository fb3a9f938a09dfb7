"""Telling the world a table changed: channel-layer messages and the scheduler.

Services never run bots or timers themselves: they only say "table N is next
due at T". Whoever runs them (``cardgames.runtime``, registered by
``CardgamesConfig.ready``) subscribes with :func:`scheduler_register`, so this
package imports nothing above it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from cardgames.dbwork import db_work

logger = logging.getLogger(__name__)

Scheduler = Callable[[int, datetime], None]
_scheduler: Scheduler | None = None


def scheduler_register(*, scheduler: Scheduler | None) -> None:
    """Name the function that runs a table's due moves at a given time
    (``None``: nobody, e.g. a script that plays bots itself)."""
    global _scheduler
    _scheduler = scheduler


def table_group(table_id: int) -> str:
    """The channel-layer group of a table: every seat, the projector and the monitor."""
    return f"table-{table_id}"


def presence_group(table_id: int) -> str:
    """The group told when a socket of the table opens or closes: only the
    teacher's monitor shows presence. Sent to the table's group, every tablet
    got each one and dropped it; when a killed worker's 190 tablets reconnect
    at once, that was about 760 messages dispatched for nothing."""
    return f"table-{table_id}-presence"


# A failed send is tried again after these pauses (seconds), then given up
# loudly: the table's sockets catch up on their worker's next heartbeat
# (``cardgames.liveness``), so a lost message delays a screen, never freezes it.
SEND_RETRY_DELAYS = (0.05, 0.25, 1.0)


async def _group_send(about: str, message: dict[str, Any], group: str) -> None:
    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - a channel layer is always configured
        return
    for attempt, delay in enumerate((0.0, *SEND_RETRY_DELAYS)):
        if delay:
            await asyncio.sleep(delay)
        try:
            await layer.group_send(group, message)
            return
        except Exception as exc:
            if attempt == len(SEND_RETRY_DELAYS):
                logger.error(
                    "%s: %s lost after %s tries (%r); its sockets resync on their"
                    " next heartbeat",
                    about,
                    message.get("type"),
                    attempt + 1,
                    exc,
                )
            else:
                logger.warning(
                    "%s: %s send failed (%r), trying again", about, message.get("type"), exc
                )


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this thread works for, when it is a ``sync_to_async``
    thread of a running server (every websocket handler and bot run)."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return loop
    return None  # called from async code itself: not a sync thread


def group_notify(*, group: str, message: dict[str, Any], about: str) -> None:
    """Send ``message`` to ``group`` from synchronous code (services run in a
    thread); ``about`` names what it concerns in the log ("table 12").

    In a server the send is handed to the event loop and not waited for: the
    database thread goes on with its next job (the mover's own screen first)
    while the loop fans the change out. (Waiting, as ``async_to_sync`` does,
    kept the database thread idle until the busy loop got round to the send:
    under ``make loadtest`` the teacher's "needs help" push after each lesson
    move was a sixth of that thread's samples.) Elsewhere (a management
    command, a test) it is sent before returning. Either way a failure is
    retried, then logged as lost; it never undoes the committed change."""
    loop = _server_loop()
    if loop is not None:
        future = asyncio.run_coroutine_threadsafe(_group_send(about, message, group), loop)
        _pending.add(future)
        future.add_done_callback(_pending.discard)
        return
    try:
        async_to_sync(_group_send)(about, message, group)
    except Exception:  # pragma: no cover - _group_send logs its own failures
        logger.exception("%s: %s not sent", about, message.get("type"))


def table_notify(*, table_id: int, message: dict[str, Any], group: str | None = None) -> None:
    """Send to the table's group (or ``group``) from synchronous code, without
    waiting (``group_notify``), stamped so the sockets of one process share a
    single read of the table for it (``live_screens.shared_snapshot``)."""
    message = {**message, "table_id": table_id, "stamp": message.get("stamp") or secrets.token_hex(8)}
    if message.get("type") == "table.changed":
        _stamps.__dict__.setdefault("by_table", {})[table_id] = message["stamp"]
    group_notify(group=group or table_group(table_id), message=message, about=f"table {table_id}")


# Work handed to the database threads after a move, not finished yet.
_after_reply: set[asyncio.Task[None]] = set()


def _after_reply_done(task: asyncio.Task[None]) -> None:
    _after_reply.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("work after a move failed", exc_info=task.exception())


def after_reply(work: Callable[[], None]) -> None:
    """Run ``work`` (database work a committed move causes: its receivers, such
    as the learning record) as a job of its own on the database threads, not in
    the thread that made the move, when in a server; at once elsewhere.

    The move's thread then returns to the pupil's socket, whose new screen is
    drawn while ``work`` runs, instead of after it: on a lesson's move that was
    the record's two statements and the monitor's push before the child saw
    anything. ``work`` must not need the move's transaction (it has committed)."""
    loop = _server_loop()
    if loop is None:
        work()
        return

    def start() -> None:
        task = loop.create_task(db_work(work)())
        _after_reply.add(task)
        task.add_done_callback(_after_reply_done)

    # A context of its own: this thread's marks Channels' database thread as
    # in use, and a job started under it would be refused as a deadlock.
    loop.call_soon_threadsafe(start, context=contextvars.Context())


def presence_notify(*, table_id: int, seat: int | None) -> None:
    """A socket of the table opened or closed (``seat``; ``None``: several
    expired): the monitor redraws the table's presence."""
    table_notify(
        table_id=table_id,
        message={"type": "table.presence", "seat": seat},
        group=presence_group(table_id),
    )


# The stamp of the last ``table.changed`` each thread sent, per table: the socket
# that made the move reads and renders its reply under it, and the broadcast's
# sockets in the same worker then reuse that read and that render.
_stamps = threading.local()


def broadcast_stamp_take(*, table_id: int) -> str | None:
    """The stamp of the change this thread just broadcast for the table (once)."""
    stamps: dict[int, str] = _stamps.__dict__.get("by_table", {})
    return stamps.pop(table_id, None)


# Sends handed to the loop and not finished yet (kept referenced until done).
_pending: set[concurrent.futures.Future[None]] = set()


def table_due(*, table_id: int, at: datetime | None) -> None:
    """Say when the table next needs its bots or turn timer run (``None``: never)."""
    if at is not None and _scheduler is not None:
        _scheduler(table_id, at)


@dataclass(frozen=True)
class TableAfter:
    """A table exactly as a move committed it: its row, its seats, the new
    state. Nobody changes these objects after the commit; the screens of that
    change are drawn from them, in this process, without reading the table again."""

    table: Any
    seats: list[Any]
    version: int
    engine: Any
    state: Any
    # When the new turn started (the game state's ``turn_started_at``): the bots
    # judge the next move due from it without reading the table again.
    turn_started_at: Any = None


# The committed tables of recent broadcasts, by stamp, for the sockets of this
# process (any thread writes, the event loop reads). Bounded: a table with no
# socket here never claims its entry, which simply ages out.
_AFTER: OrderedDict[str, TableAfter] = OrderedDict()
_AFTER_MAX = 256
_after_lock = threading.Lock()


def move_after_take(*, stamp: object) -> TableAfter | None:
    """The table as the move behind this broadcast committed it, when that move
    was made in this process (once; ``None`` otherwise: read the database)."""
    if not isinstance(stamp, str):
        return None
    with _after_lock:
        return _AFTER.pop(stamp, None)


def table_changed(
    *, table_id: int, version: int, next_due: datetime | None, after: TableAfter | None = None
) -> None:
    """After a commit: every screen of the table redraws, and the next due move
    is scheduled. ``after``: the committed table, so this process's screens are
    drawn without another read."""
    stamp = secrets.token_hex(8)
    if after is not None:
        with _after_lock:
            _AFTER[stamp] = after
            while len(_AFTER) > _AFTER_MAX:
                _AFTER.popitem(last=False)
    table_notify(
        table_id=table_id, message={"type": "table.changed", "version": version, "stamp": stamp}
    )
    table_due(table_id=table_id, at=next_due)
