"""The demo history: real engine games, deterministic, with the planted traits.

Built as ``seed_demo`` and ``bench_reports`` build it: the sessions planned,
then their plays session by session."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import date

import pytest

from cardgames.engines.chasse import crossed_ten, error_kind
from classroom import insights
from classroom.demo_history import (
    DemoPupil,
    DemoSession,
    default_profiles,
    iter_session_plays,
    plan_sessions,
    school_days,
)

END = date(2025, 6, 27)
PUPILS = [DemoPupil(10 + i, p) for i, p in enumerate(("steady", "carries", "facts", "tens", "improver", "steady", "steady", "steady"))]  # fmt: skip


class History:
    """The planned sessions and every play of them."""

    def __init__(self, sessions: tuple[DemoSession, ...], plays: list[insights.Play]) -> None:
        self.sessions = sessions
        self.plays = plays


def generate(
    *, pupils: Sequence[DemoPupil], sessions: int, end: date, seed: int, plays_per_session: int = 84
) -> History:
    plan = plan_sessions(pupils=pupils, sessions=sessions, end=end, seed=seed)
    plays: list[insights.Play] = []
    for batch in iter_session_plays(
        pupils=pupils, plan=plan, seed=seed, plays_per_session=plays_per_session
    ):
        plays.extend(batch)
    return History(plan, plays)


@pytest.fixture(scope="module")
def history() -> History:
    return generate(pupils=PUPILS, sessions=24, end=END, seed=7, plays_per_session=60)


def by_pupil(plays: list[insights.Play], pupil_id: int) -> list[insights.Play]:
    return [p for p in plays if p.pupil_id == pupil_id]


def test_deterministic_given_a_seed(history) -> None:  # type: ignore[no-untyped-def]
    again = generate(pupils=PUPILS, sessions=24, end=END, seed=7, plays_per_session=60)
    assert again.plays == history.plays
    other = generate(pupils=PUPILS, sessions=24, end=END, seed=8, plays_per_session=60)
    assert other.plays != history.plays


def test_records_are_consistent_with_the_rules(history) -> None:  # type: ignore[no-untyped-def]
    plays = history.plays
    assert len(plays) == 24 * 60 * len(PUPILS)
    assert {p.session_id for p in plays} == set(range(1, 25))
    school = set(school_days(end=END))
    for p in plays:
        assert p.created_at.date() in school
        assert p.total_before >= 0 and p.total_after >= 0
        if p.card_kind == "add":
            assert (
                p.total_after
                == p.total_before + p.card_value
                == p.total_before + p.card_a + p.card_b
            )
        elif p.card_kind == "sub":
            assert p.card_value < p.total_before and p.total_after == p.total_before - p.card_value
        else:
            assert p.correct is None and p.total_after == p.total_before
        card = {"kind": p.card_kind, "value": p.card_value}
        assert p.crossed_ten == crossed_ten(p.total_before, card)
        if p.correct is not None:
            assert p.correct == (p.announced == p.total_after)
            assert p.error_kind == error_kind(p.total_after, p.announced)
        if p.timed_out:
            assert p.correct is None and p.compute_ms is None
        assert p.multiple_of_ten == (
            p.card_kind != "special" and p.total_after < 100 and p.total_after % 10 == 0
        )
        assert p.reached_target == (p.card_kind != "special" and p.total_after >= 100)
        if p.avoidable:
            assert p.multiple_of_ten or p.reached_target


def test_profiles_show_their_planted_traits(history) -> None:  # type: ignore[no-untyped-def]
    plays = history.plays
    steady = insights.pupil_summary(plays=by_pupil(plays, 10))
    carries = insights.pupil_summary(plays=by_pupil(plays, 11))
    tens = insights.pupil_summary(plays=by_pupil(plays, 13))
    assert steady.accuracy > 90 and steady.mult10_rate < 2
    assert carries.accuracy_crossing < carries.accuracy_non_crossing - 25
    # Additions and subtractions with 8 and 9 across a ten: all of the top 3.
    items = insights.practise_next(plays=by_pupil(plays, 11))
    # one item per direction, and nothing else: its facts are right off the ten
    assert sorted(i.code for i in items) == ["borrow", "carry"]
    assert all(dict(i.params)["digit"] in (8, 9) for i in items)
    facts_first = insights.practise_next(plays=by_pupil(plays, 12))[0].code
    assert facts_first in {"fact:7+8", "fact:6+7", "fact:6+8"}
    assert tens.mult10_rate > 4 * steady.mult10_rate
    assert insights.practise_next(plays=by_pupil(plays, 13))[0].code == "avoid_tens"
    series = insights.session_series(plays=by_pupil(plays, 14))
    first, last = series[:6], series[-6:]
    assert sum(p.correct for p in last) / sum(p.announcements for p in last) > (
        sum(p.correct for p in first) / sum(p.announcements for p in first) + 0.08
    )
    assert last[-1].median_compute_ms < first[0].median_compute_ms


def test_fast_enough_for_the_benchmark() -> None:
    """30 pupils x 4 sessions here; the 120-session run is extrapolated: it
    must stay "well under a minute" of CPU (measured ~15 s on the dev box)."""
    pupils = [DemoPupil(i + 1, p) for i, p in enumerate(default_profiles(30))]
    start = time.process_time()
    h = generate(pupils=pupils, sessions=4, end=END, seed=1)
    spent = time.process_time() - start
    assert len(h.plays) == 30 * 4 * 84
    assert spent * 30 < 45
