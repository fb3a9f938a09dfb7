"""The runtime services: turn timer, bots, pause, seats changing hands, signals."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from cardgames import engines, runtime, services
from cardgames.models import GameEvent, GameState, Move, Seat, Table
from cardgames.signals import actions_applied
from tests.cardgames.factories import pupil_spec, started_table


@pytest.fixture
def scheduled(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, Any]]:
    """Record what would be scheduled instead of starting background runs."""
    calls: list[tuple[int, Any]] = []
    monkeypatch.setattr(runtime, "schedule", lambda table_id, at: calls.append((table_id, at)))
    return calls


def _state(table: Table) -> tuple[Any, Any, GameState]:
    game_state = GameState.objects.get(table=table)
    engine = engines.get(table.game)
    return engine, engine.from_json(game_state.state), game_state


def _legal_play(engine: Any, state: Any, seat: int) -> dict[str, Any]:
    action = dict(engine.legal_actions(state, seat)[0])
    if action.get("announce") == "int":
        action["announce"] = 42
    return action


@pytest.mark.django_db
def test_turn_timer_lets_a_bot_play_for_the_pupil(
    scheduled, django_capture_on_commit_callbacks
) -> None:
    received: list[dict[str, Any]] = []

    def receiver(**kwargs: Any) -> None:
        received.append(kwargs)

    actions_applied.connect(receiver)
    try:
        table = started_table(pupils=2, bots=0, options={"turn_seconds": 10})
        # The pupil's turn started 5 s ago: not yet due; the scheduler is told when.
        GameState.objects.filter(table=table).update(
            turn_started_at=timezone.now() - timedelta(seconds=5)
        )
        due = services.bot_turns(table_id=table.pk)
        assert due is not None and timedelta(seconds=4) < due - timezone.now() <= timedelta(
            seconds=5
        )
        assert not Move.objects.filter(table=table).exists()
        # 11 s: time is up, a bot plays seat 0's move for the pupil.
        GameState.objects.filter(table=table).update(
            turn_started_at=timezone.now() - timedelta(seconds=11)
        )
        with django_capture_on_commit_callbacks(execute=True):
            services.bot_turns(table_id=table.pk)
    finally:
        actions_applied.disconnect(receiver)
    move = Move.objects.get(table=table, version=1)
    assert move.seat == 0 and move.timed_out and move.by_bot
    assert received and received[0]["timed_out"] is True and received[0]["seat"] == 0
    assert received[0]["player_key"] == "pupil:1"
    # Then Tom's clock runs: the next wake-up was scheduled.
    assert scheduled and scheduled[-1][0] == table.pk


@pytest.mark.django_db
def test_bot_turns_twice_is_harmless(scheduled) -> None:
    table = started_table(pupils=1, bots=2, bots_first=True)
    assert Seat.objects.get(table=table, index=0).next_think_at is not None
    services.bot_turns(table_id=table.pk)
    moves = Move.objects.filter(table=table).count()
    assert moves >= 2  # both bots played, up to the pupil's turn
    services.bot_turns(table_id=table.pk)
    assert Move.objects.filter(table=table).count() == moves
    engine, state, _ = _state(table)
    assert engine.view(state, None)["current_seat"] == 2


@pytest.mark.django_db
def test_signal_carries_the_move_and_timings(scheduled, django_capture_on_commit_callbacks) -> None:
    table = started_table(pupils=2, bots=0)
    engine, state, _ = _state(table)
    action = _legal_play(engine, state, 0)
    received: list[dict[str, Any]] = []
    actions_applied.connect(lambda **kw: received.append(kw), weak=False, dispatch_uid="t-signal")
    try:
        services.card_choose(table=table, seat=0, card=action["card"], version=0)
        with django_capture_on_commit_callbacks(execute=True):
            result = services.action_submit(
                table=table, seat=0, action=action, version=0, nonce="a1"
            )
    finally:
        actions_applied.disconnect(dispatch_uid="t-signal")
    assert result.version == 1 and result.think_ms is not None and result.compute_ms is not None
    (sent,) = received
    assert sent["events"][0]["type"] == "card_played"
    assert sent["timings"] == {"think_ms": result.think_ms, "compute_ms": result.compute_ms}
    assert any(card["id"] == action["card"] for card in sent["view_before"]["hand"])
    assert GameEvent.objects.filter(table=table, version=1).count() == len(sent["events"])


@pytest.mark.django_db
def test_pause_refuses_moves_and_resume_allows_them(scheduled) -> None:
    table = started_table(pupils=2, bots=0)
    engine, state, _ = _state(table)
    action = _legal_play(engine, state, 0)
    services.table_pause(table=table)
    with pytest.raises(services.ActionRefused) as refused:
        services.action_submit(table=table, seat=0, action=action, version=0, nonce="p1")
    assert refused.value.code == "paused" and "pause" in refused.value.message
    assert GameState.objects.get(table=table).version == 0
    services.table_resume(table=table)
    assert (
        services.action_submit(table=table, seat=0, action=action, version=0, nonce="p1").version
        == 1
    )
    services.table_end(table=table)
    with pytest.raises(services.ActionRefused) as refused:
        services.action_submit(table=table, seat=1, action=action, version=1, nonce="p2")
    assert refused.value.code == "finished"


@pytest.mark.django_db
def test_a_pupils_seat_given_to_a_bot_keeps_the_table_moving(scheduled) -> None:
    table = started_table(pupils=2, bots=0)
    # Léa's tablet died on her turn: the teacher gives seat 0 to a bot.
    services.seat_assign(table=table, index=0, spec=services.bot_seat(level="easy", number=1))
    assert Seat.objects.get(table=table, index=0).next_think_at is not None
    services.bot_turns(table_id=table.pk)
    assert Move.objects.filter(table=table, seat=0, by_bot=True).exists()


@pytest.mark.django_db
def test_a_stale_player_key_is_refused(scheduled) -> None:
    table = started_table(pupils=2, bots=0)
    engine, state, _ = _state(table)
    services.seat_assign(table=table, index=0, spec=pupil_spec(7, "Zoé"))
    with pytest.raises(services.ActionRefused) as refused:
        services.action_submit(
            table=table,
            seat=0,
            action=_legal_play(engine, state, 0),
            version=0,
            nonce="k",
            player_key="pupil:1",
        )
    assert refused.value.code == "seat_changed"


@pytest.mark.django_db
def test_an_opening_socket_judges_when_the_table_is_next_due_from_its_own_read(
    scheduled,
) -> None:
    """A socket that opens reads its table once; when a robot or a turn timer is
    next due is judged from that read, exactly as from the database."""
    from cardgames import rendering

    robot_first = started_table(pupils=1, bots=1, bots_first=True, seed=3)
    timed = started_table(pupils=2, bots=0, options={"turn_seconds": 30}, seed=4)
    paused = started_table(pupils=1, bots=1, bots_first=True, seed=5)
    services.table_pause(table=paused)
    ended = started_table(pupils=1, bots=1, bots_first=True, seed=6)
    services.table_end(table=ended)
    waiting = services.table_create(
        game="chasse", seats=[pupil_spec(1, "Léa"), pupil_spec(2, "Tom")], options={},
        seed=8, group_key="test:1",
    )
    answers = {}
    for name, table in [
        ("robot", robot_first), ("timer", timed), ("paused", paused), ("ended", ended),
        ("waiting", waiting),
    ]:
        snap = rendering.snapshot(table.pk)
        assert snap is not None
        from_read = services.table_next_due(table_id=table.pk, snap=snap)
        from_database = services.table_next_due(table_id=table.pk)
        now = timezone.now()
        if from_read is not None and from_read <= now:
            # Due now: each answers with the moment it judged it.
            assert from_database is not None and from_database <= now, name
        else:
            assert from_read == from_database, name
        answers[name] = from_read
    now = timezone.now()
    assert answers["robot"] is not None and answers["robot"] < now + timedelta(seconds=30)
    assert answers["timer"] is not None and answers["timer"] > now + timedelta(seconds=20)
    assert answers["paused"] is answers["ended"] is answers["waiting"] is None


@pytest.mark.robot_timer_threads
@pytest.mark.django_db(transaction=True)
def test_outside_an_event_loop_the_robot_plays_by_itself_on_a_timer_thread() -> None:
    """A table played from a script (no event loop, as in a management command):
    once the pupil has moved, the robot's turn is run by a timer thread."""
    import time

    table = started_table(pupils=1, bots=1, options={"announce": "shown"})
    engine, state, game_state = _state(table)
    if engine.view(state, None)["current_seat"] == 0:
        services.action_submit(
            table=table,
            seat=0,
            action=_legal_play(engine, state, 0),
            version=game_state.version,
            nonce="pupil-first",
            player_key="pupil:1",
        )
    deadline = time.monotonic() + 10
    while not Move.objects.filter(table=table, seat=1).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Move.objects.filter(table=table, seat=1, by_bot=True).exists()


@pytest.mark.django_db
def test_a_robots_move_is_broadcast_as_a_robots_and_a_pupils_is_not(
    scheduled, django_capture_on_commit_callbacks, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table hub draws a robot's screens behind the pupils'
    (``live_screens.screens_later``): only the robot's broadcast says so."""
    from cardgames.services import notify

    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(
        notify, "table_notify", lambda *, table_id, message, group=None: sent.append(message)
    )
    table = started_table(pupils=1, bots=1)
    engine, state, _ = _state(table)
    action = _legal_play(engine, state, 0)
    services.card_choose(table=table, seat=0, card=action["card"], version=0)
    with django_capture_on_commit_callbacks(execute=True):
        services.action_submit(table=table, seat=0, action=action, version=0, nonce="p1")
    Seat.objects.filter(table=table, index=1).update(next_think_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        services.bot_turns(table_id=table.pk)
    changes = [message for message in sent if message["type"] == "table.changed"]
    assert [(m["version"], m.get("robot", False)) for m in changes] == [(1, False), (2, True)]
