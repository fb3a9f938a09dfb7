"""Telling the world a table changed: channel-layer messages and the scheduler.

Services never run bots or timers themselves: they only say "table N is next
due at T". Whoever runs them (``cardgames.runtime``, registered by
``CardgamesConfig.ready``) subscribes with :func:`scheduler_register`, so this
package imports nothing above it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

if TYPE_CHECKING:
    from cardgames.snapshot import Snapshot

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
    got each one and dropped it; when a killed worker's tablets reconnect at
    once, that was hundreds of messages dispatched for nothing."""
    return f"table-{table_id}-presence"


# A failed send is tried again after these pauses (seconds), then given up
# loudly: the table's sockets catch up on their worker's next heartbeat
# (``cardgames.liveness``), so a lost message delays a screen, never freezes it.
SEND_RETRY_DELAYS = (0.05, 0.25, 1.0)


async def group_send_retried(table_id: int, message: dict[str, Any], group: str) -> None:
    """Send to ``group`` on this event loop; a failure is tried again after
    ``SEND_RETRY_DELAYS``, then logged as lost (never raised)."""
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
                    "table %s: %s lost after %s tries (%r); its sockets resync on their"
                    " next heartbeat",
                    table_id,
                    message.get("type"),
                    attempt + 1,
                    exc,
                )
            else:
                logger.warning(
                    "table %s: %s send failed (%r), trying again", table_id, message.get("type"), exc
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


def table_notify(*, table_id: int, message: dict[str, Any], group: str | None = None) -> None:
    """Send to the table's group (or ``group``) from synchronous code (services
    run in a thread).

    In a server the send is handed to the event loop and not waited for: the
    database thread goes on with its next job (the mover's own screen first)
    while the loop fans the change out. Elsewhere (a management command, a
    test) it is sent before returning. Either way a failure is retried, then
    logged as lost; it never undoes the committed change."""
    # The stamp names this broadcast: the sockets of the table in one process
    # share a single read of the table for it (see live_screens.shared_snapshot).
    message = {**message, "table_id": table_id, "stamp": message.get("stamp") or secrets.token_hex(8)}
    if message.get("type") == "table.changed":
        _stamps.__dict__.setdefault("by_table", {})[table_id] = message["stamp"]
    group = group or table_group(table_id)
    loop = _server_loop()
    if loop is not None:
        future = asyncio.run_coroutine_threadsafe(group_send_retried(table_id, message, group), loop)
        _pending.add(future)
        future.add_done_callback(_pending.discard)
        return
    try:
        async_to_sync(group_send_retried)(table_id, message, group)
    except Exception:  # pragma: no cover - group_send_retried logs its own failures
        logger.exception("table %s: %s not sent", table_id, message.get("type"))


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
# socket here never reads its entry, which simply ages out.
_AFTER: OrderedDict[str, Snapshot] = OrderedDict()
_AFTER_MAX = 256
_after_lock = threading.Lock()


def move_after(*, stamp: object) -> Snapshot | None:
    """The table as the move behind this broadcast committed it (the snapshot
    ``table_changed`` was given), when that move was made in this process;
    ``None`` otherwise: read the database. Every caller gets the same object:
    the mover's reply and the other screens of the change are drawn from one
    snapshot and share the parts they have in common. It was taken by the
    first caller once, and the others read the table again meanwhile: the
    mover's thread took it, and until its socket had shared it the broadcast's
    sockets went to the database, and their screens were drawn later."""
    if not isinstance(stamp, str):
        return None
    with _after_lock:
        return _AFTER.get(stamp)


def table_changed(
    *,
    table_id: int,
    version: int,
    next_due: datetime | None,
    after: Snapshot | None = None,
    robot: bool = False,
) -> None:
    """After a commit: every screen of the table redraws, and the next due move
    is scheduled. ``after``: the committed table's snapshot, so this process's
    screens are drawn without another read (``move_after``). ``robot``: a
    robot's move (or a timed-out turn), whose screens give way to the pupils'
    (``table_hub``): no child is waiting on those milliseconds."""
    stamp = secrets.token_hex(8)
    if after is not None:
        with _after_lock:
            _AFTER[stamp] = after
            while len(_AFTER) > _AFTER_MAX:
                _AFTER.popitem(last=False)
    message: dict[str, Any] = {"type": "table.changed", "version": version, "stamp": stamp}
    if robot:
        message["robot"] = True
    table_notify(table_id=table_id, message=message)
    table_due(table_id=table_id, at=next_due)
