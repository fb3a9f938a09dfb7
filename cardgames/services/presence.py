"""Who is connected to a table, and sending everyone away."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from cardgames.models import Seat
from cardgames.services.notify import table_notify


def seat_presence(*, table_id: int, seat: int, delta: int) -> None:
    """Count a socket opening (+1) or closing (-1) on a seat, for the monitor's
    "connected" dot. A counter, not a flag: a pupil may open two tabs. One
    atomic UPDATE, so no lock is needed."""
    Seat.objects.filter(table_id=table_id, index=seat).update(
        connections=Greatest(F("connections") + delta, Value(0)), last_seen_at=timezone.now()
    )
    transaction.on_commit(
        lambda: table_notify(table_id=table_id, message={"type": "table.presence", "seat": seat})
    )


def tables_close_sockets(*, table_ids: list[int], reason: str = "") -> None:
    """Ask every socket of these tables to say goodbye and close (the teacher
    ended the session and the pupils are logged out). Sent after commit; changes
    nothing, so no lock."""

    def send() -> None:
        for table_id in table_ids:
            table_notify(table_id=table_id, message={"type": "table.close", "reason": reason})

    transaction.on_commit(send)
