"""Learning records: what each play teaches, written from ``actions_applied``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.backends.db import SessionStore

from cardgames import services as cg
from cardgames import ui
from cardgames.engines import chasse
from cardgames.models import GameEvent, Move, Table
from classroom import learning
from classroom.models import LearningRecord
from tests.cardgames.factories import fresh_channel_layer  # noqa: F401
from tests.cardgames.wsclient import Tablet, play_form, table_state
from tests.factories import ClassSessionFactory, PupilFactory


def add(a: int, b: int, card_id: int = 1) -> dict[str, Any]:
    return {"id": card_id, "kind": "add", "a": a, "b": b, "value": a + b, "effect": None}


def sub(value: int, card_id: int = 2) -> dict[str, Any]:
    return {"id": card_id, "kind": "sub", "a": None, "b": None, "value": value, "effect": None}


def special(effect: str = "sleep", card_id: int = 3) -> dict[str, Any]:
    return {"id": card_id, "kind": "special", "a": None, "b": None, "value": 0, "effect": effect}


# ---------------------------------------------------------------- the sheet's helpers
def test_crossed_ten_follows_the_rule_sheet() -> None:
    assert chasse.crossed_ten(47, add(3, 5))  # 47 + 8 = 55: a carry
    assert chasse.crossed_ten(38, add(4, 10))  # 38 + 14
    assert chasse.crossed_ten(52, sub(7))  # 52 - 7 = 45: a borrow
    assert not chasse.crossed_ten(43, add(4, 10))  # 43 + 14 = 57: no carry
    assert not chasse.crossed_ten(58, sub(7))
    assert not chasse.crossed_ten(47, special())


def test_error_kind_tells_a_forgotten_carry_from_a_units_slip() -> None:
    assert chasse.error_kind(55, 55) is None
    assert chasse.error_kind(55, 45) == "tens"  # forgot the carry
    assert chasse.error_kind(45, 55) == "tens"  # an extra one
    assert chasse.error_kind(55, 54) == "units"
    assert chasse.error_kind(55, 37) == "other"


def test_avoidable_needs_another_playable_card_without_a_penalty() -> None:
    played = add(2, 3, card_id=1)  # 45 + 5 = 50: a multiple of ten
    safe = add(1, 1, card_id=2)  # 45 + 2 = 47
    also_bad = add(2, 3, card_id=4)  # 45 + 5 again
    big_sub = sub(60, card_id=5)  # not playable on 45
    assert chasse.avoidable(45, played, [played, safe], 100)
    assert not chasse.avoidable(45, played, [played, also_bad, big_sub], 100)
    # No penalty at all: nothing to avoid.
    assert not chasse.avoidable(45, safe, [played, safe], 100)
    # Reaching the target: a small card would have stayed under it.
    assert chasse.avoidable(48, add(1, 1, card_id=6), [add(1, 1, card_id=6), sub(3)], 50)


def _fields(card: dict[str, Any], before: int, announced: int | None, **kw: Any) -> dict:
    after = before + (card["value"] if card["kind"] == "add" else -card["value"])
    if card["kind"] == "special":
        after = before
    event = {
        "type": "card_played",
        "seat": 0,
        "card": card,
        "before": before,
        "after": after,
        "announced": announced,
        "correct": None if announced is None else announced == after,
    }
    view = {
        "total": before,
        "target": kw.pop("target", 100),
        "round": 2,
        "hand": kw.pop("hand", [card]),
    }
    record = ui.get("chasse").learning_record
    assert record is not None
    result = record(
        events=[event],
        seat=0,
        view_before=view,
        timings={"think_ms": 1200, "compute_ms": 3400},
        **kw,
    )
    return result


def test_record_fields_for_a_wrong_carry_on_a_multiple_of_ten() -> None:
    card = add(2, 3, card_id=1)
    fields = _fields(card, 45, 40, hand=[card, add(1, 1, card_id=2)], timed_out=False)
    assert fields["total_after"] == 50 and fields["announced"] == 40
    assert fields["correct"] is False and fields["error_kind"] == "tens"
    assert fields["multiple_of_ten"] and fields["avoidable"] and fields["crossed_ten"]
    assert not fields["reached_target"]
    assert (fields["think_ms"], fields["compute_ms"], fields["round"]) == (1200, 3400, 2)


def test_record_fields_reaching_the_target_is_not_a_multiple_of_ten() -> None:
    fields = _fields(add(5, 5), 90, 100, timed_out=False)
    assert fields["reached_target"] and not fields["multiple_of_ten"]
    assert fields["correct"] is True and fields["error_kind"] == ""


def test_specials_teach_nothing_but_a_timeout_is_kept_as_no_answer() -> None:
    assert _fields(special(), 30, None, timed_out=False) is None
    fields = _fields(add(3, 4), 30, 37, timed_out=True)
    assert fields["timed_out"] and fields["announced"] is None and fields["correct"] is None


# ---------------------------------------------------------------- a whole game, live
def _classroom_table(options: dict[str, Any]) -> tuple[Table, list[str], Any]:
    class_session = ClassSessionFactory(join_code="135790")
    pupils = [
        PupilFactory(school_class=class_session.school_class, display_name=name)
        for name in ("Léa", "Tom")
    ]
    seats = [
        cg.SeatSpec(player_key=p.player_key, display_name=p.display_name, avatar=p.avatar)
        for p in pupils
    ] + [cg.bot_seat(level="easy", number=1)]
    table = cg.table_create(
        game="chasse", seats=seats, options=options, seed=21, group_key=class_session.group_key
    )
    cg.table_start(table=table)
    cookies = []
    for pupil in pupils:
        store = SessionStore()
        store.update(
            {
                "player_key": pupil.player_key,
                "pupil_id": pupil.pk,
                "class_session_id": class_session.pk,
            }
        )
        store.save()
        cookies.append(store.session_key)
    return table, cookies, pupils


def _answer(engine: Any, state: Any, seat: int, rng: random.Random) -> tuple[dict, bool]:
    """A pupil's play: a legal card and, now and then, a wrong total."""
    action = dict(rng.choice(engine.legal_actions(state, seat)))
    wrong = False
    if action.get("announce") == "int":
        card = next(c for c in engine.view(state, seat)["hand"] if c["id"] == action["card"])
        true_total = state.total + (card["value"] if card["kind"] == "add" else -card["value"])
        wrong = rng.random() < 0.3
        action["announce"] = true_total + (10 if wrong else 0)
    return action, wrong


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_channel_layer")
async def test_records_match_the_announcements_of_a_whole_game() -> None:
    options = {"tokens": 2, "target": 50, "somme_cards": True, "special_cards": True}
    table, cookies, pupils = await database_sync_to_async(_classroom_table)(options)
    tablets = [Tablet(table.pk, key) for key in cookies]
    for tablet in tablets:
        assert await tablet.connect()
    rng = random.Random(5)
    wrong_made = 0
    for _move in range(400):
        engine, state, version, _status = await table_state(table.pk)
        if engine.is_over(state):
            break
        current = engine.view(state, None)["current_seat"]
        if current == 2:
            await tablets[0].wait_version(version + 1)
            continue
        action, wrong = _answer(engine, state, current, rng)
        wrong_made += wrong
        tablet = tablets[current]
        await tablet.send({"kind": "choose", "card": str(action["card"]), "version": str(version)})
        await tablet.receive_until('aria-pressed="true"')
        await tablet.send(play_form(action, version))
        await tablets[0].wait_version(version + 1)
    engine, state, version, status = await table_state(table.pk)
    assert engine.is_over(state) and status == "finished"
    for tablet in tablets:
        await tablet.close()

    def expected_and_actual() -> tuple[list[tuple], list[tuple], list[LearningRecord]]:
        by_version = {m.version: m for m in Move.objects.filter(table=table)}
        expected = []
        for event in GameEvent.objects.filter(table=table, kind="card_played").order_by("seq"):
            payload = event.payload
            move = by_version[event.version]
            if payload["seat"] == 2 or payload["card"]["kind"] == "special":
                continue
            expected.append(
                (
                    pupils[payload["seat"]].pk,
                    event.version,
                    payload["before"],
                    payload["after"],
                    payload["announced"],
                    payload["correct"],
                    move.think_ms,
                    move.compute_ms,
                )
            )
        records = list(LearningRecord.objects.filter(table_id=table.pk).order_by("move_version"))
        actual = [
            (
                r.pupil_id,
                r.move_version,
                r.total_before,
                r.total_after,
                r.announced,
                r.correct,
                r.think_ms,
                r.compute_ms,
            )
            for r in records
        ]
        return expected, actual, records

    expected, actual, records = await database_sync_to_async(expected_and_actual)()
    assert len(expected) >= 5
    assert actual == expected
    assert wrong_made and sum(r.correct is False for r in records) == wrong_made
    assert all(r.error_kind == "tens" for r in records if r.correct is False)
    assert all(r.compute_ms is not None and r.think_ms is not None for r in records)
    assert not any(r.practice or r.timed_out for r in records)
    # Each record's flags agree with the engine's own penalty events.
    penalties = await database_sync_to_async(
        lambda: {
            (e.version, e.payload["reason"])
            for e in GameEvent.objects.filter(table=table, kind="token_lost")
        }
    )()
    for r in records:
        assert r.multiple_of_ten == (r.total_after % 10 == 0 and r.total_after < 50)
        assert r.multiple_of_ten == ((r.move_version, "multiple_of_ten") in penalties)
        assert r.reached_target == (r.total_after >= 50)


@pytest.mark.django_db
def test_a_second_delivery_of_the_same_move_writes_no_second_row() -> None:
    table, _cookies, pupils = _classroom_table({})
    state_view = {"total": 30, "target": 100, "round": 1, "hand": [add(3, 4)]}
    event = {
        "type": "card_played",
        "seat": 0,
        "card": add(3, 4),
        "before": 30,
        "after": 37,
        "announced": 37,
        "correct": True,
    }
    kwargs = dict(
        table=table,
        seat=0,
        player_key=pupils[0].player_key,
        action={"type": "play", "card": 1, "announce": 37},
        events=[event],
        version=1,
        view_before=state_view,
        timings={"think_ms": 10, "compute_ms": 20},
        timed_out=False,
        by_bot=False,
    )
    learning.on_actions_applied(Table, **kwargs)
    learning.on_actions_applied(Table, **kwargs)
    assert LearningRecord.objects.filter(table_id=table.pk).count() == 1
    # Bots and strangers to the class leave nothing.
    learning.on_actions_applied(
        Table, **{**kwargs, "version": 2, "by_bot": True, "player_key": "bot:easy"}
    )
    learning.on_actions_applied(Table, **{**kwargs, "version": 3, "player_key": "pupil:999999"})
    assert LearningRecord.objects.filter(table_id=table.pk).count() == 1


@pytest.mark.django_db
def test_a_record_needs_a_pupil_of_the_class_and_a_late_one_drops_the_sessions_summaries() -> (
    None
):
    """The record's read and its dropping of stale summaries are SQL written
    once (``learning._practice_sql``, ``summaries.summary_record``): a pupil of
    another class gets no row, the session's practice flag is copied, and a
    record arriving after the session was summarised drops its summaries so
    the next report counts it."""
    from django.utils import timezone

    from classroom.models import PupilSessionSummary

    table, _cookies, pupils = _classroom_table({})
    event = {"type": "card_played", "seat": 0, "card": add(3, 4), "before": 30, "after": 37,
             "announced": 38, "correct": False}
    kwargs = dict(
        table=table, seat=0, player_key=pupils[0].player_key, action={}, events=[event],
        version=1, view_before={"total": 30, "target": 100, "round": 1, "hand": [add(3, 4)]},
        timings={"think_ms": 10, "compute_ms": 20}, timed_out=False, by_bot=False,
    )
    stranger = PupilFactory()  # another class, a real pupil
    learning.on_actions_applied(Table, **{**kwargs, "player_key": stranger.player_key})
    assert not LearningRecord.objects.exists()
    now = timezone.now()
    session_id = int(table.group_key.split(":")[1])
    PupilSessionSummary.objects.create(
        pupil=pupils[1], class_session_id=session_id, first_at=now, last_at=now, plays=3
    )
    learning.on_actions_applied(Table, **kwargs)
    (row,) = LearningRecord.objects.all()
    assert (row.pupil_id, row.correct, row.practice) == (pupils[0].pk, False, False)
    assert not PupilSessionSummary.objects.filter(class_session_id=session_id).exists()


# A pupil's move in a lesson, on the worker's database thread: the move itself
# (tests/cardgames/test_move_cost.py: MOVE_STATEMENTS, the test's savepoint
# included), then its learning record: the session and the pupil's class in one
# read (1), the row and the dropped summaries in one transaction (a savepoint
# here, its release: 2; INSERT and DELETE: 2). It was 11 for the record alone
# (a lookup before the insert, a savepoint, a second transaction).
RECORD_STATEMENTS = 5


@pytest.mark.django_db
def test_a_lesson_move_and_its_learning_record_take_a_fixed_small_number_of_statements(
    django_assert_max_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardgames import engines, runtime
    from cardgames.models import GameState
    from tests.cardgames.test_move_cost import MOVE_STATEMENTS

    # The test plays every seat itself, the robot's too: no robot thread.
    monkeypatch.setattr(runtime, "schedule", lambda table_id, at: None)
    table, _cookies, pupils = _classroom_table({"announce": "shown"})
    engine = engines.get("chasse")
    announced = 0
    for _ in range(8):  # the count does not grow with the game
        game_state = GameState.objects.get(table=table)
        state = engine.from_json(game_state.state)
        seat = engine.view(state, None)["current_seat"]
        legal = engine.legal_actions(state, seat)
        action = dict(next((a for a in legal if a.get("type") == "play"), legal[0]))
        if action.get("type") == "play":
            action["announce"] = 12  # right or wrong, an announcement is recorded
        player_key = table.seats.get(index=seat).player_key
        with (
            django_assert_max_num_queries(MOVE_STATEMENTS + RECORD_STATEMENTS),
            django_capture_on_commit_callbacks(execute=True),
        ):
            cg.action_submit(
                table=table,
                seat=seat,
                action=action,
                version=game_state.version,
                nonce=f"lesson-{game_state.version}",
                player_key=player_key,
            )
        played = GameEvent.objects.filter(
            table=table, version=game_state.version + 1, kind="card_played"
        ).exists()
        if seat < len(pupils) and played:
            announced += 1
    # Every announcement of a pupil left its row (the teacher's figures).
    assert announced > 0
    assert LearningRecord.objects.filter(table_id=table.pk).count() == announced
