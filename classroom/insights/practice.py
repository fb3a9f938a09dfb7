# The typographic minus "−" and times "×" are what the pupils and parents read.
# ruff: noqa: RUF001, RUF003
"""What a pupil should practise next: the facts and skills worse than
acceptable, ranked by a cautious error rate so established weaknesses come first.

Labels are lazy (``PracticeItem.label`` formats them when read)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from classroom.insights.numbers import median_int, per100
from classroom.insights.plays import Play

# practise_next: how bad "bad" is, per kind of skill.
REFERENCE_ERROR_RATE = 0.10  # an arithmetic skill answered right 90 % of the time is fine
REFERENCE_MULT10_RATE = 0.02  # 2 avoidable tens per 100 plays is fine
WILSON_Z = 1.645  # one-sided 95 %
MIN_SKILL_ATTEMPTS = 3


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
                rate=per100(skill.errors, skill.n),
                median_compute_ms=median_int(skill.times),
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
