# ruff: noqa: RUF001
"""The pure "needs help now" rule (issue 18 § 3), on records of synthetic
pupils who play real games, and on a few hand-built edge cases."""

from __future__ import annotations

from typing import Any

from classroom.live_help import KEEP, RecentPlay, calculation, needs_help

from .pupil_model import PupilModel, play_games


def recent(fields: dict[str, Any]) -> RecentPlay:
    return RecentPlay.of(type("Record", (), fields))


def marks_over(records: list[dict[str, Any]]) -> list[str | None]:
    """The mark after each record, as the monitor would compute it."""
    window: list[RecentPlay] = []
    out: list[str | None] = []
    for fields in records:
        window = [*window, recent(fields)][-KEEP:]
        mark = needs_help(recent=window)
        out.append(mark.code if mark else None)
    return out


def hand(
    before: int, a: int, b: int, *, correct: bool = True, ms: int = 2000, **kw: Any
) -> RecentPlay:
    value = a + b
    crossed = before % 10 + value % 10 >= 10
    fields: dict[str, Any] = {
        "card_kind": "add",
        "card_a": a,
        "card_b": b,
        "card_value": value,
        "total_before": before,
        "correct": correct,
        "compute_ms": ms,
        "multiple_of_ten": False,
        "avoidable": False,
        "crossed_ten": crossed,
        "error_kind": "" if correct else ("tens" if crossed else "units"),
        "timed_out": False,
    }
    fields.update(kw)
    return RecentPlay(**fields)


# --------------------------------------------------------------- pupil models
def test_a_pupil_who_knows_their_facts_is_never_marked() -> None:
    records = list(play_games(PupilModel(slip=0.0), games=6, seed=3))
    assert len(records) > 40
    assert set(marks_over(records)) == {None}


def test_a_struggling_pupil_is_marked_on_the_third_wrong_answer_and_recovers() -> None:
    # Wrong on every carry: marks come and go with the run of crossing plays.
    records = list(play_games(PupilModel(carry_forget=1.0, slip=0.0), games=6, seed=5))
    marks = marks_over(records)
    assert "errors" in marks
    for index in range(len(records)):
        last5 = [r for r in records[: index + 1] if r["correct"] is not None][-5:]
        wrong_so_far = sum(r["correct"] is False for r in last5)
        # exactly when 3 of the last 5 are wrong: on that record, not later
        assert (marks[index] == "errors") == (wrong_so_far >= 3)
    # it clears again: some record after a mark has none
    first = marks.index("errors")
    assert None in marks[first:]


def test_the_mark_names_the_calculations_the_way_the_mistake_points() -> None:
    model = PupilModel(weak_facts={(7, 8): 1.0, (6, 7): 1.0}, carry_forget=1.0, slip=0.0)
    records = list(play_games(model, games=10, seed=8))
    window = [recent(f) for f in records]
    carries = {
        f"{r['total_before']} + {r['card_value']}"
        for r in records
        if r["crossed_ten"] and r["error_kind"] == "tens"
    }
    marked = []
    for end in range(1, len(window) + 1):
        mark = needs_help(recent=window[:end])
        if mark is not None and mark.code == "errors":
            marked.append(mark)
    assert marked
    for mark in marked:
        assert mark.message.endswith(f"erreurs sur {mark.params[2][1]}") and " : " in mark.message
        for calc in mark.calculations:
            # a missed fact is named as the card, a forgotten carry as the step
            assert calc in {"7 + 8", "8 + 7", "6 + 7", "7 + 6"} | carries
    assert any(c in carries for m in marked for c in m.calculations)
    assert any("7 + 8" in m.calculations or "8 + 7" in m.calculations for m in marked)


def test_a_pupil_landing_on_tens_twice_running_is_marked() -> None:
    records = list(play_games(PupilModel(lands_on_tens=True, slip=0.0), games=6, seed=2))
    marks = marks_over(records)
    assert "tens" in marks
    for index, mark in enumerate(marks):
        last2 = records[max(0, index - 1) : index + 1]
        both = len(last2) == 2 and all(r["multiple_of_ten"] and r["avoidable"] for r in last2)
        assert (mark == "tens") == both


def test_a_pupil_who_suddenly_slows_down_is_marked() -> None:
    records = list(play_games(PupilModel(slip=0.0, slow_from=12, slow_factor=3.0), games=3, seed=4))
    marks = marks_over(records)
    assert marks[:14] == [None] * 14  # the third slow answer is play 15
    assert marks[14] == "slow"
    mark = needs_help(recent=[recent(f) for f in records[:15]])
    assert mark is not None and "d'habitude" in mark.message


# --------------------------------------------------------------- edge cases
def test_two_wrong_of_five_is_not_a_mark_and_three_is() -> None:
    ok = [hand(21, 2, 3) for _ in range(3)]
    two = [*ok, hand(38, 2, 3, correct=False), hand(12, 7, 8, correct=False)]
    assert needs_help(recent=two) is None
    three = [*two, hand(40, 6, 7, correct=False)]
    mark = needs_help(recent=three)
    assert mark is not None and mark.code == "errors"
    assert mark.message == "38 + 5, 7 + 8, 6 + 7 : 3 erreurs sur 5"


def test_timeouts_neither_make_nor_clear_a_mark() -> None:
    wrong = [hand(12, 7, 8, correct=False) for _ in range(3)]
    timeouts = [hand(12, 2, 2, correct=None, timed_out=True) for _ in range(5)]
    mark = needs_help(recent=[*wrong, *timeouts])
    assert mark is not None and mark.calculations == ("7 + 8",)
    assert needs_help(recent=timeouts) is None


def test_an_unavoidable_ten_is_no_planning_slip() -> None:
    forced = hand(33, 3, 4, multiple_of_ten=True, avoidable=False)
    slip = hand(33, 3, 4, multiple_of_ten=True, avoidable=True)
    assert needs_help(recent=[slip, forced]) is None
    assert needs_help(recent=[slip, hand(21, 1, 1), slip]) is None
    mark = needs_help(recent=[slip, slip])
    assert mark is not None and mark.message == (
        "Tombe sur les dizaines 2 fois de suite : 33 + 7 = 40"
    )


def test_slow_needs_a_usual_time_and_three_slow_answers() -> None:
    usual = [hand(21, 2, 3, ms=2000) for _ in range(5)]
    slow = [hand(21, 2, 3, ms=4500) for _ in range(3)]
    assert needs_help(recent=slow) is None  # no usual time to compare with
    assert needs_help(recent=slow, usual_ms=2000) is not None
    assert needs_help(recent=[*usual[:4], *slow]) is None  # 4 earlier answers are too few
    mark = needs_help(recent=[*usual, *slow])
    assert mark is not None and mark.code == "slow"
    assert needs_help(recent=[*usual, *slow[:2], hand(21, 2, 3, ms=3000)]) is None


def test_errors_come_before_the_other_reasons() -> None:
    slip = hand(33, 3, 4, multiple_of_ten=True, avoidable=True, correct=False)
    mark = needs_help(recent=[slip, slip, slip])
    assert mark is not None and mark.code == "errors"


def test_calculation_names_sommes_as_the_step() -> None:
    somme = hand(52, 3, 4, card_kind="sub", card_a=None, card_b=None, card_value=7)
    assert calculation(somme) == "52 − 7"


def test_payload_round_trip_and_bad_payloads() -> None:
    play = hand(38, 7, 8, correct=False)
    assert RecentPlay.from_payload(play.as_payload()) == play
    assert RecentPlay.from_payload({"card_kind": "add"}) is None
    assert RecentPlay.from_payload({**play.as_payload(), "card_value": "15"}) is None
    assert RecentPlay.from_payload({**play.as_payload(), "junk": 1}) == play
