# The typographic minus "−" and times "×" are what the pupils and parents read.
# ruff: noqa: RUF002, RUF003
"""The grids of the pupil page: fluency on the 100 addition cards, accuracy by
units digit × card value (carries and borrows), and wrong answers by kind."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from classroom.insights.numbers import median_int, pct
from classroom.insights.plays import CardKind, ErrorKind, Play, is_answer
from classroom.insights.practice import carry_error

# Fluency: correct within 3 s in 2 of the last 3 attempts.
FLUENT_MS = 3000
FLUENT_WINDOW = 3
FLUENT_NEEDED = 2


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
    # When the fact last became fluent (the attempt that made 2 of the last 3
    # quick and right), if it still is: "Nouveau : 7 + 8 est su !".
    fluent_since: datetime | None = None
    # Wrong answers that were the fact's own: every wrong answer but the
    # forgotten carries (``carry_error``), which say nothing about the fact.
    fact_errors: int = 0


@dataclass(frozen=True, slots=True)
class FluencyGrid:
    rows: tuple[tuple[FactCell, ...], ...]  # rows[a-1][b-1]

    def cell(self, a: int, b: int) -> FactCell:
        return self.rows[a - 1][b - 1]

    @property
    def fluent_count(self) -> int:
        return sum(cell.fluent for row in self.rows for cell in row)

    def newly_fluent(self, *, since: datetime) -> list[tuple[int, int]]:
        """The facts that became fluent at ``since`` or later and still are,
        once each (7 + 8 and 8 + 7 are one fact, written small number first).
        Facts the pupil once got wrong *as a fact* come first (a difficulty
        overcome is the news), then the most recent. A forgotten carry is not
        the fact's error (``docs/learning.md``): before issue 47 a pupil who
        only forgot carries on 2 + 4 and 3 + 4 was told they were "newly
        mastered", first, and the truly overcome 7 + 8 fell off the page."""
        found: dict[tuple[int, int], tuple[bool, datetime]] = {}
        for row in self.rows:
            for cell in row:
                when = cell.fluent_since
                if when is None or when < since:
                    continue
                fact = (min(cell.a, cell.b), max(cell.a, cell.b))
                key = (cell.fact_errors > 0, when)
                if fact not in found or key > found[fact]:
                    found[fact] = key
        return sorted(found, key=lambda fact: (*found[fact], fact), reverse=True)


def _in_time_order(when: list[datetime], quick: list[bool]) -> tuple[list[datetime], list[bool]]:
    """The attempts in time order. Records usually come sorted (the selectors
    order them), so the sort is the rare path."""
    if any(when[i] > when[i + 1] for i in range(len(when) - 1)):
        order = sorted(range(len(when)), key=when.__getitem__)
        return [when[i] for i in order], [quick[i] for i in order]
    return when, quick


def _fluent_since(when: list[datetime], quick: list[bool]) -> datetime | None:
    """When the fact last became fluent, walking its attempts in time order:
    the attempt after which 2 of the last 3 were quick and right while before
    it they were not. ``None`` when the fact is not fluent now."""
    since = None
    fluent = False
    for i, at in enumerate(when):
        now = sum(quick[max(0, i + 1 - FLUENT_WINDOW) : i + 1]) >= FLUENT_NEEDED
        if now and not fluent:
            since = at
        fluent = now
    return since if fluent else None


def fluency_grid(*, plays: Iterable[Play]) -> FluencyGrid:
    """The 10 × 10 grid of the addition cards a + b (rows a, columns b).

    An attempt is an answered play of that card (timeouts are "no answer" and
    are left out, as in accuracy). A fact is **fluent** when at least 2 of its
    last 3 attempts were correct within 3 s. With fewer than 3 attempts the
    same rule applies to the attempts there are: 2 quick correct answers out of
    2 make a fact fluent, a single attempt never does.

    A forgotten carry (``carry_error``: 38 + 6 = 34) is not an attempt *of the
    fact* for fluency: the units were right, so it neither breaks nor delays
    the fact's fluency (``docs/learning.md``: a carry error never counts
    against a fact). It still counts in the cell's attempts and accuracy,
    which describe the card as played."""
    n = [0] * 100
    ok = [0] * 100
    times: list[list[int]] = [[] for _ in range(100)]
    # Per fact: the attempts' times and whether each was quick and correct,
    # as two parallel lists (no tuple per record); sorted only if needed.
    when: list[list[datetime]] = [[] for _ in range(100)]
    quick: list[list[bool]] = [[] for _ in range(100)]
    fact_wrong = [0] * 100
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
        elif carry_error(play):
            continue  # the carry's error, not the fact's: no fluency evidence
        else:
            fact_wrong[k] += 1
            quick[k].append(False)
        when[k].append(play.created_at)
    rows = []
    for i in range(10):
        row = []
        for j in range(10):
            k = i * 10 + j
            ordered_when, ordered_quick = _in_time_order(when[k], quick[k])
            results = tuple(ordered_quick[-FLUENT_WINDOW:])
            row.append(
                FactCell(
                    a=i + 1,
                    b=j + 1,
                    attempts=n[k],
                    correct=ok[k],
                    accuracy=pct(ok[k], n[k]),
                    median_compute_ms=median_int(times[k]),
                    fluent=sum(results) >= FLUENT_NEEDED,
                    last_results=results,
                    fluent_since=_fluent_since(ordered_when, ordered_quick)
                    if sum(results) >= FLUENT_NEEDED
                    else None,
                    fact_errors=fact_wrong[k],
                )
            )
        rows.append(tuple(row))
    return FluencyGrid(rows=tuple(rows))


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
        if play.card_kind != kind or not is_answer(play):
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
                accuracy=pct(ok.get((u, v), 0), n.get((u, v), 0)),
                crosses=_crosses(kind, u, v),
            )
            for v in values
        )
        for u in range(10)
    )
    return CarryGrid(kind=kind, values=values, rows=rows)


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
        return pct(getattr(self, kind), self.total)


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
