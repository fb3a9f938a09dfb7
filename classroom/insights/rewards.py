"""The child's own page: stars and a school-day streak, never a comparison
with classmates."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from classroom.insights.grids import FluencyGrid, fluency_grid
from classroom.insights.plays import Play

CORRECT_PER_STAR = 10


@dataclass(frozen=True, slots=True)
class StarsAndStreak:
    """Kind, non-comparative rewards: nothing here depends on classmates."""

    stars: int
    stars_for_answers: int  # one per 10 correct announcements
    stars_for_facts: int  # one per fluent fact of the grid
    correct: int
    fluent_facts: int
    streak_days: int  # consecutive school days with practice
    best_streak_days: int
    practised_today: bool


def _previous_school_day(day: date) -> date:
    day -= timedelta(days=1)
    while day.weekday() >= 5:  # Saturday, Sunday
        day -= timedelta(days=1)
    return day


def _school_day_on_or_before(day: date) -> date:
    while day.weekday() >= 5:
        day -= timedelta(days=1)
    return day


def stars_and_streak(
    *,
    plays: Iterable[Play],
    today: date,
    tz: tzinfo | None = None,
    grid: FluencyGrid | None = None,
) -> StarsAndStreak:
    """Stars: one per 10 correct announcements plus one per fluent fact. They
    only ever grow with the child's own work (a slow week never takes a star
    away, except that a fact can fall out of fluency).

    Streak: consecutive school days (Monday to Friday; Saturdays and Sundays
    are skipped: they neither count nor break it) with at least one record,
    ending today, or on the last school day before today when today has no
    practice yet, so the streak is not "lost" in the morning. Holidays and
    days without a class session do break it: we do not know the school
    calendar, and the streak is a small encouragement, not a score.
    ``tz`` converts aware timestamps to the school's local dates; one record
    per session and (stored) date is converted, which is exact unless a
    session runs across local midnight. ``grid`` spares recomputing the
    fluency grid when the page already has it."""
    plays = list(plays) if not isinstance(plays, list) else plays
    correct = 0
    seen: dict[tuple[int, date], datetime] = {}
    for play in plays:
        if play.correct and not play.timed_out:
            correct += 1
        when = play.created_at
        key = (play.session_id, when.date())
        if key not in seen:
            seen[key] = when
    days: set[date] = set()
    for when in seen.values():
        if tz is not None and when.tzinfo is not None:
            when = when.astimezone(tz)
        days.add(when.date())
    if grid is None:
        grid = fluency_grid(plays=plays)
    fluent = grid.fluent_count
    # Weekend practice (solo mode at home) is welcome but neither makes nor
    # breaks a school-day streak.
    school_days = {d for d in days if d.weekday() < 5}
    practised_today = today in days
    start = _school_day_on_or_before(today)
    if start not in school_days:
        start = _previous_school_day(start)
    streak = 0
    day = start
    while day in school_days:
        streak += 1
        day = _previous_school_day(day)
    best = 0
    for d in school_days:
        if _previous_school_day(d) in school_days:
            continue  # not the first day of a run
        length = 0
        day = d
        while day in school_days:
            length += 1
            day = _next_school_day(day)
        best = max(best, length)
    answers_stars = correct // CORRECT_PER_STAR
    return StarsAndStreak(
        stars=answers_stars + fluent,
        stars_for_answers=answers_stars,
        stars_for_facts=fluent,
        correct=correct,
        fluent_facts=fluent,
        streak_days=streak,
        best_streak_days=max(best, streak),
        practised_today=practised_today,
    )


def _next_school_day(day: date) -> date:
    day += timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day
