"""Which cards to target for a pupil: the diagnosis of "practise next", acted on.

One function decides a pupil's weaknesses (:func:`~classroom.insights.practice.weaknesses`);
"practise next" shows its head, and :func:`pupil_focus` turns it into targeted
cards for the Chasse engine (its ``focus`` option): the weak facts that are not
fluent again yet, and crossing a ten when the carry is a weakness of its own.
So the report and the deck can never disagree about what a pupil needs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from classroom.insights.grids import FluencyGrid
from classroom.insights.practice import Weaknesses

# The engine takes up to 6; 4 keep the targeted cards a noticeable share of
# the hand (see ``benchmarks/bench_focus.py``, which plants 4 facts).
FOCUS_FACTS = 4


@dataclass(frozen=True, slots=True)
class PupilFocus:
    """The facts ``(a, b)`` (a ≤ b) and whether crossing a ten is targeted."""

    facts: tuple[tuple[int, int], ...] = ()
    crossing: bool = False

    def __bool__(self) -> bool:
        return bool(self.facts) or self.crossing

    def entry(self, *, seat: int) -> dict[str, Any]:
        """This focus as one entry of the engine's ``focus`` option."""
        return {"seat": seat, "facts": [list(f) for f in self.facts], "crossing": self.crossing}

    def as_json(self) -> dict[str, Any]:
        return {"facts": [list(f) for f in self.facts], "crossing": self.crossing}

    @classmethod
    def from_json(cls, data: Any) -> PupilFocus:
        """From ``as_json`` (a stored assignment); anything malformed is no focus."""
        if not isinstance(data, dict):
            return cls()
        facts: list[tuple[int, int]] = []
        for item in data.get("facts") or []:
            if (
                isinstance(item, (list, tuple))
                and len(item) == 2
                and all(isinstance(n, int) and 1 <= n <= 10 for n in item)
            ):
                a, b = item
                facts.append((min(a, b), max(a, b)))
        return cls(
            facts=tuple(dict.fromkeys(facts))[:FOCUS_FACTS], crossing=data.get("crossing") is True
        )

    def covers(self, card_kind: str, a: int | None, b: int | None) -> bool:
        """Whether a play of this card is one of the targeted facts."""
        if card_kind != "add" or a is None or b is None:
            return False
        return (min(a, b), max(a, b)) in self.facts


def pupil_focus(*, weaknesses: Weaknesses, grid: FluencyGrid | None = None) -> PupilFocus:
    """The cards to target: the weakest facts first (at most ``FOCUS_FACTS``),
    leaving out a fact that has become fluent again (2 of its last 3 answers
    right within 3 s: the pupil has caught up, whatever their history), and
    crossing a ten when ``carry`` is one of the weaknesses."""
    facts = [fact for fact in weaknesses.facts if grid is None or not grid.cell(*fact).fluent][
        :FOCUS_FACTS
    ]
    return PupilFocus(facts=tuple(facts), crossing=weaknesses.carry)
