# The typographic minus "−" and times "×" are what the pupils and parents read.
# ruff: noqa: RUF001, RUF002, RUF003
"""What a pupil's learning records say: the pure figures behind the reports.

The reports (teacher, pupil, parent) all read the same few numbers, so they are
computed here once, from plain :class:`Play` values, with no database access.
``classroom/selectors.py`` loads the rows (or per-session summaries) and hands
them to these functions; tests and the demo-data generator feed them directly.

Conventions, taken from ``shared/rules/chasse-aux-souris.md``:

* An **announcement** is a play where the pupil was asked for a number and gave
  one (``correct`` is ``True`` or ``False``). A **timeout** is a play made by a
  bot for the pupil: it counts as "no answer" and is left out of accuracy, but
  is counted and shown on its own.
* A **play** (the denominator of "per 100 plays") is any record that is not a
  timeout: a planning mistake made by the bot that stood in for the pupil is
  not the pupil's.
* An **avoidable multiple of ten** is a record with ``multiple_of_ten`` and
  ``avoidable``: the pupil landed on 10, 20, … although another card in the
  hand was safe. Only these count as planning errors.

Every function walks the records once (O(n)); medians sort only the times they
need. ~10,000 records per pupil take a few milliseconds.

User-facing strings are marked with ``gettext_lazy`` and formatted only when
read (``Flag.message``, ``PracticeItem.label``), so the active language of the
request decides, not the language at import time.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from statistics import median
from typing import Any, Literal, Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

CardKind = Literal["add", "sub", "special"]
ErrorKind = Literal["tens", "units", "other"]

# The thresholds of the "à surveiller" flag (issue 6).
WATCH_ACCURACY_BELOW = 70.0  # per cent
WATCH_MEDIAN_MS_ABOVE = 6000  # ms
# A flag needs enough evidence: one wrong answer out of two is not a trend.
WATCH_MIN_ANNOUNCEMENTS = 10
# "Rising": the rate of the RECENT_SESSIONS last sessions against the rate of
# up to BASELINE_SESSIONS sessions before them (see ``_rising_mult10``).
RECENT_SESSIONS = 3
BASELINE_SESSIONS = 5
MIN_BASELINE_SESSIONS = 2
MIN_WINDOW_PLAYS = 20
RISING_MIN_DELTA = 3.0  # per 100 plays
# "Often": a rate per 100 plays that a pupil who plans (keeps a safe card)
# rarely reaches. A random card lands on an avoidable ten ~6-8 times per 100.
WATCH_MULT10_RATE_ABOVE = 5.0
WATCH_MIN_PLAYS = 30

# Fluency (issue 6): correct within 3 s in 2 of the last 3 attempts.
FLUENT_MS = 3000
FLUENT_WINDOW = 3
FLUENT_NEEDED = 2

# practise_next: how bad "bad" is, per kind of skill.
REFERENCE_ERROR_RATE = 0.10  # an arithmetic skill answered right 90 % of the time is fine
REFERENCE_MULT10_RATE = 0.02  # 2 avoidable tens per 100 plays is fine
WILSON_Z = 1.645  # one-sided 95 %
MIN_SKILL_ATTEMPTS = 3


@dataclass(frozen=True, slots=True)
class Play:
    """One learning record, exactly the fields of ``classroom.learning``'s rows."""

    pupil_id: int
    session_id: int
    table_id: int
    round: int
    total_before: int
    card_kind: CardKind
    card_a: int | None
    card_b: int | None
    card_value: int
    total_after: int
    announced: int | None
    correct: bool | None
    think_ms: int
    compute_ms: int | None
    multiple_of_ten: bool
    reached_target: bool
    avoidable: bool
    crossed_ten: bool
    error_kind: ErrorKind | None
    timed_out: bool
    practice: bool
    created_at: datetime


def _is_answer(play: Play) -> bool:
    return play.correct is not None and not play.timed_out


def _pct(part: int, whole: int) -> float | None:
    """A percentage with one decimal, or ``None`` when there is nothing to divide:
    a report shows "—" rather than a misleading 0 %."""
    if whole <= 0:
        return None
    return round(100.0 * part / whole, 1)


def _per100(part: int, whole: int) -> float | None:
    if whole <= 0:
        return None
    return round(100.0 * part / whole, 2)


def _median_int(values: list[int]) -> int | None:
    return int(median(values)) if values else None


# --------------------------------------------------------------------------- #
# Summary of a pupil over a period.
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, slots=True)
class PupilSummary:
    """The class report's row for one pupil (issue 6 § 1)."""

    plays: int
    announcements: int
    correct: int
    accuracy: float | None
    crossing_announcements: int
    crossing_correct: int
    accuracy_crossing: float | None
    non_crossing_announcements: int
    non_crossing_correct: int
    accuracy_non_crossing: float | None
    avoidable_mult10: int
    mult10_rate: float | None  # avoidable multiples of ten per 100 plays
    median_compute_ms: int | None  # of correct answers
    timeouts: int
    sessions: int


class _Counter:
    """The running sums behind a summary; shared by the pupil summary and the
    per-session points so both agree by construction. ``feed`` is the hot loop
    (~10,000 records per pupil page), so it works on locals, not attributes."""

    __slots__ = (
        "announcements",
        "correct",
        "cross_correct",
        "cross_n",
        "mult10",
        "plays",
        "sessions",
        "timeouts",
        "times",
    )

    def __init__(self) -> None:
        self.plays = 0
        self.announcements = 0
        self.correct = 0
        self.cross_n = 0
        self.cross_correct = 0
        self.mult10 = 0
        self.timeouts = 0
        self.times: list[int] = []
        self.sessions: set[int] = set()

    def feed(self, plays: Iterable[Play]) -> None:
        n = ann = ok = cross_n = cross_ok = mult10 = timeouts = 0
        times = self.times
        sessions = self.sessions
        for play in plays:
            sessions.add(play.session_id)
            if play.timed_out:
                timeouts += 1
                continue
            n += 1
            if play.multiple_of_ten and play.avoidable:
                mult10 += 1
            correct = play.correct
            if correct is None:
                continue
            ann += 1
            crossed = play.crossed_ten
            if crossed:
                cross_n += 1
            if correct:
                ok += 1
                if crossed:
                    cross_ok += 1
                if play.compute_ms is not None:
                    times.append(play.compute_ms)
        self.plays += n
        self.announcements += ann
        self.correct += ok
        self.cross_n += cross_n
        self.cross_correct += cross_ok
        self.mult10 += mult10
        self.timeouts += timeouts

    def summary(self) -> PupilSummary:
        non_n = self.announcements - self.cross_n
        non_correct = self.correct - self.cross_correct
        return PupilSummary(
            plays=self.plays,
            announcements=self.announcements,
            correct=self.correct,
            accuracy=_pct(self.correct, self.announcements),
            crossing_announcements=self.cross_n,
            crossing_correct=self.cross_correct,
            accuracy_crossing=_pct(self.cross_correct, self.cross_n),
            non_crossing_announcements=non_n,
            non_crossing_correct=non_correct,
            accuracy_non_crossing=_pct(non_correct, non_n),
            avoidable_mult10=self.mult10,
            mult10_rate=_per100(self.mult10, self.plays),
            median_compute_ms=_median_int(self.times),
            timeouts=self.timeouts,
            sessions=len(self.sessions),
        )


def pupil_summary(*, plays: Iterable[Play]) -> PupilSummary:
    """One pupil's figures over the records given (a date range, a session…)."""
    counter = _Counter()
    counter.feed(plays)
    return counter.summary()


# --------------------------------------------------------------------------- #
# Per-session series and trend.
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, slots=True)
class SessionPoint:
    """One session of one pupil: a point on the progress charts."""

    session_id: int
    started_at: datetime  # the first record of the pupil in that session
    date: date
    plays: int
    announcements: int
    correct: int
    accuracy: float | None
    median_compute_ms: int | None
    avoidable_mult10: int
    mult10_rate: float | None
    timeouts: int


def session_series(*, plays: Iterable[Play], tz: tzinfo | None = None) -> list[SessionPoint]:
    """The pupil's sessions in time order (by their first record). ``date`` is
    the local date in ``tz`` when given (the chart's labels), else the date of
    the timestamp as stored."""
    groups: dict[int, list[Play]] = {}
    for play in plays:
        group = groups.get(play.session_id)
        if group is None:
            groups[play.session_id] = [play]
        else:
            group.append(play)
    points: list[SessionPoint] = []
    for sid, group in groups.items():
        counter = _Counter()
        counter.feed(group)
        s = counter.summary()
        started = min(play.created_at for play in group)
        local = started.astimezone(tz) if tz is not None and started.tzinfo else started
        points.append(
            SessionPoint(
                session_id=sid,
                started_at=started,
                date=local.date(),
                plays=s.plays,
                announcements=s.announcements,
                correct=s.correct,
                accuracy=s.accuracy,
                median_compute_ms=s.median_compute_ms,
                avoidable_mult10=s.avoidable_mult10,
                mult10_rate=s.mult10_rate,
                timeouts=s.timeouts,
            )
        )
    points.sort(key=lambda p: (p.started_at, p.session_id))
    return points


class _HasRates(Protocol):
    @property
    def accuracy(self) -> float | None: ...
    @property
    def mult10_rate(self) -> float | None: ...
    @property
    def median_compute_ms(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class Trend:
    """The current period against the pupil's own previous sessions. Deltas are
    ``None`` when either side has no data; positive accuracy is better, positive
    mult10 rate and time are worse."""

    previous_sessions: int
    previous_accuracy: float | None
    accuracy_delta: float | None  # percentage points
    previous_mult10_rate: float | None
    mult10_rate_delta: float | None  # per 100 plays
    previous_median_compute_ms: int | None
    median_compute_delta_ms: int | None

    @property
    def direction(self) -> Literal["up", "down", "flat", "unknown"]:
        """A one-word summary for an arrow icon: accuracy moved by ≥ 5 points."""
        if self.accuracy_delta is None:
            return "unknown"
        if self.accuracy_delta >= 5:
            return "up"
        if self.accuracy_delta <= -5:
            return "down"
        return "flat"


def trend(*, current: _HasRates, previous: Sequence[SessionPoint]) -> Trend:
    """Compare ``current`` (a :class:`PupilSummary` or a :class:`SessionPoint`)
    with the previous sessions pooled: the mean is weighted by announcements
    (accuracy) and by plays (mult10 rate), so a five-play session does not weigh
    as much as a full one. Time is the median of the sessions' medians."""
    ann = sum(p.announcements for p in previous)
    correct = sum(p.correct for p in previous)
    n_plays = sum(p.plays for p in previous)
    mult10 = sum(p.avoidable_mult10 for p in previous)
    prev_acc = _pct(correct, ann)
    prev_rate = _per100(mult10, n_plays)
    medians = [p.median_compute_ms for p in previous if p.median_compute_ms is not None]
    prev_ms = _median_int(medians)
    acc_delta = (
        round(current.accuracy - prev_acc, 1)
        if current.accuracy is not None and prev_acc is not None
        else None
    )
    rate_delta = (
        round(current.mult10_rate - prev_rate, 2)
        if current.mult10_rate is not None and prev_rate is not None
        else None
    )
    ms_delta = (
        current.median_compute_ms - prev_ms
        if current.median_compute_ms is not None and prev_ms is not None
        else None
    )
    return Trend(
        previous_sessions=len(previous),
        previous_accuracy=prev_acc,
        accuracy_delta=acc_delta,
        previous_mult10_rate=prev_rate,
        mult10_rate_delta=rate_delta,
        previous_median_compute_ms=prev_ms,
        median_compute_delta_ms=ms_delta,
    )


# --------------------------------------------------------------------------- #
# "À surveiller".
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, slots=True)
class Flag:
    """A reason to watch a pupil. ``code`` is stable (CSS, tests, CSV);
    ``message`` is the translated sentence, formatted when read."""

    code: str
    template: Promise | str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def message(self) -> str:
        return str(self.template) % dict(self.params)

    def __str__(self) -> str:
        return self.message


def _window_rate(points: Sequence[SessionPoint]) -> tuple[float | None, int]:
    n = sum(p.plays for p in points)
    return _per100(sum(p.avoidable_mult10 for p in points), n), n


def rising_mult10(series: Sequence[SessionPoint]) -> tuple[float, float] | None:
    """Whether the avoidable-multiple-of-ten rate is rising, precisely:

    the pooled rate (per 100 plays) of the last ``RECENT_SESSIONS`` (3) sessions
    is at least ``RISING_MIN_DELTA`` (3) points above the pooled rate of the up
    to ``BASELINE_SESSIONS`` (5) sessions just before them. It needs at least
    ``MIN_BASELINE_SESSIONS`` (2) baseline sessions and ``MIN_WINDOW_PLAYS``
    (20) plays on each side, so one bad game does not make a trend.

    Returns ``(baseline_rate, recent_rate)`` when rising, else ``None``.
    """
    if len(series) < RECENT_SESSIONS + MIN_BASELINE_SESSIONS:
        return None
    recent = series[-RECENT_SESSIONS:]
    baseline = series[-RECENT_SESSIONS - BASELINE_SESSIONS : -RECENT_SESSIONS]
    recent_rate, recent_n = _window_rate(recent)
    base_rate, base_n = _window_rate(baseline)
    if recent_rate is None or base_rate is None:
        return None
    if recent_n < MIN_WINDOW_PLAYS or base_n < MIN_WINDOW_PLAYS:
        return None
    if recent_rate - base_rate >= RISING_MIN_DELTA:
        return base_rate, recent_rate
    return None


def watch_flags(*, summary: PupilSummary, series: Sequence[SessionPoint]) -> list[Flag]:
    """Why the teacher should look at this pupil, most serious first.

    The three reasons of issue 6 (accuracy < 70 %, median time > 6 s, a rising
    avoidable-mult10 rate, see :func:`rising_mult10`) plus one house reason:
    a rate that is high without rising (≥ 5 per 100 plays over ≥ 30 plays),
    because a pupil who *always* lands on tens needs help as much as one who
    started to. An empty list means nothing to watch."""
    flags: list[Flag] = []
    if (
        summary.accuracy is not None
        and summary.announcements >= WATCH_MIN_ANNOUNCEMENTS
        and summary.accuracy < WATCH_ACCURACY_BELOW
    ):
        flags.append(
            Flag(
                "low_accuracy",
                _("Précision faible : %(accuracy)s %% de bonnes réponses (moins de 70 %%)."),
                (("accuracy", _fmt_num(summary.accuracy)),),
            )
        )
    if summary.median_compute_ms is not None and summary.median_compute_ms > WATCH_MEDIAN_MS_ABOVE:
        flags.append(
            Flag(
                "slow",
                _("Calcule lentement : %(seconds)s s en médiane (plus de 6 s)."),
                (("seconds", _fmt_num(summary.median_compute_ms / 1000)),),
            )
        )
    rising = rising_mult10(series)
    if rising is not None:
        flags.append(
            Flag(
                "mult10_rising",
                _(
                    "Tombe de plus en plus sur les dizaines : %(recent)s pour 100 coups "
                    "récemment, contre %(before)s avant."
                ),
                (("recent", _fmt_num(rising[1])), ("before", _fmt_num(rising[0]))),
            )
        )
    elif (
        summary.mult10_rate is not None
        and summary.plays >= WATCH_MIN_PLAYS
        and summary.mult10_rate >= WATCH_MULT10_RATE_ABOVE
    ):
        flags.append(
            Flag(
                "mult10_often",
                _(
                    "Tombe souvent sur les dizaines alors qu'une autre carte était possible : "
                    "%(rate)s pour 100 coups."
                ),
                (("rate", _fmt_num(summary.mult10_rate)),),
            )
        )
    return flags


def _fmt_num(value: float) -> str:
    """French-looking numbers in messages: "6,5" rather than "6.5"; integers bare."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.1f}".replace(".", ",")


# --------------------------------------------------------------------------- #
# Fluency grid: the 100 addition cards a + b.
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, slots=True)
class FactCell:
    a: int
    b: int
    attempts: int
    correct: int
    accuracy: float | None
    median_compute_ms: int | None  # of correct answers
    fluent: bool
    last_results: tuple[bool, ...]  # oldest first, up to 3: correct within 3 s?


@dataclass(frozen=True, slots=True)
class FluencyGrid:
    rows: tuple[tuple[FactCell, ...], ...]  # rows[a-1][b-1]

    def cell(self, a: int, b: int) -> FactCell:
        return self.rows[a - 1][b - 1]

    @property
    def fluent_count(self) -> int:
        return sum(cell.fluent for row in self.rows for cell in row)

    @property
    def seen_count(self) -> int:
        return sum(cell.attempts > 0 for row in self.rows for cell in row)


def _last_results(when: list[datetime], quick: list[bool]) -> tuple[bool, ...]:
    """The last ``FLUENT_WINDOW`` results in time order. Records usually come
    sorted (the selectors order them), so the sort is the rare path."""
    if any(when[i] > when[i + 1] for i in range(len(when) - 1)):
        order = sorted(range(len(when)), key=when.__getitem__)
        return tuple(quick[i] for i in order[-FLUENT_WINDOW:])
    return tuple(quick[-FLUENT_WINDOW:])


def fluency_grid(*, plays: Iterable[Play]) -> FluencyGrid:
    """The 10 × 10 grid of the addition cards a + b (rows a, columns b).

    An attempt is an answered play of that card (timeouts are "no answer" and
    are left out, as in accuracy). A fact is **fluent** when at least 2 of its
    last 3 attempts were correct within 3 s. With fewer than 3 attempts the
    same rule applies to the attempts there are: 2 quick correct answers out of
    2 make a fact fluent, a single attempt never does."""
    n = [0] * 100
    ok = [0] * 100
    times: list[list[int]] = [[] for _ in range(100)]
    # Per fact: the attempts' times and whether each was quick and correct,
    # as two parallel lists (no tuple per record); sorted only if needed.
    when: list[list[datetime]] = [[] for _ in range(100)]
    quick: list[list[bool]] = [[] for _ in range(100)]
    for play in plays:
        if play.card_kind != "add" or play.correct is None or play.timed_out:
            continue
        a, b = play.card_a, play.card_b
        if a is None or b is None or not (1 <= a <= 10 and 1 <= b <= 10):
            continue
        k = (a - 1) * 10 + b - 1
        n[k] += 1
        ms = play.compute_ms
        if play.correct:
            ok[k] += 1
            if ms is not None:
                times[k].append(ms)
            quick[k].append(ms is not None and ms <= FLUENT_MS)
        else:
            quick[k].append(False)
        when[k].append(play.created_at)
    rows = []
    for i in range(10):
        row = []
        for j in range(10):
            k = i * 10 + j
            results = _last_results(when[k], quick[k])
            row.append(
                FactCell(
                    a=i + 1,
                    b=j + 1,
                    attempts=n[k],
                    correct=ok[k],
                    accuracy=_pct(ok[k], n[k]),
                    median_compute_ms=_median_int(times[k]),
                    fluent=sum(results) >= FLUENT_NEEDED,
                    last_results=results,
                )
            )
        rows.append(tuple(row))
    return FluencyGrid(rows=tuple(rows))


# --------------------------------------------------------------------------- #
# Carry grid: units digit of the total before × the card's value.
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, slots=True)
class CarryCell:
    units: int
    value: int
    attempts: int
    correct: int
    accuracy: float | None
    crosses: bool  # this cell needs a carry (addition) or a borrow (subtraction)


@dataclass(frozen=True, slots=True)
class CarryGrid:
    kind: CardKind
    values: tuple[int, ...]  # the columns
    rows: tuple[tuple[CarryCell, ...], ...]  # rows[units][column]


def _crosses(kind: str, units: int, value: int) -> bool:
    if kind == "add":
        return units + value % 10 >= 10
    return units < value % 10


def carry_grid(
    *, plays: Iterable[Play], kind: Literal["add", "sub"] = "add", all_values: bool = False
) -> CarryGrid:
    """Accuracy by units digit of the total before (rows 0..9) × the card's
    value (columns): the cells that need a carry or a borrow are where a pupil
    who has not mastered it goes wrong. Additions and subtractions get separate
    grids, since "+ 7" and "− 7" cross a ten on opposite halves of the grid.
    Columns are the values seen, or every value 2..20 with ``all_values``."""
    n: dict[tuple[int, int], int] = {}
    ok: dict[tuple[int, int], int] = {}
    for play in plays:
        if play.card_kind != kind or not _is_answer(play):
            continue
        key = (play.total_before % 10, play.card_value)
        n[key] = n.get(key, 0) + 1
        if play.correct:
            ok[key] = ok.get(key, 0) + 1
    values = tuple(range(2, 21)) if all_values else tuple(sorted({v for _, v in n}))
    rows = tuple(
        tuple(
            CarryCell(
                units=u,
                value=v,
                attempts=n.get((u, v), 0),
                correct=ok.get((u, v), 0),
                accuracy=_pct(ok.get((u, v), 0), n.get((u, v), 0)),
                crosses=_crosses(kind, u, v),
            )
            for v in values
        )
        for u in range(10)
    )
    return CarryGrid(kind=kind, values=values, rows=rows)


# --------------------------------------------------------------------------- #
# Errors by kind.
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, slots=True)
class ErrorBreakdown:
    tens: int
    units: int
    other: int
    crossing_tens: int  # of the "tens" errors, those on plays that crossed a ten

    @property
    def total(self) -> int:
        return self.tens + self.units + self.other

    def share(self, kind: ErrorKind) -> float | None:
        return _pct(getattr(self, kind), self.total)


def error_breakdown(*, plays: Iterable[Play]) -> ErrorBreakdown:
    """Wrong answers by kind: ``tens`` (off by exactly ten, a forgotten or extra
    carry), ``units`` (tens digit right, units wrong), ``other``. A wrong answer
    with no recorded kind counts as ``other``."""
    tens = units = other = crossing_tens = 0
    for play in plays:
        if play.correct is not False or play.timed_out:
            continue
        kind = play.error_kind
        if kind == "tens":
            tens += 1
            if play.crossed_ten:
                crossing_tens += 1
        elif kind == "units":
            units += 1
        else:
            other += 1
    return ErrorBreakdown(tens=tens, units=units, other=other, crossing_tens=crossing_tens)


# --------------------------------------------------------------------------- #
# What to practise next.
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, slots=True)
class PracticeItem:
    """A fact or a skill to practise, with the evidence behind it.

    ``code`` is stable: ``fact:7+8`` (the card and its twin 8 + 7),
    ``carry:9`` (adding a number ending in 9 across a ten), ``borrow:7``
    (subtracting a number ending in 7 across a ten), ``avoid_tens``."""

    code: str
    template: Promise | str
    params: tuple[tuple[str, Any], ...]
    attempts: int  # answered plays of that skill (for avoid_tens: plays)
    errors: int  # wrong answers (for avoid_tens: avoidable multiples of ten)
    rate: float | None  # errors per 100 attempts
    median_compute_ms: int | None
    score: float  # how many times worse than acceptable, cautiously (Wilson bound)
    examples: tuple[str, ...]  # up to 3 recent missed plays, e.g. "47 + 9 = 56"

    @property
    def label(self) -> str:
        return str(self.template) % dict(self.params)

    def __str__(self) -> str:
        return self.label


def _wilson_lower(errors: int, n: int) -> float:
    """A cautious error rate: the lower bound of the one-sided 95 % Wilson
    interval. Three errors out of three is weaker evidence than 30 out of 60,
    and ranking by this bound puts well-established weaknesses first."""
    if n <= 0:
        return 0.0
    p = errors / n
    z2 = WILSON_Z * WILSON_Z
    centre = p + z2 / (2 * n)
    margin = WILSON_Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, (centre - margin) / (1 + z2 / n))


class _Skill:
    """Attempts, errors, correct times and missed examples of one skill."""

    __slots__ = ("errors", "misses", "n", "times")

    def __init__(self) -> None:
        self.n = 0
        self.errors = 0
        self.times: list[int] = []
        self.misses: list[Play] = []


def _example(play: Play) -> str:
    sign = "+" if play.card_kind == "add" else "−"
    return f"{play.total_before} {sign} {play.card_value} = {play.total_after}"


def _skill_for(table: dict[Any, _Skill], key: Any) -> _Skill:
    skill = table.get(key)
    if skill is None:
        skill = table[key] = _Skill()
    return skill


def _record(skill: _Skill, play: Play) -> None:
    skill.n += 1
    if play.correct:
        if play.compute_ms is not None:
            skill.times.append(play.compute_ms)
    else:
        skill.errors += 1
        skill.misses.append(play)


def _carry_is_general(digit: int, facts: dict[tuple[int, int], tuple[int, int]]) -> bool:
    """Whether the pupil's trouble with carrying ``digit`` is general (most of
    its facts go wrong when they cross) rather than a few particular facts.

    ``facts`` maps each fact (a ≤ b) to its (attempts, errors) on plays that
    crossed a ten. Facts with under 3 such attempts say nothing; with no
    informative fact at all we keep the carry skill (we cannot tell)."""
    informative = [
        errors / n
        for (a, b), (n, errors) in facts.items()
        if (a + b) % 10 == digit and n >= MIN_SKILL_ATTEMPTS
    ]
    if not informative:
        return True
    weak = sum(rate > 2 * REFERENCE_ERROR_RATE for rate in informative)
    return weak * 2 > len(informative)


def practise_next(*, plays: Iterable[Play], n: int = 3) -> list[PracticeItem]:
    """The ``n`` facts or skills this pupil should practise next, worst first.

    Candidates: every addition fact (a + b with its twin b + a, code
    ``fact:a+b`` with a ≤ b), adding across a ten per units digit of the card
    (``carry:d``: 47 + 9 and 47 + 19 are both "add 9 with a carry"),
    subtracting across a ten (``borrow:d``) and avoiding multiples of ten
    (``avoid_tens``).

    Each is scored by its cautious error rate (:func:`_wilson_lower`) divided
    by what is acceptable for that kind of skill (10 % wrong answers; 2
    avoidable tens per 100 plays), so "5 times worse than fine" compares across
    kinds. Only skills worse than acceptable (score > 1) are proposed: a pupil
    who masters everything gets an empty list, not invented weaknesses.

    A fact and the carry skill of the same units digit describe the same
    mistakes from two sides (who fails "+ 9 with a carry" fails 4 + 5 and 3 + 6
    on most totals). When most of that digit's facts fail on crossing plays the
    carry skill is proposed and its facts are not; when only a few do, the
    facts are proposed and the carry skill is not (:func:`_carry_is_general`).
    """
    facts: dict[tuple[int, int], _Skill] = {}
    fact_cross: dict[tuple[int, int], tuple[int, int]] = {}
    carries: dict[int, _Skill] = {}
    borrows: dict[int, _Skill] = {}
    tens = _Skill()
    for play in plays:
        if play.timed_out:
            continue
        tens.n += 1
        if play.multiple_of_ten and play.avoidable:
            tens.errors += 1
            tens.misses.append(play)
        correct = play.correct
        if correct is None:
            continue
        kind = play.card_kind
        if kind == "add":
            a, b = play.card_a, play.card_b
            if a is not None and b is not None:
                key = (a, b) if a <= b else (b, a)
                _record(_skill_for(facts, key), play)
                if play.crossed_ten:
                    cn, ce = fact_cross.get(key, (0, 0))
                    fact_cross[key] = (cn + 1, ce + (not correct))
            if play.crossed_ten:
                _record(_skill_for(carries, play.card_value % 10), play)
        elif kind == "sub" and play.crossed_ten:
            _record(_skill_for(borrows, play.card_value % 10), play)

    candidates: list[PracticeItem] = []

    def consider(
        code: str,
        template: Promise | str,
        params: tuple[tuple[str, Any], ...],
        skill: _Skill,
        reference: float,
    ) -> None:
        if skill.n < MIN_SKILL_ATTEMPTS or skill.errors == 0:
            return
        score = _wilson_lower(skill.errors, skill.n) / reference
        if score <= 1.0:
            return
        recent = sorted(skill.misses, key=lambda p: p.created_at)[-3:]
        candidates.append(
            PracticeItem(
                code=code,
                template=template,
                params=params,
                attempts=skill.n,
                errors=skill.errors,
                rate=_per100(skill.errors, skill.n),
                median_compute_ms=_median_int(skill.times),
                score=round(score, 3),
                examples=tuple(_example(p) for p in recent),
            )
        )

    general = {d: _carry_is_general(d, fact_cross) for d in carries}
    for (a, b), skill in facts.items():
        digit = (a + b) % 10
        if general.get(digit, False) and _would_score(carries[digit]):
            continue  # explained by the carry skill
        consider(
            f"fact:{a}+{b}",
            _("Le calcul %(a)s + %(b)s (et %(b)s + %(a)s)")
            if a != b
            else _("Le calcul %(a)s + %(b)s"),
            (("a", a), ("b", b)),
            skill,
            REFERENCE_ERROR_RATE,
        )
    for digit, skill in carries.items():
        if not general[digit]:
            continue  # explained by particular facts
        consider(
            f"carry:{digit}",
            _("Ajouter %(digit)s avec retenue (passer la dizaine, ex. 47 + %(digit)s)"),
            (("digit", digit),),
            skill,
            REFERENCE_ERROR_RATE,
        )
    for digit, skill in borrows.items():
        consider(
            f"borrow:{digit}",
            _("Soustraire %(digit)s avec emprunt (passer la dizaine, ex. 52 − %(digit)s)"),
            (("digit", digit),),
            skill,
            REFERENCE_ERROR_RATE,
        )
    consider(
        "avoid_tens",
        _("Éviter les dizaines : garder une carte qui ne tombe pas sur 10, 20, 30…"),
        (),
        tens,
        REFERENCE_MULT10_RATE,
    )
    candidates.sort(key=lambda item: (-item.score, -item.attempts, item.code))
    return candidates[:n]


def _would_score(skill: _Skill) -> bool:
    return (
        skill.n >= MIN_SKILL_ATTEMPTS
        and _wilson_lower(skill.errors, skill.n) / REFERENCE_ERROR_RATE > 1.0
    )


# --------------------------------------------------------------------------- #
# Tips for parents.
# --------------------------------------------------------------------------- #

_COMPLEMENTS = "1 + 9, 2 + 8, 3 + 7, 4 + 6, 5 + 5"


def _carry_example(digit: int) -> str:
    before = 37 if digit != 3 else 38
    after = before + digit
    to_ten = 10 - before % 10
    return f"{before} + {digit} = {before} + {to_ten} + {digit - to_ten} = {after}"


def _borrow_example(digit: int) -> str:
    before = 52 if digit > 2 else 51
    first = before % 10
    return f"{before} − {digit} = {before} − {first} − {digit - first} = {before - digit}"


def parent_tips(
    *,
    plays: Iterable[Play],
    items: Sequence[PracticeItem] | None = None,
    summary: PupilSummary | None = None,
) -> list[str]:
    """Two or three concrete things a parent can do at home, in plain French,
    chosen from the child's own records: the skills of :func:`practise_next`
    turned into games, then general encouragement so there are always at
    least two. Strings are translated in the active language.

    ``items`` and ``summary`` may be passed when the page has them already,
    which spares a second pass over the records."""
    plays = list(plays) if not isinstance(plays, list) else plays
    if items is None:
        items = practise_next(plays=plays, n=3)
    if summary is None:
        summary = pupil_summary(plays=plays)
    tips: list[str] = []
    facts: list[str] = []
    for item in items:
        code = item.code
        if code == "avoid_tens":
            tips.append(
                str(
                    _(
                        "Entraînez les compléments à 10 : %(pairs)s… Demandez « combien pour "
                        "aller à la prochaine dizaine ? » (27 → 3, 45 → 5). Votre enfant verra "
                        "venir 30, 50… et choisira une autre carte."
                    )
                )
                % {"pairs": _COMPLEMENTS}
            )
        elif code.startswith("carry:"):
            digit = int(code.split(":")[1])
            if digit == 9:
                tips.append(
                    str(
                        _(
                            "Jouez à ajouter 9 : ajouter 9, c'est ajouter 10 puis enlever 1. "
                            "Par exemple 36 + 9 = 46 − 1 = 45. Essayez avec 27, 54, 68…"
                        )
                    )
                )
            else:
                tips.append(
                    str(
                        _(
                            "Jouez à ajouter %(digit)s en passant par la dizaine : "
                            "%(example)s. Quelques calculs par jour suffisent."
                        )
                    )
                    % {"digit": digit, "example": _carry_example(digit)}
                )
        elif code.startswith("borrow:"):
            digit = int(code.split(":")[1])
            tips.append(
                str(
                    _("Jouez à enlever %(digit)s en descendant d'abord à la dizaine : %(example)s.")
                )
                % {"digit": digit, "example": _borrow_example(digit)}
            )
        elif code.startswith("fact:"):
            a, b = code.split(":")[1].split("+")
            facts.append(f"{a} + {b}")
    if facts:
        tips.insert(
            0,
            str(
                _(
                    "Révisez ensemble %(facts)s : écrivez-les sur des petites cartes et "
                    "tirez-en une chaque soir, en voiture ou à table."
                )
            )
            % {"facts": ", ".join(facts)},
        )
    if len(tips) < 3 and summary.median_compute_ms is not None and summary.median_compute_ms > 6000:
        tips.append(
            str(
                _(
                    "Calculez de tête à voix haute pendant 5 minutes par jour (les prix en "
                    "courses, les points d'un jeu) : la vitesse vient avec l'habitude."
                )
            )
        )
    if len(tips) < 2:
        tips.append(
            str(
                _(
                    "Demandez à votre enfant de vous expliquer comment il calcule 38 + 14 : "
                    "expliquer sa méthode aide à la retenir."
                )
            )
        )
    if len(tips) < 2:
        tips.append(
            str(
                _(
                    "Jouez à deux à la Chasse aux Souris avec un jeu de cartes : annoncez "
                    "chacun le total à voix haute."
                )
            )
        )
    return tips[:3]


# --------------------------------------------------------------------------- #
# The child's own page: stars and streak.
# --------------------------------------------------------------------------- #

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

    def streak_text(self) -> str:
        return ngettext(
            "%(count)d jour d'école de suite", "%(count)d jours d'école de suite", self.streak_days
        ) % {"count": self.streak_days}


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
