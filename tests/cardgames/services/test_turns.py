"""One planner says whose move a table waits for; the timer and the bot
scheduler both read it, so they agree."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from cardgames import engines
from cardgames.models import GameState, Seat, Table
from cardgames.services.turns import TurnPlan, due_moves, turn_plan
from tests.cardgames.factories import started_table


def _plan_of(table: Table) -> tuple[TurnPlan, GameState]:
    engine = engines.get(table.game)
    game_state = GameState.objects.get(table=table)
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    state = engine.from_json(game_state.state)
    return turn_plan(table=table, engine=engine, state=state, seats=seats), game_state


@pytest.mark.django_db
def test_a_pupil_on_turn_is_timed_and_overdue_after_turn_seconds() -> None:
    table = started_table(pupils=1, bots=1, options={"turn_seconds": 30})
    plan, game_state = _plan_of(table)
    assert plan.bots == () and plan.timed is not None and plan.turn_seconds == 30
    started = game_state.turn_started_at
    assert due_moves(plan=plan, started=started, now=started + timedelta(seconds=10)) == (
        [],
        started + timedelta(seconds=30),
    )
    late = started + timedelta(seconds=31)
    assert due_moves(plan=plan, started=started, now=late) == ([(plan.timed.index, True)], None)


@pytest.mark.django_db
def test_a_bot_on_turn_is_due_after_its_think_time() -> None:
    table = started_table(pupils=1, bots=1, bots_first=True)
    plan, _ = _plan_of(table)
    assert [seat.is_bot for seat in plan.bots] == [True] and plan.timed is None
    think = plan.bots[0].next_think_at
    assert think is not None
    assert due_moves(plan=plan, started=None, now=think) == ([(plan.bots[0].index, False)], None)


@pytest.mark.django_db
def test_nobody_is_due_at_a_paused_table() -> None:
    table = started_table(pupils=1, bots=1, bots_first=True)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PAUSED)
    table.refresh_from_db()
    plan, _ = _plan_of(table)
    assert plan.bots == () and plan.timed is None
    assert due_moves(plan=plan, started=None, now=timezone.now()) == ([], None)
