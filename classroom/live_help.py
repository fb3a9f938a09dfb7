# The typographic minus "−" is what the teacher reads.
# ruff: noqa: RUF001, RUF002, RUF003
""" "Needs help now": the pure rule behind the monitor's live marks (issue 18 § 3).

During a lesson the teacher walks between tables; the monitor marks a pupil
who struggles *right now*, says why in a few words and names the calculations
involved, and the mark clears itself once the pupil recovers. This module is
the rule only: a pure function over the pupil's last few learning records,
with no database access, so the monitor can run it on every new record it is
pushed (the move path pays no query for it) and tests can feed it directly.

A pupil needs help now when, over their most recent records (newest last):

* **errors**: 3 or more of their last 5 announcements are wrong;
* **tens**: their last 2 plays both landed on an avoidable multiple of ten
  (another card in the hand was safe: a planning slip, twice running);
* **slow**: each of their last 3 correct answers took more than twice their
  own usual calculation time (the median of their earlier correct answers,
  which needs at least 5 of them; a pupil is compared with themselves only).

Timeouts (a robot played for the pupil) are "no answer": they are skipped, so
they neither make nor clear a mark. The rule is evaluated afresh on each new
record, so a mark clears as soon as its condition no longer holds: for errors,
once at most 2 of the last 5 announcements are wrong.

Calculations are named the way the mistake points: a wrong total that is off by
exactly ten on a play that crossed a ten is a carry problem, shown as the step
the pupil had to compute ("38 + 5"); any other wrong addition is shown as the
card's fact ("7 + 8"); a somme as the step ("52 − 7").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from statistics import median
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from classroom.numbers import number_text

ERRORS_WINDOW = 5
ERRORS_NEEDED = 3
TENS_RUN = 2
SLOW_RUN = 3
SLOW_FACTOR = 2.0
SLOW_MIN_USUAL = 5
# The records the rule ever looks at: enough for the usual time behind the
# last 3 answers. Callers keep this many per pupil, newest last.
KEEP = 24


@dataclass(frozen=True, slots=True)
class RecentPlay:
    """The fields of one learning record the rule reads. Plain values, so the
    record can travel over the channel layer as JSON (``as_payload``)."""

    card_kind: str
    card_a: int | None
    card_b: int | None
    card_value: int
    total_before: int
    correct: bool | None
    compute_ms: int | None
    multiple_of_ten: bool
    avoidable: bool
    crossed_ten: bool
    error_kind: str
    timed_out: bool

    @classmethod
    def of(cls, record: Any) -> RecentPlay:
        """From a :class:`~classroom.models.LearningRecord` (or anything with
        its attribute names)."""
        return cls(**{name: getattr(record, name) for name in _FIELDS})

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> RecentPlay | None:
        """From ``as_payload``'s dict; ``None`` when it is not one."""
        try:
            play = cls(**{name: data[name] for name in _FIELDS})
        except (KeyError, TypeError):
            return None
        if not isinstance(play.card_value, int) or not isinstance(play.total_before, int):
            return None
        return play

    def as_payload(self) -> dict[str, Any]:
        return asdict(self)


_FIELDS = tuple(RecentPlay.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class HelpMark:
    """Why a pupil needs help now. ``code`` is stable (``errors``, ``tens``,
    ``slow``: CSS, tests); ``message`` is translated when read."""

    code: str
    template: Promise | str
    params: tuple[tuple[str, Any], ...]
    calculations: tuple[str, ...]

    @property
    def message(self) -> str:
        return str(self.template) % dict(self.params)

    def __str__(self) -> str:
        return self.message


def _answered(play: RecentPlay) -> bool:
    return play.correct is not None and not play.timed_out


def calculation(play: RecentPlay) -> str:
    """How a play is named on the mark (see the module doc)."""
    if play.card_kind == "sub":
        return f"{play.total_before} − {play.card_value}"
    carry = play.crossed_ten and play.error_kind == "tens"
    if carry or play.card_a is None or play.card_b is None:
        return f"{play.total_before} + {play.card_value}"
    return f"{play.card_a} + {play.card_b}"


def _landed(play: RecentPlay) -> str:
    sign = "−" if play.card_kind == "sub" else "+"
    after = play.total_before + (-play.card_value if play.card_kind == "sub" else play.card_value)
    return f"{play.total_before} {sign} {play.card_value} = {after}"


def _distinct(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def needs_help(*, recent: Sequence[RecentPlay], usual_ms: int | None = None) -> HelpMark | None:
    """The mark for a pupil whose latest records are ``recent`` (oldest
    first; only the last ``KEEP`` matter), or ``None`` when they are fine.

    ``usual_ms`` is the pupil's usual calculation time when the caller knows
    it (e.g. from the reports); otherwise it is the median of the correct
    answers in ``recent`` before the last ``SLOW_RUN``. The first rule that
    holds wins, in the order errors, tens, slow."""
    plays = [p for p in recent[-KEEP:] if not p.timed_out]
    answers = [p for p in plays if _answered(p)]
    last = answers[-ERRORS_WINDOW:]
    wrong = [p for p in last if p.correct is False]
    if len(wrong) >= ERRORS_NEEDED:
        calcs = _distinct([calculation(p) for p in wrong])
        return HelpMark(
            "errors",
            _("%(calculations)s : %(wrong)s erreurs sur %(count)s"),
            (("calculations", ", ".join(calcs)), ("wrong", len(wrong)), ("count", len(last))),
            calcs,
        )
    tail = plays[-TENS_RUN:]
    if len(tail) == TENS_RUN and all(p.multiple_of_ten and p.avoidable for p in tail):
        calcs = _distinct([_landed(p) for p in tail])
        return HelpMark(
            "tens",
            _("Tombe sur les dizaines %(count)s fois de suite : %(calculations)s"),
            (("count", TENS_RUN), ("calculations", ", ".join(calcs))),
            calcs,
        )
    correct = [p for p in answers if p.correct and p.compute_ms is not None]
    if len(correct) >= SLOW_RUN:
        run, earlier = correct[-SLOW_RUN:], correct[:-SLOW_RUN]
        usual = usual_ms
        if usual is None and len(earlier) >= SLOW_MIN_USUAL:
            usual = int(median(p.compute_ms for p in earlier if p.compute_ms is not None))
        if usual and all(
            p.compute_ms is not None and p.compute_ms > SLOW_FACTOR * usual for p in run
        ):
            calcs = _distinct([calculation(p) for p in run])
            slowest = max(p.compute_ms or 0 for p in run)
            return HelpMark(
                "slow",
                _(
                    "Beaucoup plus lent que d'habitude : %(calculations)s "
                    "(jusqu'à %(seconds)s s, d'habitude %(usual)s s)"
                ),
                (
                    ("calculations", ", ".join(calcs)),
                    ("seconds", _seconds(slowest)),
                    ("usual", _seconds(usual)),
                ),
                calcs,
            )
    return None


def _seconds(ms: int) -> str:
    """Seconds as the teacher writes them ("6,5" in French, "6.5" in English)."""
    return number_text(ms / 1000, digits=1)
