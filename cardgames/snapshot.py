"""One consistent read of a table: its row, seats, state and engine.

Both the services (a robot's turn, a move's reply) and the screens
(``cardgames.rendering``) work from a snapshot, so it lives below both: the
services read a table here without reaching up into the code that draws it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language

from cardgames import engines, statements, ui
from cardgames.models import Seat, SeatConnection, Table


@dataclass
class Snapshot:
    """One consistent read of a table: row, seats, state and its engine."""

    table: Table
    seats: list[Seat]
    version: int
    engine: Any
    state: Any | None
    # When the current turn started (turn timers, robots' think time).
    turn_started_at: Any = None
    # The seats' names by language: every screen of a change asks for them.
    _names: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def seat_names(self) -> list[str]:
        language = get_language() or ""
        names = self._names.get(language)
        if names is None:
            names = self._names[language] = [shown_name(seat) for seat in self.seats]
        return names


def snapshot(table_id: int, *, presence: bool = False) -> Snapshot | None:
    """One read of a table: two statements written once (``cardgames.statements``:
    this runs once per change per worker, and the ORM's query building was half
    its cost). With ``presence`` (the teacher's monitor), a third gives each seat
    ``connections``, its sockets alive now; no table screen shows presence, so
    the live path does not pay for it."""
    found = statements.game_state_read(table_id)
    if found is not None:
        table = found.table
    else:
        tables = list(Table.objects.filter(pk=table_id).order_by()[:1])
        if not tables:
            return None
        table = tables[0]
    seats = statements.seats_read(table_id)
    if presence:
        alive = Counter(
            SeatConnection.objects.filter(
                seat__table_id=table_id, expires_at__gt=timezone.now()
            ).values_list("seat_id", flat=True)
        )
        for seat in seats:
            seat.connections = alive[seat.pk]  # type: ignore[attr-defined]
    engine = engines.get(table.game)
    state = engine.from_json(found.state) if found is not None else None
    return Snapshot(
        table=table,
        seats=seats,
        version=found.version if found is not None else 0,
        engine=engine,
        state=state,
        turn_started_at=found.turn_started_at if found is not None else None,
    )


def snapshot_of(after: Any) -> Snapshot:
    """The snapshot of a table as a move just committed it (``services.TableAfter``):
    what ``snapshot`` would read right after that commit, without the read. Its
    seats carry no ``connections`` (screens do not show presence; the monitor
    reads its own)."""
    return Snapshot(
        table=after.table,
        seats=sorted(after.seats, key=lambda s: s.index),
        version=after.version,
        engine=after.engine,
        state=after.state,
        turn_started_at=getattr(after, "turn_started_at", None),
    )


def shown_name(seat: Seat) -> str:
    """A seat's name in the reader's language (robots are renamed when shown)."""
    return ui.seat_name(
        display_name=seat.display_name, is_bot=seat.is_bot, bot_level=seat.bot_level or ""
    )


def winner_names(snap: Snapshot) -> list[str]:
    """The names of a finished game's winners; none when the table was ended
    before its game was over (the teacher's "Terminer la table")."""
    if snap.state is None or snap.table.status != Table.Status.FINISHED:
        return []
    if not snap.engine.is_over(snap.state):
        return []
    names = snap.seat_names
    winners = snap.engine.result(snap.state).get("winners") or []
    return [names[s] for s in winners if isinstance(s, int) and 0 <= s < len(names)]
