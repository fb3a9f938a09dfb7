"""Synthetic pupils with planted weaknesses, playing real Chasse games.

The diagnosis (reports, "practise next", the live "needs help now" marks) is
tested on records such a pupil produces, not on hand-picked rows: the pupil
sits at seat 0 of an engine game against robots, chooses cards like the
medium robot (or, with ``lands_on_tens``, carelessly), and answers each
announcement according to its planted weaknesses. Every play goes through
the game's own ``learning_record`` (``cardgames.ui.get("chasse")``), the
function that writes the real records, so the fields (crossing, error kind, avoidable…) are the app's own.

Weaknesses:

* ``weak_facts``: ``{(7, 8): 1.0}`` — the probability of a wrong answer on
  that fact (either order of the card), wrong in the units;
* ``carry_forget``: the probability of forgetting the carry on an addition
  that crosses a ten (the answer is ten too small);
* ``borrow_forget``: the same for a somme that crosses a ten (ten too big);
* ``slip``: the probability of a wrong answer anywhere else;
* ``lands_on_tens``: plays the first card that lands on a ten when it can;
* ``compute_ms``: the usual calculation time; ``slow_from``: from that play
  of the pupil on, every answer takes ``slow_factor`` times as long.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from cardgames import ui
from cardgames.engines.base import bot_seat_rng
from cardgames.engines.chasse import ENGINE, crossed_ten, total_after

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)  # a Monday


@dataclass
class PupilModel:
    weak_facts: dict[tuple[int, int], float] = field(default_factory=dict)
    carry_forget: float = 0.0
    borrow_forget: float = 0.0
    slip: float = 0.02
    lands_on_tens: bool = False
    compute_ms: int = 2500
    slow_from: int | None = None
    slow_factor: float = 3.0

    def error(self, before: int, card: dict[str, Any], rng: random.Random) -> int | None:
        """The wrong total this pupil announces, or ``None`` for the right one."""
        after = total_after(before, card)
        if card["kind"] == "add":
            fact = (min(card["a"], card["b"]), max(card["a"], card["b"]))
            if rng.random() < self.weak_facts.get(fact, 0.0):
                units = after % 10
                return after - 1 if units else after + 1
            if crossed_ten(before, card) and rng.random() < self.carry_forget:
                return after - 10
        elif (
            card["kind"] == "sub"
            and crossed_ten(before, card)
            and rng.random() < self.borrow_forget
        ):
            return after + 10
        if rng.random() < self.slip:
            return after + rng.choice((-2, -1, 1, 2)) if after > 2 else after + 1
        return None


def _choose(
    model: PupilModel, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    if model.lands_on_tens and legal[0]["type"] == "play":
        cards = {c["id"]: c for c in view["hand"]}
        for action in legal:
            card = cards[action["card"]]
            if card["kind"] == "special":
                continue
            after = total_after(view["total"], card)
            if after % 10 == 0 and after < view["target"]:
                return {"type": "play", "card": action["card"], "announce": after}
    action = ENGINE.bot("medium")(view, legal, rng, [])
    assert action is not None
    return action


def play_games(
    model: PupilModel,
    *,
    games: int,
    seed: int = 0,
    robots: tuple[str, ...] = ("medium", "medium"),
    start: datetime = T0,
    options: dict[str, Any] | None = None,
) -> Iterator[dict[str, Any]]:
    """The learning-record fields of the pupil's plays (seat 0), game after
    game, with ``created_at`` 20 s apart and ``table_id``/``move_version``."""
    learning_record = ui.get("chasse").learning_record
    assert learning_record is not None
    rng = random.Random(seed)
    when = start
    turn = 0
    for game in range(games):
        players = 1 + len(robots)
        state = ENGINE.new_game(players, seed * 1000 + game, options or {})
        rngs = [bot_seat_rng(seed * 1000 + game, s) for s in range(players)]
        version = 0
        while not state.over and version < 5000:
            seat = state.current_seat
            view = ENGINE.view(state, seat)
            legal = ENGINE.legal_actions(state, seat)
            if seat == 0:
                action = _choose(model, view, legal, rngs[0])
                card = next(c for c in view["hand"] if c["id"] == action["card"])
                if action["type"] == "play" and action.get("announce") is not None:
                    wrong = model.error(view["total"], card, rng)
                    if wrong is not None:
                        action = dict(action, announce=wrong)
            else:
                action = ENGINE.bot(robots[seat - 1])(view, legal, rngs[seat], [])
                assert action is not None
            events = ENGINE.apply(state, seat, action)
            version += 1
            if seat != 0:
                continue
            slow = model.slow_from is not None and turn >= model.slow_from
            ms = int(
                model.compute_ms * (model.slow_factor if slow else 1.0) * rng.uniform(0.8, 1.2)
            )
            fields = learning_record(
                events=events,
                seat=0,
                view_before=view,
                timings={"think_ms": 1500, "compute_ms": ms},
                timed_out=False,
            )
            if fields is None:
                continue
            turn += 1
            when += timedelta(seconds=20)
            fields.update(table_id=seed * 1000 + game, move_version=version, created_at=when)
            yield fields
