"""Targeted cards never leak to the next seat (issue 47, parts 1 and 2).

Bug: a focused seat that drew an untargeted card took the *topmost* one, so the
targeted cards above it stayed on top for the next seat: at a lesson table a
classmate with nothing to target drew 49-55 % crossing additions, more than the
pupil they were meant for, against 40 % from an ordinary deck (and the robots
did not "draw normally"). Now the focused pick depends on the faces only, so the
rest of the pile stays a uniform shuffle and every other seat's top card is a
fair draw of what is left.

Two statistical checks, both seeded (Hypothesis derandomised, games numbered),
so they cannot flake:

* **exact, draw by draw**: each card a non-focused seat draws is a uniform pick
  of the pile it draws from. Over thousands of draws, the crossing cards and the
  targeted facts they get are compared with the share each pile held (a
  martingale z-score; the old pick gave z > 20);
* **against an ordinary deck**: the share of crossing cards and of targeted
  facts among the additions the other seats draw, over 2,000 games, stays
  within the stated tolerance of an ordinary deck's. The tolerance is one-sided
  upwards at 0.5 point (the leak's direction) and 2.5 points downwards: the
  focused seat holds more of its targeted cards, which are then out of the
  pile for the round, as any card in a hand is (measured: 39.0 % crossing
  instead of 39.9 %, 6.7 % instead of 8.0 % for 4 facts).

And the carries: with crossing targeted, crossing cards are at least 55 % of
the additions the focused seat draws (60 % aimed at; 46-51 % before).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgames.engines import chasse
from cardgames.engines.chasse import CARD_TYPES, ENGINE, FACES, ChasseState

from .chasse_referee import check_hands

E = ENGINE
PLANTED = [[7, 8], [6, 7], [4, 9], [3, 8]]


def _crossing(card: int) -> bool:
    kind, _, _, value, _ = FACES[card % CARD_TYPES]
    return kind == chasse.ADD and value % 10 >= chasse.FOCUS_CROSSING_UNITS


def _fact_test(facts: list[list[int]]) -> Callable[[int], bool]:
    wanted = {(min(a, b), max(a, b)) for a, b in facts}

    def is_fact(card: int) -> bool:
        kind, a, b, _, _ = FACES[card % CARD_TYPES]
        return (
            kind == chasse.ADD
            and a is not None
            and b is not None
            and (min(a, b), max(a, b)) in wanted
        )

    return is_fact


def _play_random(state: ChasseState, rng: random.Random, steps: int = 600) -> None:
    """Random legal plays, right announcements (the dealing is what is tested)."""
    for _ in range(steps):
        if state.over:
            return
        seat = state.current_seat
        action = dict(rng.choice(E.legal_actions(state, seat)))
        if action.get("announce") == "int":
            action["announce"] = state.total + chasse.DELTA[action["card"] % CARD_TYPES]
        E.apply(state, seat, action)


class _DrawWatch:
    """Wraps the engine's ``_take``: for every card a non-focused seat draws,
    the share of crossing cards and of targeted facts in the pile it drew from,
    and what it got."""

    def __init__(self, focused: set[int], is_fact: Callable[[int], bool]) -> None:
        self.focused = focused
        self.is_fact = is_fact
        self.expected = [0.0, 0.0]
        self.variance = [0.0, 0.0]
        self.got = [0, 0]
        self.draws = 0
        self.take = chasse._take

    def __call__(self, state: ChasseState, seat: int) -> int:
        if seat in self.focused:
            return self.take(state, seat)
        pile = state.draw_pile
        shares = (
            sum(map(_crossing, pile)) / len(pile),
            sum(map(self.is_fact, pile)) / len(pile),
        )
        card = self.take(state, seat)
        for i, (share, hit) in enumerate(
            zip(shares, (_crossing(card), self.is_fact(card)), strict=True)
        ):
            self.expected[i] += share
            self.variance[i] += share * (1 - share)
            self.got[i] += hit
        self.draws += 1
        return card

    def z(self, i: int) -> float:
        return (self.got[i] - self.expected[i]) / math.sqrt(max(self.variance[i], 1e-9))


@st.composite
def _tables(draw: st.DrawFn) -> tuple[int, list[dict[str, Any]], int]:
    players = draw(st.integers(3, 6))
    seats = draw(
        st.lists(st.integers(0, players - 1), min_size=1, max_size=players - 1, unique=True)
    )
    facts = draw(
        st.lists(st.sampled_from([*PLANTED, [9, 9], [2, 5], [6, 6]]), max_size=4, unique_by=tuple)
    )
    crossing = draw(st.booleans()) or not facts
    strength = draw(st.integers(chasse.FOCUS_MIN_STRENGTH, chasse.FOCUS_MAX_STRENGTH))
    focus = [{"seat": s, "facts": facts, "crossing": crossing, "strength": strength} for s in seats]
    return players, focus, draw(st.integers(0, 10**6))


@settings(
    max_examples=8, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(table=_tables())
def test_property_every_other_seat_draws_a_fair_card_of_the_pile(
    table: tuple[int, list[dict[str, Any]], int],
) -> None:
    players, focus, base = table
    watch = _DrawWatch({e["seat"] for e in focus}, _fact_test(focus[0]["facts"]))
    with mock.patch.object(chasse, "_take", watch):
        for game in range(150):
            state = E.new_game(players, base + game, {"focus": focus})
            _play_random(state, random.Random(base + game))
    assert watch.draws > 3000
    for i in (0, 1):
        assert abs(watch.z(i)) < 4.5, (i, watch.got[i], watch.expected[i], watch.z(i))


def _drawn_additions(
    players: int, focus: list[dict[str, Any]] | None, games: int
) -> list[list[int]]:
    """Per seat: [additions drawn, crossing ones, targeted-fact ones], over
    ``games`` seeded games of random legal plays (a card is drawn when it
    enters a hand: the deal and every draw)."""
    is_fact = _fact_test(PLANTED)
    counts = [[0, 0, 0] for _ in range(players)]
    for game in range(games):
        state = E.new_game(players, game, {"focus": focus} if focus else {})
        rng = random.Random(game)
        seen: list[set[int]] = [set() for _ in range(players)]
        for _ in range(600):
            for seat in range(players):
                hand = set(state.hands[seat])
                for card in hand - seen[seat]:
                    if FACES[card % CARD_TYPES][0] == chasse.ADD:
                        counts[seat][0] += 1
                        counts[seat][1] += _crossing(card)
                        counts[seat][2] += is_fact(card)
                seen[seat] = hand
            if state.over:
                break
            _play_random(state, rng, steps=1)
    return counts


def test_other_seats_draw_as_from_an_ordinary_deck_and_the_focused_seat_gets_its_carries() -> None:
    focus = [{"seat": 0, "facts": PLANTED, "crossing": True}]
    ordinary = _drawn_additions(4, None, 2000)
    focused = _drawn_additions(4, focus, 2000)

    def share(rows: list[list[int]], column: int) -> float:
        return sum(r[column] for r in rows) / sum(r[0] for r in rows)

    for column in (1, 2):  # crossing cards, targeted facts
        base = share(ordinary[1:], column)
        others = share(focused[1:], column)
        assert base - 0.025 <= others <= base + 0.005, (column, base, others)
    # The focused seat: crossing cards are at least 55 % of its additions.
    assert share(focused[:1], 1) >= 0.55


def test_with_crossing_alone_the_focused_seat_gets_60_percent_crossing_cards() -> None:
    counts = _drawn_additions(3, [{"seat": 1, "facts": [], "crossing": True}], 600)
    crossing = counts[1][1] / counts[1][0]
    assert 0.58 <= crossing <= 0.62, crossing  # 56 % with the fixed weight 2


def test_crossing_weight_makes_the_aimed_share_within_its_bounds() -> None:
    # full pile: 40 crossing cards, 60 other additions, no facts
    weight = chasse._crossing_weight(40, 60, 0, 0)
    assert math.isclose(40 * weight / (40 * weight + 60), chasse.FOCUS_CROSSING_SHARE)
    assert chasse._crossing_weight(40, 0, 0, 0) == chasse.FOCUS_CROSSING_WEIGHT
    assert chasse._crossing_weight(1, 60, 0, 0) == chasse.FOCUS_MAX_STRENGTH


def test_a_focused_game_saved_before_issue_47_loads_and_plays_on() -> None:
    """A state saved by the engine before this change (mid-round, focus with
    crossing) loads, plays to the end with every hand checked, and survives
    JSON again."""
    data = json.loads((Path(__file__).parent / "chasse_focus_state_issue47.json").read_text())
    state = E.from_json(data)
    check_hands(state)
    rng = random.Random(47)
    for _ in range(3000):
        if state.over:
            break
        _play_random(state, rng, steps=1)
        check_hands(state)
    assert state.over
    again = E.from_json(json.loads(json.dumps(E.to_json(state))))
    assert E.to_json(again) == E.to_json(state)
