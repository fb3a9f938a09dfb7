"""Data migrations: a school's tables under way survive an upgrade."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Max

from cardgames import engines, services
from cardgames.models import GameEvent, GameState
from tests.cardgames.factories import started_table

BEFORE = ("cardgames", "0002_presence_per_socket")
AFTER = ("cardgames", "0003_event_seq_on_state")


def _play(table: object, nonce: str) -> None:
    """The seat whose turn it is plays as a robot would."""
    engine = engines.get(table.game)  # type: ignore[attr-defined]
    game_state = GameState.objects.get(table=table)
    state = engine.from_json(game_state.state)
    seat = engine.view(state, None)["current_seat"]
    action = engine.bot("medium")(
        engine.view(state, seat),
        engine.legal_actions(state, seat),
        random.Random(1),
        engine.history(state, seat),
    )
    services.action_submit(
        table=table, seat=seat, action=action, version=game_state.version, nonce=nonce
    )


def _migrate(target: tuple[str, str]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])


@pytest.mark.django_db(transaction=True)
def test_a_table_under_way_numbers_its_next_events_after_its_last() -> None:
    """``next_seq`` is filled from each table's log: after the upgrade the next
    move's events follow the last one, with no gap and no clash."""
    table = started_table(pupils=2, bots=0, seed=5)
    for number in range(3):
        _play(table, f"before-{number}")
    last = GameEvent.objects.filter(table=table).aggregate(m=Max("seq"))["m"]
    _migrate(BEFORE)
    _migrate(AFTER)
    assert GameState.objects.get(table=table).next_seq == last + 1
    _play(table, "after")
    seqs = list(GameEvent.objects.filter(table=table).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(len(seqs))) and len(seqs) > last + 1
