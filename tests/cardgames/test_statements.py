"""The move's statements written once (``cardgames.statements``) read and write
exactly what the ORM would: every field of every row, on SQLite here and on
PostgreSQL in CI's second pass."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils import timezone

from cardgames import statements
from cardgames.models import GameEvent, GameState, Move, Seat
from tests.cardgames.factories import started_table

pytestmark = pytest.mark.django_db


def _fields(row: Model) -> dict[str, Any]:
    return {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}


def test_the_state_and_its_table_read_as_the_orm_reads_them() -> None:
    table = started_table(pupils=2, bots=1, options={"announce": "shown"})
    Seat.objects.filter(table=table, index=0).update(
        pending_choice={"card": 3, "version": 0}, pending_since=timezone.now()
    )
    expected = GameState.objects.select_related("table").get(table=table)
    for lock in (False, True):
        with transaction.atomic():
            found = statements.game_state_read(table.pk, lock=lock)
        assert found is not None
        assert _fields(found) == _fields(expected)
        assert _fields(found.table) == _fields(expected.table)
        assert found.table.status == "playing" and isinstance(found.state, dict)
        assert found._state.adding is False
        seats = statements.seats_read(table.pk, lock=lock)
        assert [_fields(seat) for seat in seats] == [
            _fields(seat) for seat in Seat.objects.filter(table=table).order_by("index")
        ]
        assert [seat.index for seat in seats] == [0, 1, 2]
        assert seats[0].pending_choice == {"card": 3, "version": 0}
        assert seats[2].is_bot is True and seats[0].is_bot is False
    assert statements.game_state_read(table.pk + 999) is None
    assert statements.seats_read(table.pk + 999) == []


def test_the_compare_and_set_writes_once_and_refuses_a_stale_version() -> None:
    table = started_table()
    before = GameState.objects.get(table=table)
    now = timezone.now() + timedelta(seconds=5)
    new_state = {**before.state, "note": "é ✓"}
    assert statements.game_state_save(
        table_id=table.pk, version=before.version, state=new_state, next_seq=before.next_seq + 2, now=now
    )
    # The same version again is stale: nothing more is written.
    assert not statements.game_state_save(
        table_id=table.pk, version=before.version, state={}, next_seq=0, now=now
    )
    after = GameState.objects.get(table=table)
    assert after.version == before.version + 1
    assert after.state == new_state
    assert after.next_seq == before.next_seq + 2
    assert after.turn_started_at == now and after.updated_at == now


def test_a_move_and_its_events_are_stored_as_the_orm_stores_them() -> None:
    table = started_table()
    events = [
        {"type": "card_played", "seat": 1, "card": {"id": 4, "kind": "add"}},
        {"type": "card_drawn", "seat": 1, "card": 7, "to": [1]},
        {"type": "round_over", "seat": None},
    ]
    statements.events_insert(table_id=table.pk, version=9, first_seq=100, events=events)
    stored = list(GameEvent.objects.filter(table=table, seq__gte=100).order_by("seq"))
    assert [(e.seq, e.version, e.seat, e.kind, e.payload, e.visible_to) for e in stored] == [
        (100, 9, 1, "card_played", events[0], None),
        (101, 9, 1, "card_drawn", events[1], [1]),
        (102, 9, None, "round_over", events[2], None),
    ]
    assert all(e.created_at is not None for e in stored)
    values = {
        "table_id": table.pk,
        "seat": 1,
        "version": 9,
        "nonce": "tap-1",
        "action": {"type": "play", "card": 4, "announce": 13},
        "by_bot": False,
        "timed_out": True,
        "think_ms": 1200,
        "compute_ms": None,
    }
    statements.move_insert(**values)
    move = Move.objects.get(table=table, nonce="tap-1")
    assert {name: getattr(move, name) for name in values} == values
    assert move.created_at is not None
    # A replayed nonce is stopped by the unique constraint, as with the ORM.
    with pytest.raises(IntegrityError), transaction.atomic():
        statements.move_insert(**values)
