# The typographic minus "−" and times "×" are what the pupils and parents read.
# ruff: noqa: RUF003
""" "À surveiller": why a teacher should look at a pupil, with the evidence.

Messages are marked with ``gettext_lazy`` and formatted when read
(``Flag.message``), so the request's language decides."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from classroom.insights.numbers import per100
from classroom.insights.summary import PupilSummary, SessionPoint
from classroom.numbers import number_text

# The thresholds of the "à surveiller" flag: what a teacher asked to be told about.
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
# Carries: more than half of the additions that cross a ten answered wrong,
# over at least 10 of them. Overall accuracy hides it: a pupil who forgets 21
# carries of 25 can still be right 75-80 % of the time.
WATCH_CARRY_ACCURACY_BELOW = 50.0  # per cent
WATCH_MIN_CARRIES = 10


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
    return per100(sum(p.avoidable_mult10 for p in points), n), n


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

    The three reasons teachers asked for (accuracy < 70 %, median time > 6 s, a rising
    avoidable-mult10 rate, see :func:`rising_mult10`) plus two house reasons:
    more than half of the additions that cross a ten wrong (over ≥ 10), since
    overall accuracy hides a pupil who forgets most carries; and a
    multiple-of-ten rate that is high without rising (≥ 5 per 100 plays over
    ≥ 30 plays), because a pupil who *always* lands on tens needs help as much
    as one who started to. An empty list means nothing to watch."""
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
    if (
        summary.accuracy_add_crossing is not None
        and summary.add_crossing_announcements >= WATCH_MIN_CARRIES
        and summary.accuracy_add_crossing < WATCH_CARRY_ACCURACY_BELOW
    ):
        flags.append(
            Flag(
                "carries",
                _(
                    "Passe mal la dizaine en ajoutant : %(correct)s réussis sur %(count)s "
                    "(moins de la moitié)."
                ),
                (
                    ("correct", summary.add_crossing_correct),
                    ("count", summary.add_crossing_announcements),
                ),
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
    """Numbers in messages as the reader writes them ("6,5" in French, "6.5" in
    English); integers bare."""
    return number_text(float(value), digits=1)
