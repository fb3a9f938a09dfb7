"""Do targeted cards help a child learn faster? Simulated learners (issue 47, part 5).

``bench_focus.py`` counts how often a pupil *meets* its weak facts; this one asks
the question that matters: how many turns until the planted facts are
**fluent by the app's own rule** (``classroom.insights.grids``: 2 of the last 3
answers right within 3 s; a forgotten carry is no evidence on the fact).

The learner model (a model, not a child):

* every fact ``a + b`` (twins together) has its own logistic skill: the answer
  is right with probability ``sigmoid(theta)``; ``theta`` starts at
  ``KNOWN_THETA`` (95 % right) for known facts and around ``PLANTED_THETA``
  (12 % right, varying per learner) for the 4 planted facts, and rises by the
  learner's own ``rate`` (0.25 to 0.6) after every attempt on that fact,
  right or wrong (practice with the true total shown, as the game does);
* a right answer is quick (within 3 s) with probability ``sigmoid(theta - 1)``:
  a fact half known is right but slow;
* carrying is a separate skill, logistic as well, planted weak
  (``sigmoid(-1)``: 27 % of carries kept at first), rising with every addition
  that crosses a ten; a forgotten carry gives an answer ten too small.

Each learner plays solo practice games against two easy robots (the practice
screen's set-up) through the engine, once with ordinary decks and once with
targeted cards on the planted facts and crossing, with the same random
streams. The figure per condition: the learner's announcements until all 4
planted facts are fluent, mean with a 95 % confidence interval over the
learners (normal approximation; the cap counts as reached at the cap).

Run: ``.venv/bin/python benchmarks/bench_learning_gain.py [--learners N]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgames.engines.base import bot_seat_rng
from cardgames.engines.chasse import ENGINE, crossed_ten, total_after
from classroom.insights.grids import FLUENT_MS, FLUENT_NEEDED, FLUENT_WINDOW

PLANTED = ((7, 8), (6, 7), (4, 9), (3, 8))
KNOWN_THETA = 3.0
PLANTED_THETA = -2.0
CARRY_THETA = -1.0
CARRY_RATE = 0.05
MAX_TURNS = 4000
TARGET_RATIO = 0.5


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class Learner:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.rate = rng.uniform(0.25, 0.6)
        self.theta = {fact: PLANTED_THETA + rng.gauss(0, 0.5) for fact in PLANTED}
        self.carry = CARRY_THETA
        self.recent: dict[tuple[int, int], list[bool]] = {fact: [] for fact in PLANTED}

    def answer(self, before: int, card: dict[str, Any]) -> int:
        """The announced total; learns from the attempt and records the
        planted facts' evidence as the app's fluency rule reads it."""
        after = total_after(before, card)
        if card["kind"] != "add":
            return after if self.rng.random() < 0.95 else after + 1
        fact = (min(card["a"], card["b"]), max(card["a"], card["b"]))
        theta = self.theta.get(fact, KNOWN_THETA)
        right_fact = self.rng.random() < _sigmoid(theta)
        crossing = crossed_ten(before, card)
        carry_kept = not crossing or self.rng.random() < _sigmoid(self.carry)
        quick = right_fact and self.rng.random() < _sigmoid(theta - 1)
        if fact in self.theta:
            self.theta[fact] = theta + self.rate
            if right_fact and not carry_kept:
                pass  # a forgotten carry: no evidence on the fact (docs/learning.md)
            else:
                self.recent[fact] = [
                    *self.recent[fact][-(FLUENT_WINDOW - 1) :],
                    quick and carry_kept,
                ]
        if crossing:
            self.carry += CARRY_RATE
        if not right_fact:
            return after - 1 if after % 10 else after + 1
        return after if carry_kept else after - 10

    def fluent(self) -> bool:
        return all(sum(r) >= FLUENT_NEEDED for r in self.recent.values())


def turns_to_fluency(learner_seed: int, *, focus: bool) -> int:
    """Announcements until the planted facts are all fluent (capped)."""
    learner = Learner(random.Random(learner_seed))
    options: dict[str, Any] = {}
    if focus:
        options["focus"] = [{"seat": 0, "facts": [list(f) for f in PLANTED], "crossing": True}]
    medium = ENGINE.bot("medium")
    bots = [ENGINE.bot("easy"), ENGINE.bot("easy")]
    turns = 0
    for game in range(10_000):
        seed = learner_seed * 100_000 + game
        state = ENGINE.new_game(3, seed, options)
        rngs = [bot_seat_rng(seed, s) for s in range(3)]
        while not state.over:
            seat = state.current_seat
            view = ENGINE.view(state, seat)
            legal = ENGINE.legal_actions(state, seat)
            if seat == 0:
                action = medium(view, legal, rngs[0], [])
                if action is not None and action.get("announce") is not None:
                    card = next(c for c in view["hand"] if c["id"] == action["card"])
                    action = dict(action, announce=learner.answer(view["total"], card))
                    turns += 1
                    if learner.fluent() or turns >= MAX_TURNS:
                        return turns
            else:
                action = bots[seat - 1](view, legal, rngs[seat], [])
            ENGINE.apply(state, seat, action)
    return turns


def _interval(values: list[int]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=200)
    args = parser.parse_args()
    n = args.learners
    print(
        f"learning gain: {n} simulated learners, 4 planted facts "
        f"({', '.join(f'{a} + {b}' for a, b in PLANTED)}) and weak carries, solo practice "
        f"against 2 easy robots; fluent = {FLUENT_NEEDED} of the last {FLUENT_WINDOW} right "
        f"within {FLUENT_MS / 1000:.0f} s (the app's rule)"
    )
    results = {}
    for focus in (False, True):
        turns = [turns_to_fluency(seed, focus=focus) for seed in range(1, n + 1)]
        mean, low, high = _interval(turns)
        capped = sum(t >= MAX_TURNS for t in turns)
        results[focus] = mean
        print(
            f"{'targeted cards' if focus else 'ordinary decks'}: announcements until fluent "
            f"{mean:.0f} (95 % CI {low:.0f}-{high:.0f}), median {statistics.median(turns):.0f}"
            + (f", {capped} learners capped at {MAX_TURNS}" if capped else "")
        )
    ratio = results[True] / results[False]
    ok = ratio <= TARGET_RATIO
    print(
        f"targeted / ordinary: {ratio:.2f} (target: at most {TARGET_RATIO:.2f}): "
        f"{'met' if ok else 'MISSED'}"
    )
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
