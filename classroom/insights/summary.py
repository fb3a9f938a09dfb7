# The typographic minus "−" and times "×" are what the pupils and parents read.
# ruff: noqa: RUF003
"""A pupil's figures over a period, per session, and against their own past.

The same formulas serve the records (``pupil_summary``, ``session_series``) and
the stored per-session counts (``pooled_summary``): they live once, in
``summary_from_totals``, so the class report and the pupil page agree by
construction.

Conventions (see ``docs/rules/chasse.md``): an **announcement** is a
play where the pupil gave a number (``correct`` is ``True`` or ``False``); a
**timeout** is a play a bot made for the pupil, left out of accuracy but
counted on its own; a **play** (the denominator of "per 100 plays") is any
record that is not a timeout; an **avoidable multiple of ten** is a record with
``multiple_of_ten`` and ``avoidable``; a **timed announcement** is an
announcement whose think time was measured (``think_ms`` above 0: a record
without timing reads as 0).

Each count is counted by one rule, :meth:`_Counter.feed`, whether the records
are read for one pupil's page or summarised per session and stored
(``classroom.services.summaries``): a figure needs no second rule in SQL. A
new count is a field of :class:`Totals` (and of the stored model), its rule in
``feed``, and its figure in :func:`summary_from_totals`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from typing import Any, Literal, NamedTuple, Protocol

from classroom.insights.numbers import median_int, pct, per100, pooled_median
from classroom.insights.plays import Play


@dataclass(frozen=True, slots=True)
class PupilSummary:
    """A pupil over a period: the class report's row, the pupil page's header."""

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
    # Crossing a ten, additions (carries) and sommes (borrows) apart: pooled,
    # a pupil who forgets most carries hides behind sommes answered right.
    add_crossing_announcements: int = 0
    add_crossing_correct: int = 0
    accuracy_add_crossing: float | None = None
    sub_crossing_announcements: int = 0
    sub_crossing_correct: int = 0
    accuracy_sub_crossing: float | None = None
    # The mean think time of the timed announcements (the class report's
    # "temps de réflexion moyen"): how long a pupil looks before answering.
    mean_think_ms: int | None = None


class _Counter:
    """The running sums behind a summary; shared by the pupil summary and the
    per-session points so both agree by construction. ``feed`` is the hot loop
    (~10,000 records per pupil page), so it works on locals, not attributes."""

    __slots__ = (
        "add_cross_correct",
        "add_cross_n",
        "announcements",
        "correct",
        "cross_correct",
        "cross_n",
        "mult10",
        "plays",
        "sessions",
        "think_ms",
        "think_n",
        "timeouts",
        "times",
    )

    def __init__(self) -> None:
        self.plays = 0
        self.announcements = 0
        self.correct = 0
        self.cross_n = 0
        self.cross_correct = 0
        self.add_cross_n = 0
        self.add_cross_correct = 0
        self.mult10 = 0
        self.timeouts = 0
        self.think_n = 0
        self.think_ms = 0
        self.times: list[int] = []
        self.sessions: set[int] = set()

    def feed(self, plays: Iterable[Play]) -> None:
        n = ann = ok = cross_n = cross_ok = add_cross_n = add_cross_ok = mult10 = timeouts = 0
        think_n = think_ms = 0
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
            think = play.think_ms
            if think:
                think_n += 1
                think_ms += think
            crossed = play.crossed_ten
            adding = crossed and play.card_kind == "add"
            if crossed:
                cross_n += 1
                if adding:
                    add_cross_n += 1
            if correct:
                ok += 1
                if crossed:
                    cross_ok += 1
                    if adding:
                        add_cross_ok += 1
                if play.compute_ms is not None:
                    times.append(play.compute_ms)
        self.plays += n
        self.announcements += ann
        self.correct += ok
        self.cross_n += cross_n
        self.cross_correct += cross_ok
        self.add_cross_n += add_cross_n
        self.add_cross_correct += add_cross_ok
        self.mult10 += mult10
        self.timeouts += timeouts
        self.think_n += think_n
        self.think_ms += think_ms

    def totals(self) -> Totals:
        return Totals(
            plays=self.plays,
            announcements=self.announcements,
            correct=self.correct,
            crossing_announcements=self.cross_n,
            crossing_correct=self.cross_correct,
            avoidable_mult10=self.mult10,
            timeouts=self.timeouts,
            add_crossing_announcements=self.add_cross_n,
            add_crossing_correct=self.add_cross_correct,
            think_count=self.think_n,
            think_ms_sum=self.think_ms,
        )

    def summary(self) -> PupilSummary:
        totals = self.totals()
        return summary_from_totals(
            totals, median_compute_ms=median_int(self.times), sessions=len(self.sessions)
        )


class Totals(NamedTuple):
    """The counts behind a summary: sums over any number of plays or sessions.
    Stored per (pupil, session) as the same-named columns of
    ``PupilSessionSummary``, read back in this order."""

    plays: int
    announcements: int
    correct: int
    crossing_announcements: int
    crossing_correct: int
    avoidable_mult10: int
    timeouts: int
    add_crossing_announcements: int = 0  # of the crossing announcements, the additions
    add_crossing_correct: int = 0
    think_count: int = 0  # the timed announcements
    think_ms_sum: int = 0  # their think times, summed (a mean pools exactly)


def summary_from_totals(
    totals: Totals, *, median_compute_ms: int | None, sessions: int
) -> PupilSummary:
    """The one place the figures are worked out from the counts: the records'
    summary and the stored sessions' pooled summary both end here."""
    ann, ok = totals.announcements, totals.correct
    cross, cross_ok = totals.crossing_announcements, totals.crossing_correct
    add, add_ok = totals.add_crossing_announcements, totals.add_crossing_correct
    return PupilSummary(
        plays=totals.plays,
        announcements=ann,
        correct=ok,
        accuracy=pct(ok, ann),
        crossing_announcements=cross,
        crossing_correct=cross_ok,
        accuracy_crossing=pct(cross_ok, cross),
        non_crossing_announcements=ann - cross,
        non_crossing_correct=ok - cross_ok,
        accuracy_non_crossing=pct(ok - cross_ok, ann - cross),
        avoidable_mult10=totals.avoidable_mult10,
        mult10_rate=per100(totals.avoidable_mult10, totals.plays),
        median_compute_ms=median_compute_ms,
        timeouts=totals.timeouts,
        sessions=sessions,
        add_crossing_announcements=add,
        add_crossing_correct=add_ok,
        accuracy_add_crossing=pct(add_ok, add),
        sub_crossing_announcements=cross - add,
        sub_crossing_correct=cross_ok - add_ok,
        accuracy_sub_crossing=pct(cross_ok - add_ok, cross - add),
        mean_think_ms=round(totals.think_ms_sum / totals.think_count)
        if totals.think_count
        else None,
    )


class SessionCounts(NamedTuple):
    """One pupil's counts for one session, as stored once the session is over
    (``PupilSessionSummary``), read as a plain tuple: no model instance per
    row, thousands of them are read per class report."""

    pupil_id: int
    class_session_id: int
    first_at: datetime
    totals: Totals
    compute_ms: list[int]  # sorted

    @classmethod
    def from_columns(cls, row: Sequence[Any]) -> SessionCounts:
        """From a row of :data:`SESSION_COUNTS_COLUMNS` (``first_at`` and
        ``compute_ms`` already converted)."""
        return cls(row[0], row[1], row[2], Totals(*row[3:-1]), row[-1])


# The stored columns of a :class:`SessionCounts`, in this order (the raw
# reader selects them so): every count of ``Totals`` by its name.
SESSION_COUNTS_COLUMNS: tuple[str, ...] = (
    "pupil_id",
    "class_session_id",
    "first_at",
    *Totals._fields,
    "compute_ms",
)


class SessionTally(NamedTuple):
    """What is stored for one pupil's session: its counts, and when its last
    record was written."""

    counts: SessionCounts
    last_at: datetime


def session_counts(plays: Iterable[Play]) -> list[SessionTally]:
    """Per (pupil, session) counts of ``plays``, by the one rule
    (:meth:`_Counter.feed`) the pupil's page counts with: a stored summary
    is the pupil page's count of that session, by construction."""
    groups: dict[tuple[int, int], list[Play]] = {}
    for play in plays:
        key = (play.pupil_id, play.session_id)
        group = groups.get(key)
        if group is None:
            groups[key] = [play]
        else:
            group.append(play)
    out = []
    for (pupil_id, session_id), group in groups.items():
        counter = _Counter()
        counter.feed(group)
        times = [play.created_at for play in group]
        counts = SessionCounts(
            pupil_id, session_id, min(times), counter.totals(), sorted(counter.times)
        )
        out.append(SessionTally(counts, max(times)))
    return out


def pooled_summary(
    counts: Sequence[SessionCounts], times: list[list[int]] | None = None
) -> PupilSummary:
    """The figures of several sessions pooled, exactly as :func:`pupil_summary`
    would compute them from the records (medians included). ``times``: the
    sorted correct-answer times to take the median of, when the caller has
    them merged already (default: the counts' own)."""
    totals = Totals(*(sum(c.totals[i] for c in counts) for i in range(len(Totals._fields))))
    return summary_from_totals(
        totals,
        median_compute_ms=pooled_median(
            times if times is not None else [c.compute_ms for c in counts]
        ),
        sessions=len({c.class_session_id for c in counts}),
    )


def pupil_summary(*, plays: Iterable[Play]) -> PupilSummary:
    """One pupil's figures over the records given (a date range, a session…)."""
    counter = _Counter()
    counter.feed(plays)
    return counter.summary()


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


# A session's point repeats these figures of that session's summary.
_POINT_FROM_SUMMARY = (
    "plays",
    "announcements",
    "correct",
    "accuracy",
    "median_compute_ms",
    "avoidable_mult10",
    "mult10_rate",
    "timeouts",
)


def session_point(
    *, session_id: int, started_at: datetime, day: date, summary: PupilSummary
) -> SessionPoint:
    """One session's point, from that session's summary."""
    shared = {name: getattr(summary, name) for name in _POINT_FROM_SUMMARY}
    return SessionPoint(session_id=session_id, started_at=started_at, date=day, **shared)


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
        started = min(play.created_at for play in group)
        local = started.astimezone(tz) if tz is not None and started.tzinfo else started
        points.append(
            session_point(
                session_id=sid, started_at=started, day=local.date(), summary=counter.summary()
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
    prev_acc = pct(correct, ann)
    prev_rate = per100(mult10, n_plays)
    medians = [p.median_compute_ms for p in previous if p.median_compute_ms is not None]
    prev_ms = median_int(medians)
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
