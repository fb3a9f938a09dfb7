"""Who a table's socket is, and its seat's presence: the database side of a
socket opening, re-checking its access and following a change of seats.

The consumer (``cardgames/consumers.py``) keeps only the socket; it calls these
on the database thread (``db_work``) and keeps what they return.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardgames.access import TableAccess, resolve_table_access
from cardgames.models import Table
from cardgames.services.bots import table_next_due
from cardgames.services.presence import seat_connection_close, seat_connection_open
from cardgames.services.tables import table_successor
from cardgames.snapshot import Snapshot, snapshot


@dataclass(frozen=True)
class Viewer:
    """Who a socket shows a table to: the table's game, the viewer's access
    (``None``: none) and, when asked for, the player at its seat."""

    game: str
    access: TableAccess | None
    player_key: str | None = None


def viewer_resolve(
    *, table_id: int, user: Any, session: Any, read_player_key: bool = True
) -> Viewer | None:
    """The socket's viewer, from its browser session (never from a message);
    ``None`` when the table does not exist."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    access = resolve_table_access(user=user, session=session, table=table)
    player_key = None
    if read_player_key and access is not None and access.seat is not None:
        player_key = (
            table.seats.filter(index=access.seat).values_list("player_key", flat=True).first()
        )
    return Viewer(game=table.game, access=access, player_key=player_key)


@dataclass(frozen=True)
class Opened:
    """A socket's table as it opens: the snapshot its first screen is drawn
    from, the seat's player, the table that replaced a finished one ("Rejouer")
    and when the table next needs a robot or a timer."""

    snap: Snapshot
    player_key: str | None
    successor_id: int | None
    next_due: Any


def socket_open(*, table_id: int, channel_name: str, seat: int | None) -> Opened | None:
    """Read the table for a socket granted ``seat`` and mark the seat present
    (its presence row, for the teacher's monitor). ``None``: the table went
    meanwhile."""
    snap = snapshot(table_id)
    if snap is None:  # pragma: no cover - deleted between two queries
        return None
    player_key = None
    if seat is not None:
        # The seat's player and row id come with the table's read.
        row = next((found for found in snap.seats if found.index == seat), None)
        player_key = row.player_key if row is not None else None
        seat_connection_open(
            table_id=table_id,
            seat=seat,
            channel_name=channel_name,
            seat_id=row.pk if row is not None else None,
        )
    successor_id = None
    if snap.table.status == Table.Status.FINISHED and seat is not None:
        successor = table_successor(table=snap.table)
        successor_id = successor.pk if successor is not None else None
    return Opened(
        snap=snap,
        player_key=player_key,
        successor_id=successor_id,
        next_due=table_next_due(table_id=table_id, snap=snap),
    )


def socket_reseat(
    *, table_id: int, channel_name: str, before: int | None, after: int | None
) -> None:
    """The teacher moved seats and this socket's seat went from ``before`` to
    ``after`` (``None``: no seat): the presence rows follow."""
    if before is not None and after != before:
        seat_connection_close(channel_name=channel_name)
    if after is not None and after != before:
        seat_connection_open(table_id=table_id, seat=after, channel_name=channel_name)
