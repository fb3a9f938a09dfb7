"""The figures behind the reports, on small hand-made records (no database)."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from typing import Any

from classroom import insights
from classroom.insights import Play

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)  # a Monday


def play(**kw: Any) -> Play:
    """A correct, non-crossing "add" record unless told otherwise."""
    before = kw.pop("total_before", 21)
    a, b = kw.pop("card_a", 2), kw.pop("card_b", 3)
    kind = kw.pop("card_kind", "add")
    value = kw.pop("card_value", (a or 0) + (b or 0))
    after = before + value if kind == "add" else before - value if kind == "sub" else before
    correct = kw.pop("correct", True)
    base: dict[str, Any] = {
        "pupil_id": 1,
        "session_id": 1,
        "table_id": 1,
        "round": 1,
        "total_before": before,
        "card_kind": kind,
        "card_a": a if kind == "add" else None,
        "card_b": b if kind == "add" else None,
        "card_value": value,
        "total_after": after,
        "announced": after if correct else after - 10,
        "correct": correct,
        "think_ms": 2000,
        "compute_ms": 2000,
        "multiple_of_ten": False,
        "reached_target": False,
        "avoidable": False,
        "crossed_ten": False,
        "error_kind": None if correct else "tens",
        "timed_out": False,
        "practice": False,
        "created_at": T0,
    }
    base.update(kw)
    return Play(**base)


# --------------------------------------------------------------- summary
def test_pupil_summary_counts_exact_figures() -> None:
    plays = [
        play(crossed_ten=True, compute_ms=3000),
        play(crossed_ten=True, correct=False, compute_ms=9000),
        play(compute_ms=1000),
        play(compute_ms=5000, multiple_of_ten=True, avoidable=True),
        play(multiple_of_ten=True, avoidable=False),  # forced: not a planning error
        play(
            correct=None,
            announced=None,
            compute_ms=None,
            timed_out=True,
            multiple_of_ten=True,
            avoidable=True,
        ),  # the bot's play: not the pupil's
        play(card_kind="special", card_value=0, correct=None, announced=None, compute_ms=None),
    ]
    s = insights.pupil_summary(plays=plays)
    assert s.plays == 6  # the timeout is left out
    assert s.announcements == 5
    assert s.correct == 4
    assert s.accuracy == 80.0
    assert (s.crossing_announcements, s.accuracy_crossing) == (2, 50.0)
    assert (s.non_crossing_announcements, s.accuracy_non_crossing) == (3, 100.0)
    assert s.avoidable_mult10 == 1
    assert s.mult10_rate == round(100 / 6, 2)
    assert s.median_compute_ms == 2500  # of 1000, 2000, 3000, 5000: wrong answers excluded
    assert s.timeouts == 1


def test_empty_summary_says_nothing_rather_than_zero() -> None:
    s = insights.pupil_summary(plays=[])
    assert s.accuracy is None and s.mult10_rate is None and s.median_compute_ms is None


# --------------------------------------------------------------- series & trend
def test_session_series_and_trend() -> None:
    day = timedelta(days=1)
    plays = (
        [play(session_id=1, created_at=T0)] * 3
        + [play(session_id=1, correct=False, created_at=T0)]
        + [play(session_id=2, created_at=T0 + day)] * 2
        + [play(session_id=2, correct=False, created_at=T0 + day)] * 2
        + [play(session_id=3, created_at=T0 + 2 * day, compute_ms=4000)] * 4
    )
    series = insights.session_series(plays=list(reversed(plays)))
    assert [p.session_id for p in series] == [1, 2, 3]
    assert [p.accuracy for p in series] == [75.0, 50.0, 100.0]
    assert series[0].date == date(2025, 3, 3)
    t = insights.trend(current=series[-1], previous=series[:-1])
    assert t.previous_accuracy == 62.5  # 5 of 8, pooled
    assert t.accuracy_delta == 37.5
    assert t.direction == "up"
    assert t.median_compute_delta_ms == 2000


# --------------------------------------------------------------- flags
def test_watch_flags_low_accuracy_and_slow() -> None:
    plays = [play(correct=i % 2 == 0, compute_ms=7000) for i in range(20)]
    s = insights.pupil_summary(plays=plays)
    codes = [f.code for f in insights.watch_flags(summary=s, series=[])]
    assert codes == ["low_accuracy", "slow"]
    message = insights.watch_flags(summary=s, series=[])[0].message
    assert "50" in message


def test_few_answers_are_not_flagged() -> None:
    s = insights.pupil_summary(plays=[play(correct=False)] * 3)
    assert insights.watch_flags(summary=s, series=[]) == []


def _sessions_with_rates(rates: list[int], plays_each: int = 20) -> list[Play]:
    out = []
    for i, landed in enumerate(rates):
        for j in range(plays_each):
            out.append(
                play(
                    session_id=i + 1,
                    created_at=T0 + timedelta(days=i, seconds=j),
                    multiple_of_ten=j < landed,
                    avoidable=j < landed,
                )
            )
    return out


def test_rising_mult10_rate_is_flagged() -> None:
    # 0 then 1 landings per 20 plays, then 3 per 20 in the last three sessions:
    # 15 per 100 against 2.5 per 100 before.
    plays = _sessions_with_rates([0, 1, 0, 1, 3, 3, 3])
    series = insights.session_series(plays=plays)
    assert insights.rising_mult10(series) == (2.5, 15.0)
    s = insights.pupil_summary(plays=plays)
    assert "mult10_rising" in [f.code for f in insights.watch_flags(summary=s, series=series)]


def test_flat_mult10_rate_is_not_rising() -> None:
    series = insights.session_series(plays=_sessions_with_rates([1, 0, 1, 0, 1, 0, 1]))
    assert insights.rising_mult10(series) is None


# --------------------------------------------------------------- fluency
def _attempts(results: list[tuple[bool, int]], a: int = 7, b: int = 8) -> list[Play]:
    return [
        play(card_a=a, card_b=b, correct=ok, compute_ms=ms, created_at=T0 + timedelta(minutes=i))
        for i, (ok, ms) in enumerate(results)
    ]


def test_fluency_rule_edge_cases() -> None:
    def fluent(results: list[tuple[bool, int]]) -> bool:
        return insights.fluency_grid(plays=_attempts(results)).cell(7, 8).fluent

    assert not fluent([(True, 1000)])  # one attempt is never enough
    assert fluent([(True, 1000), (True, 3000)])  # 2 of 2, 3 s is "within 3 s"
    assert not fluent([(True, 1000), (True, 3001)])
    assert fluent([(True, 1000), (False, 1000), (True, 2000)])
    assert not fluent([(True, 1000), (False, 1000), (True, 4000)])
    # Only the last 3 count: old successes do not hide a recent slide.
    assert not fluent([(True, 1000)] * 5 + [(False, 1000), (True, 5000), (True, 1000)])
    assert fluent([(False, 1000)] * 5 + [(True, 1000), (False, 1000), (True, 1000)])


def test_fluency_uses_time_order_not_input_order() -> None:
    plays = _attempts([(False, 1000)] * 3 + [(True, 1000)] * 3)
    grid = insights.fluency_grid(plays=list(reversed(plays)))
    cell = grid.cell(7, 8)
    assert cell.fluent and cell.attempts == 6 and cell.accuracy == 50.0
    assert grid.cell(8, 7).attempts == 0  # 8 + 7 is another card
    assert grid.fluent_count == 1


def test_fluency_ignores_timeouts() -> None:
    timeout = play(
        card_a=7, card_b=8, correct=None, timed_out=True, created_at=T0 + timedelta(hours=1)
    )
    plays = [*_attempts([(True, 1000), (True, 1000)]), timeout]
    assert insights.fluency_grid(plays=plays).cell(7, 8).fluent


# --------------------------------------------------------------- carry grid, errors
def test_carry_grid_and_error_breakdown() -> None:
    plays = [
        play(total_before=47, card_a=4, card_b=5, crossed_ten=True, correct=False),
        play(total_before=37, card_a=4, card_b=5, crossed_ten=True),
        play(total_before=40, card_a=4, card_b=5),
        play(
            total_before=52,
            card_kind="sub",
            card_value=7,
            crossed_ten=True,
            correct=False,
            error_kind="units",
        ),
        play(total_before=30, card_a=1, card_b=1, correct=False, error_kind="other"),
    ]
    grid = insights.carry_grid(plays=plays)
    assert grid.values == (2, 9)
    cell = grid.rows[7][1]
    assert (cell.units, cell.value, cell.attempts, cell.accuracy, cell.crosses) == (
        7,
        9,
        2,
        50.0,
        True,
    )
    assert grid.rows[0][1].accuracy == 100.0 and not grid.rows[0][1].crosses
    sub = insights.carry_grid(plays=plays, kind="sub", all_values=True)
    assert len(sub.values) == 19 and sub.rows[2][5].attempts == 1 and sub.rows[2][5].crosses
    e = insights.error_breakdown(plays=plays)
    assert (e.tens, e.units, e.other, e.total, e.crossing_tens) == (1, 1, 1, 3, 1)
    assert e.share("tens") == 33.3


# --------------------------------------------------------------- planted weaknesses
def synthetic_pupil(
    *, seed: int, fails: Any, lands_on_tens: float = 0.0, n: int = 1500
) -> list[Play]:
    """A term of additions and subtractions on random totals. ``fails(kind, before,
    value, a, b, crosses)`` says whether the pupil gets that play wrong."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        before = rng.randint(1, 89)
        if rng.random() < 0.8:
            kind, a, b = "add", rng.randint(1, 10), rng.randint(1, 10)
            value = a + b
            crosses = before % 10 + value % 10 >= 10
        else:
            kind, a, b, value = (
                "sub",
                None,
                None,
                rng.randint(2, min(20, before - 1) if before > 2 else 2),
            )
            if value >= before:
                kind, a, b, value = "add", 1, 1, 2
                crosses = before % 10 + 2 >= 10
            else:
                crosses = before % 10 < value % 10
        wrong = fails(kind, before, value, a, b, crosses) and rng.random() < 0.7
        landed = rng.random() < lands_on_tens
        out.append(
            play(
                session_id=1 + i // 100,
                created_at=T0 + timedelta(days=i // 100, seconds=i),
                total_before=before,
                card_kind=kind,
                card_a=a,
                card_b=b,
                card_value=value,
                crossed_ten=crosses,
                correct=not wrong,
                error_kind="tens" if wrong else None,
                compute_ms=2000 + rng.randint(0, 1500),
                multiple_of_ten=landed,
                avoidable=landed,
            )
        )
    return out


def test_carry_with_nine_is_ranked_first() -> None:
    plays = synthetic_pupil(
        seed=1,
        fails=lambda kind, before, value, a, b, crosses: (
            kind == "add" and crosses and value % 10 == 9
        ),
    )
    items = insights.practise_next(plays=plays)
    assert items[0].code == "carry"
    assert dict(items[0].params)["digit"] == 9
    assert items[0].examples
    assert all(" + 9 = " in e or " + 19 = " in e for e in items[0].examples)
    assert items[0].label.startswith("Passer la dizaine en ajoutant (ex. ")
    # Its facts (4 + 5, 3 + 6, ...) are right when they do not cross: not listed.
    assert not any(i.code.startswith("fact:") for i in items)
    s = insights.pupil_summary(plays=plays)
    assert s.accuracy_crossing < s.accuracy_non_crossing - 10
    nine = insights.carry_grid(plays=plays).values.index(9)
    grid = insights.carry_grid(plays=plays)
    crossing = [row[nine] for row in grid.rows if row[nine].crosses and row[nine].attempts]
    flat = [row[nine] for row in grid.rows if not row[nine].crosses and row[nine].attempts]
    assert max(c.accuracy or 0 for c in crossing) < min(c.accuracy or 0 for c in flat)
    tips = insights.parent_tips(plays=plays)
    assert 2 <= len(tips) <= 3 and "ajouter 9" in tips[0]


def test_avoidable_tens_are_flagged_and_ranked_first() -> None:
    plays = synthetic_pupil(seed=2, fails=lambda *args: False, lands_on_tens=0.12)
    s = insights.pupil_summary(plays=plays)
    flags = insights.watch_flags(summary=s, series=insights.session_series(plays=plays))
    assert [f.code for f in flags] == ["mult10_often"]
    items = insights.practise_next(plays=plays)
    assert items[0].code == "avoid_tens"
    tips = insights.parent_tips(plays=plays)
    assert any("compléments à 10" in tip for tip in tips)


def test_particular_facts_are_ranked_not_their_carry() -> None:
    weak = {(7, 8), (8, 7)}
    plays = synthetic_pupil(
        seed=3, n=4000, fails=lambda kind, before, value, a, b, crosses: (a, b) in weak
    )
    items = insights.practise_next(plays=plays)
    assert items[0].code == "fact:7+8"
    assert "carry" not in [i.code for i in items]
    assert "7 + 8" in items[0].label


def test_a_pupil_who_masters_everything_gets_no_invented_weakness() -> None:
    plays = synthetic_pupil(seed=4, fails=lambda *args: False)
    assert insights.practise_next(plays=plays) == []
    assert 2 <= len(insights.parent_tips(plays=plays)) <= 3


# --------------------------------------------------------------- stars and streak
def test_stars_and_streak_skip_weekends() -> None:
    monday = T0
    days = [monday - timedelta(days=3), monday - timedelta(days=2)]  # Fri, Sat (ignored)
    days += [monday, monday + timedelta(days=1)]  # Mon, Tue
    plays = [play(created_at=d, session_id=i) for i, d in enumerate(days)] * 5
    result = insights.stars_and_streak(plays=plays, today=date(2025, 3, 4))
    assert result.streak_days == 3  # Fri, Mon, Tue: the weekend does not break it
    assert result.practised_today
    assert result.stars_for_answers == 2  # 20 correct
    assert result.stars_for_facts == 1  # 2 + 3 answered quickly and correctly
    assert result.stars == 3
    # Wednesday morning, before practice: the streak is still alive.
    assert insights.stars_and_streak(plays=plays, today=date(2025, 3, 5)).streak_days == 3
    # A missed school day (Wednesday) ends it by Thursday.
    later = insights.stars_and_streak(plays=plays, today=date(2025, 3, 6))
    assert later.streak_days == 0 and later.best_streak_days == 3


def test_everything_is_fast_on_a_big_history() -> None:
    """~10,000 records: the pupil page's functions together stay well under
    the page budget (300 ms), even on a loaded CI machine."""
    import time

    plays = synthetic_pupil(seed=5, n=10_000, fails=lambda *a: a[5], lands_on_tens=0.03)
    start = time.process_time()
    s = insights.pupil_summary(plays=plays)
    series = insights.session_series(plays=plays)
    insights.watch_flags(summary=s, series=series)
    grid = insights.fluency_grid(plays=plays)
    insights.carry_grid(plays=plays)
    insights.error_breakdown(plays=plays)
    items = insights.practise_next(plays=plays)
    insights.parent_tips(plays=plays, items=items, summary=s)
    insights.stars_and_streak(plays=plays, today=date(2025, 6, 1), grid=grid)
    assert time.process_time() - start < 1.0
