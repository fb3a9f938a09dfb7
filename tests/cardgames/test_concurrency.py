"""Real row locks on PostgreSQL: racing writers apply exactly one move."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone

from cardgames import engines, runtime, services
from cardgames.models import GameState, Move
from tests.cardgames.factories import started_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only(monkeypatch: pytest.MonkeyPatch) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks (CI runs this on PostgreSQL)")
    monkeypatch.setattr(runtime, "schedule", lambda table_id, at: None)


def _race(*jobs: Callable[[], Any]) -> list[Any]:
    """Start the jobs on threads at the same instant; collect results or errors."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(i: int, job: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = job()
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def _play(table: Any, seat: int) -> dict[str, Any]:
    engine = engines.get("chasse")
    state = engine.from_json(GameState.objects.get(table=table).state)
    action = dict(engine.legal_actions(state, seat)[0])
    if action.get("announce") == "int":
        action["announce"] = 11
    return action


@pytest.mark.parametrize("attempt", range(5))
def test_two_near_simultaneous_submissions_apply_exactly_one(attempt: int) -> None:
    table = started_table(pupils=2, bots=0, seed=100 + attempt)
    action = _play(table, 0)

    def submit(nonce: str) -> Callable[[], Any]:
        return lambda: services.action_submit(
            table=table, seat=0, action=action, version=0, nonce=nonce
        )

    results = _race(submit("tap-1"), submit("tap-2"))
    applied = [r for r in results if isinstance(r, services.ActionResult)]
    refused = [r for r in results if isinstance(r, services.ActionRefused)]
    assert len(applied) == 1 and len(refused) == 1, results
    assert refused[0].code in ("stale", "not_your_turn")
    assert GameState.objects.get(table=table).version == 1
    assert Move.objects.filter(table=table).count() == 1


@pytest.mark.parametrize("attempt", range(5))
def test_a_bot_timeout_racing_the_pupils_move_applies_one(attempt: int) -> None:
    table = started_table(pupils=2, bots=0, options={"turn_seconds": 10}, seed=200 + attempt)
    GameState.objects.filter(table=table).update(
        turn_started_at=timezone.now() - timedelta(seconds=11)
    )
    action = _play(table, 0)
    results = _race(
        lambda: services.bot_turns(table_id=table.pk),
        lambda: services.action_submit(
            table=table, seat=0, action=action, version=0, nonce="last-second"
        ),
    )
    assert not any(
        isinstance(r, Exception) and not isinstance(r, services.ActionRefused) for r in results
    ), results
    moves = list(Move.objects.filter(table=table, version=1))
    assert len(moves) == 1, "exactly one of the bot and the pupil played seat 0's turn"
    move = moves[0]
    assert move.seat == 0
    assert move.timed_out == move.by_bot  # either the timed-out bot, or the pupil in time
    # Seat 1 (a pupil) has its own fresh clock; nobody played it.
    assert not Move.objects.filter(table=table, seat=1).exists()


@pytest.mark.parametrize("attempt", range(5))
def test_two_acceptances_of_one_purrfect_offer_on_threads_make_one_trade(attempt: int) -> None:
    """Simultaneous game, no version check: the row lock alone decides who wins
    the offer; the other seat is refused ``offer_taken`` and its hand is intact."""
    table = started_table(game="purrfect", pupils=4, bots=0, seed=300 + attempt)
    engine = engines.get("purrfect")
    state = engine.from_json(GameState.objects.get(table=table).state)
    services.action_submit(
        table=table, seat=0, action={"type": "offer", "cards": [state.hands[0][0]]},
        version=None, nonce="offer",
    )
    offer = engine.from_json(GameState.objects.get(table=table).state).offers[-1].id

    def accept(seat: int) -> Callable[[], Any]:
        action = {"type": "accept", "offer": offer, "cards": [state.hands[seat][0]]}
        return lambda: services.action_submit(
            table=table, seat=seat, action=action, version=1, nonce=f"accept-{seat}"
        )

    results = _race(accept(1), accept(2))
    applied = [r for r in results if isinstance(r, services.ActionResult)]
    refused = [r for r in results if isinstance(r, services.ActionRefused)]
    assert len(applied) == 1 and len(refused) == 1, results
    assert refused[0].code == "offer_taken"
    after = engine.from_json(GameState.objects.get(table=table).state)
    trades = [e for e in after.log if e["type"] == "trade_done"]
    assert len(trades) == 1
    loser = 2 if trades[0]["seats"][1] == 1 else 1
    assert after.hands[loser] == state.hands[loser]
