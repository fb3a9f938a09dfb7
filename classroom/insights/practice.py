# The typographic minus "−" and times "×" are what the pupils and parents read.
# ruff: noqa: RUF001, RUF002, RUF003
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
    ``carry`` (crossing a ten while adding: 47 + 9, 38 + 15), ``borrow``
    (crossing a ten while subtracting: 52 − 7), ``avoid_tens``."""

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


def carry_error(play: Play) -> bool:
    """A wrong answer off by exactly ten on a play that crossed a ten: the
    units were right, so the fact was known and the carry was forgotten
    (38 + 15 = 43). Off by ten on a play that did not cross, the ten was lost
    inside the fact itself (20 + 15 = 25): that error is the fact's. Public
    because the fluency grid must leave the same errors out of a fact
    (issue 47): one definition, so the diagnosis and the news never disagree."""
    return play.correct is False and play.crossed_ten and play.error_kind == "tens"


_carry_error = carry_error


def _would_score(skill: _Skill) -> bool:
    """Whether ``skill`` is worse than acceptable (see :func:`weaknesses`)."""
    return (
        skill.n >= MIN_SKILL_ATTEMPTS
        and skill.errors > 0
        and _wilson_lower(skill.errors, skill.n) / REFERENCE_ERROR_RATE > 1.0
    )


@dataclass(frozen=True, slots=True)
class Weaknesses:
    """Every fact or skill worse than acceptable, worst first: the one
    diagnosis that "practise next" shows and targeted cards act on
    (:func:`weaknesses`)."""

    items: tuple[PracticeItem, ...]

    @property
    def facts(self) -> tuple[tuple[int, int], ...]:
        """The weak facts ``(a, b)`` with ``a <= b``, worst first."""
        out = []
        for item in self.items:
            if item.code.startswith("fact:"):
                a, b = item.code[5:].split("+")
                out.append((int(a), int(b)))
        return tuple(out)

    @property
    def carry(self) -> bool:
        """Whether crossing a ten while adding is a weakness of its own."""
        return any(item.code == "carry" for item in self.items)


def weaknesses(*, plays: Iterable[Play]) -> Weaknesses:
    """Every fact or skill this pupil answers worse than acceptable, worst first.

    Candidates (see ``docs/learning.md``):

    * ``carry``, crossing a ten while adding: its attempts are the answered
      additions that crossed a ten, its errors the carry errors among them
      (:func:`_carry_error`: off by ten, so the units, hence the fact, were
      right). One skill, not one per units digit: forgetting the carry is one
      habit;
    * every addition fact ``fact:a+b`` (the card a + b and its twin b + a,
      a ≤ b), judged on its answers without the carry's evidence: a forgotten
      carry (38 + 15 = 43) never counts against 7 + 8, and when ``carry`` is
      itself a weakness, none of the fact's crossing plays count (a slip while
      bridging the ten is the carry's too), so the fact is judged on the plays
      that did not cross;
    * ``borrow``, crossing a ten while subtracting: the answered sommes that
      crossed a ten, and every wrong answer among them (sommes have no fact of
      their own to take the units slips);
    * ``avoid_tens``: plays that landed on an avoidable multiple of ten.

    Each is scored by its cautious error rate (:func:`_wilson_lower`) divided
    by what is acceptable for that kind of skill (10 % wrong answers; 2
    avoidable tens per 100 plays), so "5 times worse than fine" compares across
    kinds. Only skills worse than acceptable (score > 1) count: a pupil who
    masters everything gets none, not invented weaknesses. A fact wrong every
    time is therefore always there (on the plays that did not cross, if not
    on all), and a carry skill appears only from forgotten carries."""
    plays = plays if isinstance(plays, list) else list(plays)
    carry, borrow, tens = _crossing_skills(plays)
    facts = _fact_skills(plays, weak_carry=_would_score(carry))
    found = [
        _candidate(
            f"fact:{a}+{b}",
            _("Le calcul %(a)s + %(b)s (et %(b)s + %(a)s)")
            if a != b
            else _("Le calcul %(a)s + %(b)s"),
            (("a", a), ("b", b)),
            skill,
            REFERENCE_ERROR_RATE,
        )
        for (a, b), skill in facts.items()
    ]
    found.append(
        _candidate(
            "carry",
            _("Passer la dizaine en ajoutant (ex. %(examples)s)"),
            (("digit", _most_missed_digit(carry)),),
            carry,
            REFERENCE_ERROR_RATE,
            examples_in_label=True,
        )
    )
    found.append(
        _candidate(
            "borrow",
            _("Passer la dizaine en soustrayant (ex. %(examples)s)"),
            (("digit", _most_missed_digit(borrow)),),
            borrow,
            REFERENCE_ERROR_RATE,
            examples_in_label=True,
        )
    )
    found.append(
        _candidate(
            "avoid_tens",
            _("Éviter les dizaines : garder une carte qui ne tombe pas sur 10, 20, 30…"),
            (),
            tens,
            REFERENCE_MULT10_RATE,
        )
    )
    candidates = [item for item in found if item is not None]
    candidates.sort(key=lambda item: (-item.score, -item.attempts, item.code))
    return Weaknesses(items=tuple(candidates))


def _crossing_skills(plays: list[Play]) -> tuple[_Skill, _Skill, _Skill]:
    """The carry (adding across a ten), the borrow (subtracting across a ten)
    and the avoidable tens, tallied over the answered plays."""
    carry = _Skill()
    borrow = _Skill()
    tens = _Skill()
    for play in plays:
        if play.timed_out:
            continue
        tens.n += 1
        if play.multiple_of_ten and play.avoidable:
            tens.errors += 1
            tens.misses.append(play)
        if play.correct is None or not play.crossed_ten:
            continue
        if play.card_kind == "add":
            carry.n += 1
            if play.correct:
                if play.compute_ms is not None:
                    carry.times.append(play.compute_ms)
            elif _carry_error(play):
                carry.errors += 1
                carry.misses.append(play)
        elif play.card_kind == "sub":
            _record(borrow, play)
    return carry, borrow, tens


def _fact_skills(plays: list[Play], *, weak_carry: bool) -> dict[tuple[int, int], _Skill]:
    """Each addition fact's tally (a ≤ b). When crossing a ten is itself a
    weakness, the crossing plays are its evidence, whatever their error: a
    fact is then judged on the plays that did not cross. Otherwise a fact is
    judged on all its plays but the forgotten carries."""
    facts: dict[tuple[int, int], _Skill] = {}
    for play in plays:
        if play.timed_out or play.correct is None or play.card_kind != "add":
            continue
        a, b = play.card_a, play.card_b
        if a is None or b is None:
            continue
        if play.crossed_ten and (weak_carry or _carry_error(play)):
            continue
        _record(_skill_for(facts, (a, b) if a <= b else (b, a)), play)
    return facts


def _candidate(
    code: str,
    template: Promise | str,
    params: tuple[tuple[str, Any], ...],
    skill: _Skill,
    reference: float,
    *,
    examples_in_label: bool = False,
) -> PracticeItem | None:
    """The skill as a practice item if it is worse than acceptable (its
    cautious error rate over ``reference`` above 1), else ``None``."""
    if skill.n < MIN_SKILL_ATTEMPTS or skill.errors == 0:
        return None
    score = _wilson_lower(skill.errors, skill.n) / reference
    if score <= 1.0:
        return None
    recent = sorted(skill.misses, key=lambda p: p.created_at)[-3:]
    examples = tuple(_example(p) for p in recent)
    if examples_in_label:
        params = (*params, ("examples", ", ".join(examples)))
    return PracticeItem(
        code=code,
        template=template,
        params=params,
        attempts=skill.n,
        errors=skill.errors,
        rate=per100(skill.errors, skill.n),
        median_compute_ms=median_int(skill.times),
        score=round(score, 3),
        examples=examples,
    )


def _most_missed_digit(skill: _Skill) -> int:
    """The units digit of the card values most often missed (for the parent's
    tip: adding 9 has a trick of its own); ties go to the larger digit."""
    counts: dict[int, int] = {}
    for play in skill.misses:
        digit = play.card_value % 10
        counts[digit] = counts.get(digit, 0) + 1
    return max(counts, key=lambda d: (counts[d], d)) if counts else 0


def practise_next(*, plays: Iterable[Play], n: int = 3) -> list[PracticeItem]:
    """The ``n`` facts or skills this pupil should practise next, worst first:
    the head of :func:`weaknesses`, the same diagnosis targeted cards use."""
    return list(weaknesses(plays=plays).items[:n])
