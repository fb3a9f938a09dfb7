"""Telling the world a table changed: channel-layer messages and the scheduler.

Services never run bots or timers themselves: they only say "table N is next
due at T". Whoever runs them (``cardgames.runtime``, registered by
``CardgamesConfig.ready``) subscribes with :func:`scheduler_register`, so this
package imports nothing above it.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

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


def table_notify(*, table_id: int, message: dict[str, Any]) -> None:
    """Send to the table's group from synchronous code (services run in a thread)."""
    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - a channel layer is always configured
        return
    try:
        # The stamp names this broadcast: the sockets of the table in one process
        # share a single read of the table for it (see consumers.shared_snapshot).
        stamp = secrets.token_hex(8)
        async_to_sync(layer.group_send)(
            table_group(table_id), {**message, "table_id": table_id, "stamp": stamp}
        )
    except Exception:  # pragma: no cover - a broken layer must not undo a committed move
        logger.exception("group_send failed for table %s", table_id)


def table_due(*, table_id: int, at: datetime | None) -> None:
    """Say when the table next needs its bots or turn timer run (``None``: never)."""
    if at is not None and _scheduler is not None:
        _scheduler(table_id, at)


def table_changed(*, table_id: int, version: int, next_due: datetime | None) -> None:
    """After a commit: every screen of the table redraws, and the next due move
    is scheduled."""
    table_notify(table_id=table_id, message={"type": "table.changed", "version": version})
    table_due(table_id=table_id, at=next_due)
