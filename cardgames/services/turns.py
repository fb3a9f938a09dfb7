"""Who a table waits for, and the rows every change of a game writes.

:func:`turn_plan` is the single place that reads "whose move is due": the
current seat of a turn-based game, every bot with something to do in a
simultaneous one, and the ``turn_seconds`` timer of a pupil. The turn timer
(:func:`turn_arm`, after each change) and the bot scheduler
(:func:`due_moves`, when the table's time comes) both start from it, so they
can never disagree about who is due.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from cardgames import statements
from cardgames.models import Seat, Table


@dataclass(frozen=True)
class TurnPlan:
    """The seats a table waits for.

    ``bots``: bot seats that must move, each after its think time.
    ``timed``: the pupil whose turn runs on a ``turn_seconds`` timer.
    ``simultaneous``: every bot thinks at once, so a think time already
    running is kept rather than restarted."""

    bots: tuple[Seat, ...] = ()
    timed: Seat | None = None
    turn_seconds: int = 0
    simultaneous: bool = False


def _turn_seconds(table: Table) -> int:
    value = table.options.get("turn_seconds") if isinstance(table.options, dict) else None
    return int(value) if value else 0


def turn_plan(*, table: Table, engine: Any, state: Any, seats: list[Seat]) -> TurnPlan:
    """Whose move the table waits for (nobody when paused, waiting or over).
    Reads only what it is given: no query, no lock."""
    if table.status != Table.Status.PLAYING or engine.is_over(state):
        return TurnPlan()
    if engine.simultaneous:
        bots = tuple(s for s in seats if s.is_bot and engine.legal_actions(state, s.index))
        return TurnPlan(bots=bots, simultaneous=True)
    current = engine.view(state, None).get("current_seat")
    seat = next((s for s in seats if s.index == current), None)
    if seat is None:
        return TurnPlan()
    if seat.is_bot:
        return TurnPlan(bots=(seat,))
    return TurnPlan(timed=seat, turn_seconds=_turn_seconds(table))


def bot_delay(*, simultaneous: bool = False) -> timedelta:
    """A bot's think time, so a child can follow what it plays. In a game where
    everyone acts at once (no turns) bots wait longer between two of their own
    moves, so children can read the table and trade too."""
    low, high = settings.SIMULTANEOUS_BOT_DELAY_RANGE if simultaneous else settings.BOT_DELAY_RANGE
    return timedelta(seconds=random.uniform(float(low), float(max(low, high))))


def turn_arm(
    *, table: Table, engine: Any, state: Any, now: datetime, seats: list[Seat] | None = None
) -> datetime | None:
    """After a change of turn: give each bot due to act its think time (kept in
    the database, so a restarted server carries on), clear the others', and
    return when the table next needs the scheduler (a bot's move or the turn
    timer), or ``None``. The caller holds the table lock.

    ``seats``, when the caller already holds them locked, saves a read."""
    if seats is None:
        seats = list(Seat.objects.filter(table=table).order_by("index"))
    plan = turn_plan(table=table, engine=engine, state=state, seats=seats)
    acting = {seat.index for seat in plan.bots}
    due: list[datetime] = []
    for seat in seats:
        if seat.index in acting:
            if seat.next_think_at is None or not plan.simultaneous:
                seat.next_think_at = now + bot_delay(simultaneous=plan.simultaneous)
                seat.save(update_fields=["next_think_at"])
            due.append(seat.next_think_at)
        elif seat.next_think_at is not None:
            seat.next_think_at = None
            seat.save(update_fields=["next_think_at"])
    if plan.timed is not None and plan.turn_seconds:
        due.append(now + timedelta(seconds=plan.turn_seconds))
    return min(due, default=None)


def due_moves(
    *, plan: TurnPlan, started: datetime | None, now: datetime
) -> tuple[list[tuple[int, bool]], datetime | None]:
    """The moves due now as ``(seat, timed_out)`` (a bot whose think time has
    come, a pupil whose timer ran out), and when the next one falls due."""
    due_now: list[tuple[int, bool]] = []
    later: list[datetime] = []
    moves = [(seat.index, False, seat.next_think_at or now) for seat in plan.bots]
    if plan.timed is not None and plan.turn_seconds and started is not None:
        moves.append((plan.timed.index, True, started + timedelta(seconds=plan.turn_seconds)))
    for index, timed_out, at in moves:
        if at <= now:
            due_now.append((index, timed_out))
        else:
            later.append(at)
    return due_now, min(later, default=None)


def events_record(
    *, table_id: int, first_seq: int, version: int, events: Iterable[dict[str, Any]]
) -> None:
    """Append a change's events to the table's log (the replay and the reports
    read it). ``visible_to`` keeps each private event for its own seat."""
    statements.events_insert(table_id=table_id, version=version, first_seq=first_seq, events=events)
