"""Who is connected to a table, and sending everyone away.

Presence is one ``SeatConnection`` row per open socket with an expiry, pushed
forward by the socket's worker (``cardgames.liveness``) and deleted when the
socket closes. A seat shows connected while it has a row that has not expired:
a killed worker's sockets stop counting within one time-to-live, where a
counter would have stayed high forever.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from cardgames.models import Seat, SeatConnection, Table
from cardgames.services.notify import presence_notify, table_notify


def _presence_ttl() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "CARDGAMES_PRESENCE_TTL_SECONDS", 45)))


def seat_connection_open(
    *, table_id: int, seat: int, channel_name: str, seat_id: int | None = None
) -> None:
    """A socket opened on a seat: one presence row for it, alive for one
    time-to-live unless its worker's heartbeat pushes it further. No lock
    (nothing of the game changes). ``seat_id``: the seat's row id when the
    caller has just read it.

    An UPDATE, then an INSERT when no row has this socket's name (always, but
    after a seat change): two statements. ``update_or_create`` took five (a
    transaction, a locking read, a savepoint around the insert), and when a
    killed worker's tablets all reconnect at once every opening counts."""
    if seat_id is None:
        seat_id = (
            Seat.objects.filter(table_id=table_id, index=seat).values_list("pk", flat=True).first()
        )
    if seat_id is None:
        return
    now = timezone.now()
    expires_at = now + _presence_ttl()
    moved = SeatConnection.objects.filter(channel_name=channel_name).update(
        seat_id=seat_id, expires_at=expires_at
    )
    if not moved:
        SeatConnection.objects.create(
            channel_name=channel_name, seat_id=seat_id, expires_at=expires_at
        )
    Seat.objects.filter(pk=seat_id).update(last_seen_at=now)
    transaction.on_commit(lambda: presence_notify(table_id=table_id, seat=seat))


def seat_connection_close(*, channel_name: str) -> None:
    """A socket closed normally: forget its presence row at once."""
    row = (
        SeatConnection.objects.filter(channel_name=channel_name)
        .values_list("pk", "seat_id", "seat__table_id", "seat__index")
        .first()
    )
    if row is None:
        return
    pk, seat_id, table_id, index = row
    SeatConnection.objects.filter(pk=pk).delete()
    Seat.objects.filter(pk=seat_id).update(last_seen_at=timezone.now())
    transaction.on_commit(lambda: presence_notify(table_id=table_id, seat=index))


@dataclass(frozen=True)
class TableMark:
    """What a table is at now, for a socket to check its screen against."""

    version: int
    status: str


def seat_connections_heartbeat(
    *, channel_names: list[str], table_ids: list[int]
) -> dict[int, TableMark]:
    """One worker's heartbeat: push its sockets' presence further, drop the rows
    of sockets whose worker died (expired), and return where each of its tables
    is, so a socket that missed a change (a lost channel-layer message) catches
    up. Three statements whatever the number of sockets; no lock."""
    now = timezone.now()
    if channel_names:
        SeatConnection.objects.filter(channel_name__in=channel_names).update(
            expires_at=now + _presence_ttl()
        )
    expired = list(
        SeatConnection.objects.filter(expires_at__lte=now).values_list("pk", "seat__table_id")
    )
    if expired:
        SeatConnection.objects.filter(pk__in=[pk for pk, _ in expired]).delete()
        gone = sorted({table_id for _, table_id in expired})

        def tell() -> None:
            for table_id in gone:
                presence_notify(table_id=table_id, seat=None)

        transaction.on_commit(tell)
    marks = Table.objects.filter(pk__in=table_ids).values_list("pk", "status", "gamestate__version")
    return {pk: TableMark(version=version or 0, status=status) for pk, status, version in marks}


def tables_close_sockets(*, table_ids: list[int], reason: str = "") -> None:
    """Ask every socket of these tables to say goodbye and close (the teacher
    ended the session and the pupils are logged out). Sent after commit; changes
    nothing, so no lock."""

    def send() -> None:
        for table_id in table_ids:
            table_notify(table_id=table_id, message={"type": "table.close", "reason": reason})

    transaction.on_commit(send)
