"""Purrfect: one test per rule of ``docs/rules/purrfect.md``, then the seven
properties of ``docs/engine-contract.md`` (Hypothesis) for every player count, and a
state machine that interleaves legal and illegal actions from every seat."""

from __future__ import annotations

import ast
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from cardgames.engines import purrfect
from cardgames.engines.base import BOT_LEVELS, IllegalAction, play_bots, shared_win
from cardgames.engines.purrfect import (
    CAT_NAMES,
    ENGINE,
    MEOWS,
    NUMBER_CARDS,
    POSES,
    Offer,
    PurrfectState,
    card_cat,
)
from tests.cardgames.engines import properties

PLAYER_COUNTS = range(ENGINE.min_players, ENGINE.max_players + 1)
# Keys under which a card id may appear in a view or an event; any other key
# holding cards would be a leak the structural check below could miss.
CARD_KEYS = frozenset({"hand", "cards", "locked", "gave"})
KNOWN_KEYS = CARD_KEYS | {
    "type", "to", "game", "players", "current_seat", "over", "round", "cats", "cat", "name",
    "meows", "count", "meow", "langs", "offers", "id", "seat", "paws", "paws_to_win",
    "hand_counts", "round_actions", "round_actions_limit", "winners", "hand_cats", "own_offer",
    "can_claim", "offer", "seats", "from", "claimant", "stalled", "best_counts", "paws_gained",
    "ranking",
}  # fmt: skip
SETTINGS = properties.property_settings(12)


# --------------------------------------------------------------------------- #
# Helpers
# --------------------------------------------------------------------------- #


def game(players: int = 4, seed: int = 1, **options: Any) -> PurrfectState:
    return ENGINE.new_game(players, seed, options)


def set_hands(state: PurrfectState, cats_by_seat: list[list[int]]) -> None:
    """Deal by hand: each seat's cats, turned into concrete ids (lowest pose first)."""
    next_pose: dict[int, int] = {}
    hands = []
    for cats in cats_by_seat:
        hand = []
        for cat in cats:
            pose = next_pose.get(cat, 0)
            next_pose[cat] = pose + 1
            hand.append(cat * POSES + pose)
        hands.append(sorted(hand))
    assert all(count == POSES for count in next_pose.values())
    state.cats = sorted(next_pose)
    state.hands = hands
    state.offers = []


def cards_of(state: PurrfectState, seat: int, cat: int, count: int) -> list[int]:
    return [card for card in state.hands[seat] if card_cat(card) == cat][:count]


def refused(state: PurrfectState, seat: Any, action: Any) -> str:
    return properties.refused(ENGINE, state, seat, action)


def card_ids(data: Any) -> list[int]:
    """Every card id found structurally (under a card key) in a JSON value."""
    found: list[int] = []
    stack: list[tuple[Any, bool]] = [(data, False)]
    while stack:
        value, is_card = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                assert key in KNOWN_KEYS, f"unexpected key {key!r}"
                if isinstance(item, (dict, list)) or key in CARD_KEYS:
                    stack.append((item, key in CARD_KEYS))
        elif isinstance(value, list):
            stack.extend((item, is_card) for item in value)
        elif is_card:
            assert isinstance(value, int) and not isinstance(value, bool)
            found.append(value)
    return found


def deck(state: PurrfectState) -> list[int]:
    return sorted(cat * POSES + pose for cat in state.cats for pose in range(POSES))


def check_conservation(state: PurrfectState) -> None:
    assert all(len(hand) == 9 for hand in state.hands)
    assert sorted(card for hand in state.hands for card in hand) == deck(state)
    seats = [offer.seat for offer in state.offers]
    assert len(seats) == len(set(seats))
    for offer in state.offers:
        assert 1 <= len(offer.cards) <= 4
        assert set(offer.cards) <= set(state.hands[offer.seat])
        assert len({card_cat(card) for card in offer.cards}) == 1


class Tracker:
    """Plays a game and remembers, per round, every card each seat has held:
    the only ids a seat may ever see in its view or history."""

    def __init__(self, players: int, seed: int, **options: Any) -> None:
        self.state = game(players, seed, **options)
        self.held: dict[int, list[set[int]]] = {}
        self.checked: dict[int | None, int] = {}
        self.rounds = [0] * players
        self.note()

    def note(self) -> None:
        held = self.held.setdefault(self.state.round, [set() for _ in self.state.hands])
        for seat, hand in enumerate(self.state.hands):
            held[seat] |= set(hand)

    def apply(self, seat: Any, action: Any) -> list[dict[str, Any]]:
        state = self.state
        held = self.held[state.round]
        offer = None
        if isinstance(action, dict) and action.get("type") == "accept":
            offer = state.find_offer(action.get("offer"))  # type: ignore[arg-type]
            offer = None if offer is None else Offer(offer.id, offer.seat, list(offer.cards))
        events = ENGINE.apply(state, seat, action)
        if offer is not None:
            # A trade that ends the round is re-dealt at once: what it brought
            # still counts as held in the round it happened.
            held[seat] |= set(offer.cards)
            held[offer.seat] |= set(action["cards"])
        self.note()
        return events

    def check_no_leak(self) -> None:
        """The views in full; the histories from where the last check stopped,
        since the log only grows and what a seat held in a round only grows."""
        state = self.state
        assert not card_ids(ENGINE.view(state, None))
        public = ENGINE.history(state, None)
        assert not card_ids(public[self.checked.get(None, 0) :])
        self.checked[None] = len(public)
        for seat in range(state.players):
            view = ENGINE.view(state, seat)
            json.dumps(view)
            assert set(card_ids(view)) <= set(state.hands[seat])
            for offer in view["offers"]:
                assert set(offer) == {"id", "seat", "meow"}
            history = ENGINE.history(state, seat)
            start = self.checked.get(seat, 0)
            for event in history[start:]:
                if event["type"] == "round_started":
                    self.rounds[seat] = event["round"]
                held = self.held[self.rounds[seat]][seat] if self.rounds[seat] else set()
                assert set(card_ids(event)) <= held
            self.checked[seat] = len(history)


def random_walk(tracker: Tracker, rng: random.Random, steps: int) -> None:
    """Random legal actions from random seats, some with non-canonical ids."""
    for _ in range(steps):
        if ENGINE.is_over(tracker.state):
            return
        seat = rng.randrange(tracker.state.players)
        legal = ENGINE.legal_actions(tracker.state, seat)
        tracker.apply(seat, scramble(tracker.state, seat, rng.choice(legal), rng))


def scramble(state: PurrfectState, seat: int, action: dict[str, Any], rng: random.Random) -> Any:
    """The same move with other, equally valid card ids."""
    if action["type"] not in ("offer", "accept"):
        return action
    cat = card_cat(action["cards"][0])
    own = state.offer_of(seat)
    locked = set(own.cards) if own else set()
    free = [c for c in state.hands[seat] if card_cat(c) == cat and c not in locked]
    return {**action, "cards": rng.sample(free, len(action["cards"]))}


# --------------------------------------------------------------------------- #
# Material and setup
# --------------------------------------------------------------------------- #


def test_material_seven_cats_of_nine_poses_with_house_names_and_distinct_initials() -> None:
    assert CAT_NAMES == (
        "Anchois", "Biscotte", "Caramel", "Domino", "Esquimau", "Filou", "Grisou",
    )  # fmt: skip
    assert len({name[0] for name in CAT_NAMES}) == 7
    assert len(purrfect.CARD_IDS) == 63
    assert [card_cat(card) for card in purrfect.CARD_IDS] == [c for c in range(7) for _ in range(9)]


def test_material_four_number_cards_and_29_meows_with_language_codes() -> None:
    assert NUMBER_CARDS == (1, 2, 3, 4)
    assert len(MEOWS) == 29
    assert len({word.casefold() for word, _ in MEOWS}) == 29
    for word, langs in MEOWS:
        assert word and langs
        assert all(len(lang) == 2 and lang.isalpha() and lang.islower() for lang in langs)
    assert ("Miaou", ("fr",)) in MEOWS and ("Meow", ("en",)) in MEOWS


def test_house_rule_paw_prints_have_no_limit_of_fourteen() -> None:
    state = game(paws_to_win=15)
    set_hands(state, [[0] * 9, [1] * 9, [2] * 9, [3] * 9])
    state.paws = [14, 0, 0, 0]
    ENGINE.apply(state, 1, {"type": "claim"})
    assert state.paws[0] == 15 and state.over and state.winners == [0]


def test_setup_meow_mapping_for_counts_one_to_four_is_public() -> None:
    state = game(seed=8)
    public = ENGINE.view(state, None)["meows"]
    assert [entry["count"] for entry in public] == [1, 2, 3, 4]
    assert len({entry["meow"] for entry in public}) == 4
    assert all({"meow", "langs", "count"} == set(entry) for entry in public)
    started = [e for e in ENGINE.history(state, None) if e["type"] == "round_started"]
    assert started[0]["meows"] == public


@pytest.mark.parametrize("redraw", [False, True])
def test_option_new_meows_each_round(redraw: bool) -> None:
    mappings = set()
    for seed in range(6):
        state = game(seed=seed, new_meows_each_round=redraw)
        first = json.dumps(ENGINE.view(state, None)["meows"])
        set_hands(state, [[0] * 9, [1] * 9, [2] * 9, [3] * 9])
        ENGINE.apply(state, 0, {"type": "claim"})
        second = ENGINE.view(state, None)["meows"]
        announced = [e for e in state.log if e["type"] == "round_started"][-1]["meows"]
        assert announced == second
        mappings.add(first != json.dumps(second))
    assert mappings == {redraw}


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_one_cat_per_player_and_nine_cards_dealt_to_each(players: int) -> None:
    state = game(players, seed=players)
    assert len(state.cats) == players == len(set(state.cats))
    check_conservation(state)
    dealt = [e for e in state.log if e["type"] == "hand_dealt"]
    assert [e["to"] for e in dealt] == [[seat] for seat in range(players)]
    assert [e["cards"] for e in dealt] == state.hands


def test_setup_refuses_bad_player_counts_and_options() -> None:
    for players in (3, 8):
        with pytest.raises(ValueError):
            ENGINE.new_game(players, 1)
    for bad in ({"round_actions": 99}, {"round_actions": 2001}, {"paws_to_win": 0}):
        with pytest.raises(ValueError):
            ENGINE.validate_options(bad)
    assert ENGINE.default_options() == {
        "paws_to_win": 5,
        "round_actions": 400,
        "new_meows_each_round": False,
    }


# --------------------------------------------------------------------------- #
# Offering
# --------------------------------------------------------------------------- #


def test_rule_offer_holds_one_to_four_cards() -> None:
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    assert refused(state, 0, {"type": "offer", "cards": []}) == "malformed"
    assert refused(state, 0, {"type": "offer", "cards": cards_of(state, 0, 0, 5)}) == "malformed"
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 0, 4)})
    assert len(state.offers[0].cards) == 4


def test_rule_offered_cards_must_show_the_same_cat() -> None:
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    mixed = cards_of(state, 0, 0, 1) + cards_of(state, 0, 1, 1)
    assert refused(state, 0, {"type": "offer", "cards": mixed}) == "not_same_cat"


def test_rule_offer_uses_cards_from_own_hand() -> None:
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    assert refused(state, 0, {"type": "offer", "cards": cards_of(state, 1, 2, 1)}) == (
        "card_not_in_hand"
    )


def test_rule_offer_is_announced_by_its_meow_only() -> None:
    state = game(seed=4)
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    events = ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 1, 3)})
    meow = ENGINE.view(state, None)["meows"][2]["meow"]
    assert events == [{"type": "offer_made", "offer": 1, "seat": 0, "meow": meow}]
    for seat in (None, 1, 2, 3):
        assert ENGINE.view(state, seat)["offers"] == [{"id": 1, "seat": 0, "meow": meow}]


def test_house_rule_one_open_offer_per_seat() -> None:
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 1, 1)})
    assert refused(state, 0, {"type": "offer", "cards": cards_of(state, 0, 0, 1)}) == (
        "offer_already_open"
    )
    assert not [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "offer"]


def test_house_rule_offered_cards_are_locked() -> None:
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    ENGINE.apply(state, 1, {"type": "offer", "cards": cards_of(state, 1, 2, 2)})
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 1, 3)})
    locked = cards_of(state, 0, 1, 2)
    assert ENGINE.view(state, 0)["locked"] == cards_of(state, 0, 1, 3)
    assert refused(state, 0, {"type": "accept", "offer": 1, "cards": locked}) == "card_locked"
    paying = [a["cards"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "accept"]
    assert paying == [cards_of(state, 0, 0, 2)]


def test_rule_offer_can_be_withdrawn_until_accepted() -> None:
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    assert refused(state, 0, {"type": "withdraw"}) == "no_open_offer"
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 1, 1)})
    events = ENGINE.apply(state, 0, {"type": "withdraw"})
    assert events == [{"type": "offer_withdrawn", "offer": 1, "seat": 0}]
    assert refused(state, 1, {"type": "accept", "offer": 1, "cards": cards_of(state, 1, 2, 1)}) == (
        "offer_withdrawn"
    )
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 1, 1)})
    ENGINE.apply(state, 1, {"type": "accept", "offer": 2, "cards": cards_of(state, 1, 2, 1)})
    assert refused(state, 0, {"type": "withdraw"}) == "no_open_offer"


# --------------------------------------------------------------------------- #
# Accepting
# --------------------------------------------------------------------------- #


def test_rule_accept_gives_the_same_count_all_of_one_cat() -> None:
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 1, 2)})
    three = cards_of(state, 1, 2, 3)
    mixed = cards_of(state, 1, 1, 1) + cards_of(state, 1, 2, 1)
    assert refused(state, 1, {"type": "accept", "offer": 1, "cards": three}) == "wrong_count"
    assert refused(state, 1, {"type": "accept", "offer": 1, "cards": mixed}) == "not_same_cat"
    theirs = cards_of(state, 2, 2, 2)
    assert refused(state, 1, {"type": "accept", "offer": 1, "cards": theirs}) == "card_not_in_hand"
    ENGINE.apply(state, 1, {"type": "accept", "offer": 1, "cards": cards_of(state, 1, 2, 2)})


def test_rule_only_another_player_may_accept_an_offer() -> None:
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 1, 1)})
    assert refused(state, 0, {"type": "accept", "offer": 1, "cards": cards_of(state, 0, 0, 1)}) == (
        "own_offer"
    )


def test_rule_first_acceptance_wins_and_the_second_raises_offer_taken() -> None:
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 1, 2)})
    first = {"type": "accept", "offer": 1, "cards": cards_of(state, 1, 2, 2)}
    second = {"type": "accept", "offer": 1, "cards": cards_of(state, 2, 3, 2)}
    ENGINE.apply(state, 1, first)
    assert refused(state, 2, second) == "offer_taken"
    assert cards_of(state, 0, 2, 9) == first["cards"]


def test_rule_swap_is_immediate_and_each_side_learns_only_what_it_receives() -> None:
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    offered = cards_of(state, 0, 1, 3)
    paid = cards_of(state, 1, 2, 3)
    ENGINE.apply(state, 0, {"type": "offer", "cards": offered})
    events = ENGINE.apply(state, 1, {"type": "accept", "offer": 1, "cards": paid})
    assert events[0] == {"type": "trade_done", "offer": 1, "seats": [0, 1], "count": 3}
    assert events[1] == {
        "type": "cards_received", "to": [0], "offer": 1, "from": 1, "cards": paid, "gave": offered,
    }  # fmt: skip
    assert events[2] == {
        "type": "cards_received", "to": [1], "offer": 1, "from": 0, "cards": offered, "gave": paid,
    }  # fmt: skip
    assert set(paid) <= set(state.hands[0]) and set(offered) <= set(state.hands[1])
    for seat in (None, 2, 3):
        assert ENGINE.history(state, seat)[-1]["type"] == "trade_done"
    check_conservation(state)


def test_rule_every_hand_always_has_nine_cards() -> None:
    tracker = Tracker(5, seed=11)
    rng = random.Random(3)
    for _ in range(200):
        random_walk(tracker, rng, 1)
        assert ENGINE.view(tracker.state, None)["hand_counts"] == [9] * 5


# --------------------------------------------------------------------------- #
# Declaring, stalling, scoring
# --------------------------------------------------------------------------- #


def test_rule_purrfect_claim_ends_the_round_at_once() -> None:
    state = game()
    set_hands(state, [[0] * 9, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [1] * 4])
    ENGINE.apply(state, 1, {"type": "offer", "cards": cards_of(state, 1, 2, 1)})
    events = ENGINE.apply(state, 0, {"type": "claim"})
    kinds = [e["type"] for e in events]
    assert kinds[:3] == ["claim_succeeded", "round_over", "round_started"]
    assert events[0] == {"type": "claim_succeeded", "seat": 0, "cat": 0}
    assert events[1]["claimant"] == 0 and not events[1]["stalled"]
    assert state.round == 2 and state.offers == []


def test_rule_mistaken_claim_is_shown_and_the_player_plays_on() -> None:
    state = game()
    set_hands(state, [[0] * 8 + [1], [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [1] * 3 + [0]])
    hand = list(state.hands[0])
    events = ENGINE.apply(state, 0, {"type": "claim"})
    assert events == [{"type": "claim_failed", "seat": 0}]
    assert state.hands[0] == hand and state.round == 1
    assert ENGINE.legal_actions(state, 0)[0]["type"] == "offer"


def test_house_rule_no_second_claim_until_the_hand_has_changed() -> None:
    state = game()
    set_hands(state, [[0] * 8 + [1], [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [1] * 3 + [0]])
    ENGINE.apply(state, 0, {"type": "claim"})
    assert refused(state, 0, {"type": "claim"}) == "claim_blocked"
    assert {"type": "claim"} not in ENGINE.legal_actions(state, 0)
    assert not ENGINE.view(state, 0)["can_claim"]
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 1, 1)})
    ENGINE.apply(state, 0, {"type": "withdraw"})
    assert refused(state, 0, {"type": "claim"}) == "claim_blocked"  # offering changes no hand
    ENGINE.apply(state, 3, {"type": "offer", "cards": cards_of(state, 3, 0, 1)})
    ENGINE.apply(state, 0, {"type": "accept", "offer": 2, "cards": cards_of(state, 0, 1, 1)})
    assert ENGINE.view(state, 0)["can_claim"]
    events = ENGINE.apply(state, 0, {"type": "claim"})
    assert events[0]["type"] == "claim_succeeded"


def test_house_rule_round_actions_ends_a_stalled_round_without_claimant() -> None:
    state = game(round_actions=100)
    set_hands(
        state, [[0] * 6 + [1] * 3, [1] * 6 + [2] * 3, [2] * 5 + [3] * 4, [3] * 5 + [0] * 3 + [2]]
    )
    state.round_action_count = 98
    ENGINE.apply(state, 0, {"type": "claim"})  # a failed claim counts as an action
    assert state.round == 1 and state.round_action_count == 99
    events = ENGINE.apply(state, 2, {"type": "offer", "cards": cards_of(state, 2, 3, 1)})
    over = events[1]
    assert over["type"] == "round_over" and over["stalled"] and over["claimant"] is None
    # Everyone is scored by their best count: seats 0 and 1 tie with six.
    assert over["best_counts"] == [6, 6, 5, 5] and over["paws_gained"] == [1, 1, 0, 0]
    assert state.round == 2 and state.round_action_count == 0


def test_option_round_actions_default_range_and_count() -> None:
    spec = {s["key"]: s for s in ENGINE.option_schema()}["round_actions"]
    assert (spec["default"], spec["min"], spec["max"]) == (400, 100, 2000)
    tracker = Tracker(4, seed=2, round_actions=100)
    random_walk(tracker, random.Random(1), 100)
    rounds = [e for e in tracker.state.log if e["type"] == "round_over"]
    assert rounds and (rounds[0]["stalled"] or rounds[0]["claimant"] is not None)


def test_rule_scoring_claimant_two_paws_best_other_one() -> None:
    state = game()
    set_hands(state, [[0] * 9, [1] * 7 + [2] * 2, [2] * 6 + [1] * 2 + [3], [3] * 8 + [2]])
    events = ENGINE.apply(state, 0, {"type": "claim"})
    over = events[1]
    assert over["best_counts"] == [9, 7, 6, 8]
    assert over["paws_gained"] == [2, 0, 0, 1] and over["paws"] == [2, 0, 0, 1]


# Claimant 0 has nine; seats 1, 2 and 3 each have seven of their cat.
TRIPLE_TIE = [[0] * 9, [1] * 7 + [3, 2], [2] * 7 + [3, 1], [3] * 7 + [1, 2]]


def test_rule_scoring_tied_players_each_get_one_paw() -> None:
    state = game()
    set_hands(state, TRIPLE_TIE)
    events = ENGINE.apply(state, 0, {"type": "claim"})
    assert events[1]["best_counts"] == [9, 7, 7, 7]
    assert events[1]["paws_gained"] == [2, 1, 1, 1]


def test_rule_next_round_shuffles_and_deals_all_cat_cards_again() -> None:
    state = game(seed=5)
    cats = list(state.cats)
    set_hands(state, [[c] * 9 for c in cats])
    ENGINE.apply(state, 1, {"type": "offer", "cards": state.hands[1][:1]})
    ENGINE.apply(state, 0, {"type": "claim"})
    assert state.round == 2 and state.cats == cats
    check_conservation(state)
    assert any(len({card_cat(c) for c in hand}) > 1 for hand in state.hands)
    dealt = [e for e in state.log if e["type"] == "hand_dealt" and e["round"] == 2]
    assert [e["cards"] for e in dealt] == state.hands
    assert refused(state, 2, {"type": "accept", "offer": 1, "cards": state.hands[2][:1]}) == (
        "offer_closed"
    )


def test_option_paws_to_win_first_to_reach_it_wins() -> None:
    spec = {s["key"]: s for s in ENGINE.option_schema()}["paws_to_win"]
    assert spec["default"] == 5
    state = game(paws_to_win=3)
    set_hands(state, [[0] * 9, [1] * 7 + [2] * 2, [2] * 6 + [1] * 2 + [3], [3] * 8 + [2]])
    state.paws = [1, 2, 2, 1]
    events = ENGINE.apply(state, 0, {"type": "claim"})
    assert events[-1] == {
        "type": "game_over", "winners": [0], "paws": [3, 2, 2, 2], "ranking": [0, 1, 2, 3],
    }  # fmt: skip
    assert ENGINE.is_over(state)
    assert ENGINE.result(state) == {
        "winners": [0],
        "ranking": [0, 1, 2, 3],
        "scores": [3, 2, 2, 2],
    }


def test_end_rule_a_single_player_reaching_the_target_wins_even_without_claiming() -> None:
    state = game()
    set_hands(state, [[0] * 9, [1] * 7 + [2] * 2, [2] * 6 + [1] * 2 + [3], [3] * 8 + [2]])
    state.paws = [0, 0, 0, 4]
    ENGINE.apply(state, 0, {"type": "claim"})
    assert state.over and state.winners == [3]
    assert ENGINE.result(state)["ranking"] == [3, 0, 1, 2]


def test_german_rule_claimant_wins_when_several_reach_the_target_even_below_it() -> None:
    state = game()
    set_hands(state, TRIPLE_TIE)
    state.paws = [1, 4, 4, 0]
    ENGINE.apply(state, 0, {"type": "claim"})
    assert state.paws == [3, 5, 5, 1]
    assert state.over and state.winners == [0]
    assert ENGINE.result(state)["ranking"] == [0, 1, 2, 3]


def test_house_rule_several_reach_the_target_without_claimant_share_the_win() -> None:
    state = game(round_actions=100)
    set_hands(
        state, [[0] * 6 + [1] * 3, [1] * 6 + [2] * 3, [2] * 5 + [3] * 4, [3] * 5 + [0] * 3 + [2]]
    )
    state.paws = [4, 4, 3, 4]
    state.round_action_count = 99
    events = ENGINE.apply(state, 0, {"type": "claim"})
    assert [e["type"] for e in events] == ["claim_failed", "round_over", "game_over"]
    assert state.winners == [0, 1]
    assert shared_win(ENGINE.result(state), 4) == [0.5, 0.5, 0.0, 0.0]


def test_game_over_refuses_every_action() -> None:
    state = game(paws_to_win=1)
    set_hands(state, [[0] * 9, [1] * 9, [2] * 9, [3] * 9])
    ENGINE.apply(state, 0, {"type": "claim"})
    assert state.over
    assert refused(state, 1, {"type": "claim"}) == "game_over"
    assert refused(state, 1, {"type": "withdraw"}) == "game_over"
    assert all(ENGINE.legal_actions(state, seat) == [] for seat in range(4))
    assert ENGINE.view(state, 2)["over"] and not ENGINE.view(state, 2)["can_claim"]


# --------------------------------------------------------------------------- #
# Contract details: legal actions, views, malformed input
# --------------------------------------------------------------------------- #


def test_legal_actions_are_canonical_for_any_seat_at_any_time() -> None:
    assert ENGINE.simultaneous
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    legal = ENGINE.legal_actions(state, 2)
    offers = [(card_cat(a["cards"][0]), len(a["cards"])) for a in legal if a["type"] == "offer"]
    assert offers == [(2, 1), (2, 2), (2, 3), (2, 4), (3, 1), (3, 2), (3, 3), (3, 4)]
    assert legal[0]["cards"] == cards_of(state, 2, 2, 1) == [min(state.hands[2])]
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 0, 3)})
    ENGINE.apply(state, 1, {"type": "offer", "cards": cards_of(state, 1, 1, 4)})
    for seat in range(4):
        legal = ENGINE.legal_actions(state, seat)
        assert legal, "every seat may act at once"
        accepts = {(a["offer"], card_cat(a["cards"][0])) for a in legal if a["type"] == "accept"}
        assert len(accepts) == len([a for a in legal if a["type"] == "accept"])
    accepts = [(a["offer"], card_cat(a["cards"][0])) for a in ENGINE.legal_actions(state, 2) if a["type"] == "accept"]  # fmt: skip
    assert accepts == [(1, 2), (1, 3), (2, 2), (2, 3)]
    own = ENGINE.legal_actions(state, 0)
    assert {"type": "withdraw"} in own and {"type": "claim"} in own
    assert [a for a in own if a["type"] == "accept"] == [
        {"type": "accept", "offer": 2, "cards": cards_of(state, 0, 1, 4)}
    ]
    assert ENGINE.legal_actions(state, 9) == [] and ENGINE.legal_actions(state, -1) == []


def test_apply_accepts_any_valid_ids_not_only_the_canonical_ones() -> None:
    state = game()
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 0, 5)[-2:][::-1]})
    ENGINE.apply(state, 1, {"type": "accept", "offer": 1, "cards": cards_of(state, 1, 1, 5)[2:4]})
    check_conservation(state)


def test_view_holds_what_the_seat_may_know_and_nothing_else() -> None:
    state = game(seed=3)
    set_hands(state, [[0] * 5 + [1] * 4, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [0] * 4])
    ENGINE.apply(state, 0, {"type": "offer", "cards": cards_of(state, 0, 1, 2)})
    mine = ENGINE.view(state, 0)
    theirs = ENGINE.view(state, 1)
    public = ENGINE.view(state, None)
    for view in (mine, theirs, public):
        assert view["current_seat"] is None and view["over"] is False
        assert view["round"] == 1 and view["paws"] == [0, 0, 0, 0]
        assert view["hand_counts"] == [9, 9, 9, 9] and len(view["meows"]) == 4
        assert view["offers"] == [{"id": 1, "seat": 0, "meow": view["meows"][1]["meow"]}]
        json.dumps(view)
    assert mine["hand"] == state.hands[0] and mine["hand_cats"] == [0] * 5 + [1] * 4
    assert mine["own_offer"] == {"id": 1, "cards": cards_of(state, 0, 1, 2)}
    assert mine["can_claim"] and theirs["own_offer"] is None
    assert "hand" not in public and "own_offer" not in public
    assert set(card_ids(theirs)) == set(state.hands[1])


MALFORMED: list[Any] = [
    None,
    [],
    "offer",
    {"type": "offer"},
    {"type": "offer", "cards": "0"},
    {"type": "offer", "cards": [True]},
    {"type": "offer", "cards": [1.0]},
    {"type": "offer", "cards": [0, 0]},
    {"type": "offer", "cards": [10**12]},
    {"type": "offer", "cards": [63]},
    {"type": "offer", "cards": [-1]},
    {"type": "offer", "cards": list(range(40))},
    {"type": "accept", "cards": [0]},
    {"type": "accept", "offer": "1", "cards": [0]},
    {"type": "accept", "offer": True, "cards": [0]},
    {"type": "accept", "offer": 99, "cards": [0]},
    {"type": "accept", "offer": 0, "cards": [0]},
    {"type": "play", "cards": [0]},
    {"type": None},
    {str(n): n for n in range(40)},
]


@pytest.mark.parametrize("action", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_actions_are_refused_cleanly(action: Any) -> None:
    state = game()
    assert refused(state, 0, action) == "malformed"


@pytest.mark.parametrize("seat", [-1, 4, True, "0", None, 2.0])
def test_unknown_seats_are_malformed(seat: Any) -> None:
    state = game()
    assert refused(state, seat, {"type": "claim"}) == "malformed"


def test_engine_imports_nothing_outside_the_standard_library() -> None:
    tree = ast.parse(Path(purrfect.__file__).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                continue
            roots = [(node.module or "").split(".")[0]]
        else:
            continue
        for root in roots:
            assert root == "__future__" or root in sys.stdlib_module_names, root


# --------------------------------------------------------------------------- #
# Bots
# --------------------------------------------------------------------------- #


def test_every_bot_claims_a_purrfect_hand() -> None:
    state = game()
    set_hands(state, [[0] * 9, [1] * 5 + [2] * 4, [2] * 5 + [3] * 4, [3] * 5 + [1] * 4])
    for level in BOT_LEVELS:
        bot = ENGINE.bot(level)
        view = ENGINE.view(state, 0)
        action = bot(view, ENGINE.legal_actions(state, 0), random.Random(1), [])
        assert action == {"type": "claim"}


def test_bots_never_give_away_their_target_cat() -> None:
    state = game()
    set_hands(state, [[0] * 6 + [1] * 3, [1] * 6 + [2] * 3, [2] * 6 + [3] * 3, [3] * 6 + [0] * 3])
    ENGINE.apply(state, 1, {"type": "offer", "cards": cards_of(state, 1, 2, 3)})
    for level in BOT_LEVELS:
        for seed in range(20):
            history = ENGINE.history(state, 0)
            action = ENGINE.bot(level)(
                ENGINE.view(state, 0), ENGINE.legal_actions(state, 0), random.Random(seed), history
            )
            assert action is not None and action["type"] in ("offer", "accept")
            assert {card_cat(c) for c in action["cards"]} == {1}


def test_hard_bot_does_not_feed_a_rival_the_cat_it_keeps() -> None:
    state = game()
    # Seat 0 gave seat 1 some Biscotte (cat 1) earlier; seat 1 never gave any back.
    set_hands(
        state,
        [[0] * 5 + [1] * 2 + [2] * 2, [1] * 7 + [3] * 2, [2] * 7 + [3] * 2, [3] * 5 + [0] * 4],
    )
    history = [
        *ENGINE.history(state, 0),
        {"type": "cards_received", "to": [0], "offer": 1, "from": 1,
         "cards": [3 * POSES + 8], "gave": [1 * POSES + 8]},
    ]  # fmt: skip
    state.next_offer_id = 2
    state.round_first_offer_id = 1
    ENGINE.apply(state, 1, {"type": "offer", "cards": cards_of(state, 1, 3, 2)})
    legal = ENGINE.legal_actions(state, 0)
    assert {card_cat(a["cards"][0]) for a in legal if a["type"] == "accept"} == {0, 1, 2}
    for seed in range(20):
        action = ENGINE.bot("hard")(ENGINE.view(state, 0), legal, random.Random(seed), history)
        assert action is not None
        assert action["type"] != "accept" or card_cat(action["cards"][0]) == 2


def test_bots_wait_or_act_but_a_table_of_bots_always_has_someone_acting() -> None:
    """If every bot has an offer out, the owner of the oldest one still acts."""
    state = game()
    set_hands(state, [[0] * 6 + [1] * 3, [1] * 6 + [2] * 3, [2] * 6 + [3] * 3, [3] * 6 + [0] * 3])
    for seat, cat in ((0, 1), (1, 2), (2, 3), (3, 0)):
        ENGINE.apply(state, seat, {"type": "offer", "cards": cards_of(state, seat, cat, 3)})
    for level in BOT_LEVELS:
        bot = ENGINE.bot(level)
        view = ENGINE.view(state, 0)
        action = bot(view, ENGINE.legal_actions(state, 0), random.Random(0), [])
        assert action is not None


# --------------------------------------------------------------------------- #
# Properties 1-7 (docs/engine-contract.md)
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=st.integers(0, 2**32), walk=st.integers(0, 2**32))
def test_property_1_determinism(players: int, seed: int, walk: int) -> None:
    runs = []
    for _ in range(2):
        tracker = Tracker(players, seed)
        random_walk(tracker, random.Random(walk), 60)
        runs.append(json.dumps(ENGINE.to_json(tracker.state)))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@SETTINGS
@given(seed=st.integers(0, 2**32), walk=st.integers(0, 2**32), cut=st.integers(0, 60))
def test_property_2_json_round_trip_behaves_like_the_original(
    players: int, seed: int, walk: int, cut: int
) -> None:
    tracker = Tracker(players, seed)
    rng = random.Random(walk)
    random_walk(tracker, rng, cut)
    data = json.loads(json.dumps(ENGINE.to_json(tracker.state)))
    copy = ENGINE.from_json(data)
    assert ENGINE.to_json(copy) == data
    for _ in range(60):
        if ENGINE.is_over(copy):
            break
        seat = rng.randrange(players)
        legal = ENGINE.legal_actions(copy, seat)
        assert legal == ENGINE.legal_actions(tracker.state, seat)
        action = rng.choice(legal)
        assert ENGINE.apply(copy, seat, action) == ENGINE.apply(tracker.state, seat, action)
    assert ENGINE.to_json(copy) == ENGINE.to_json(tracker.state)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), walk=st.integers(0, 2**32))
def test_property_3_conservation_and_4_no_leak_at_every_step(
    players: int, seed: int, walk: int
) -> None:
    tracker = Tracker(players, seed, round_actions=100)
    rng = random.Random(walk)
    for _ in range(150):
        check_conservation(tracker.state)
        tracker.check_no_leak()
        random_walk(tracker, rng, 1)
    check_conservation(tracker.state)
    tracker.check_no_leak()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=12,
)
card_lists = st.lists(st.integers(-3, 70), max_size=6) | json_values
actions = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["offer", "withdraw", "claim"]), "cards": card_lists}
    ),
    st.fixed_dictionaries(
        {"type": st.just("accept"), "offer": st.integers(-2, 40) | json_values, "cards": card_lists}
    ),
)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40), data=st.data())
def test_property_5_rejection_is_clean(players: int, seed: int, steps: int, data: Any) -> None:
    tracker = Tracker(players, seed)
    random_walk(tracker, random.Random(seed), steps)
    for _ in range(5):
        seat = data.draw(st.integers(-1, players) | st.sampled_from([True, None, "1"]))
        action = data.draw(actions)
        before = json.dumps(ENGINE.to_json(tracker.state))
        try:
            tracker.apply(seat, action)
        except IllegalAction:
            assert json.dumps(ENGINE.to_json(tracker.state)) == before
        else:  # a random action that happened to be legal
            check_conservation(tracker.state)


def rounds_bound(players: int, paws_to_win: int) -> int:
    """Every round gives at least one paw, and before the end nobody holds the target."""
    return players * (paws_to_win - 1) + 1


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_property_6_bot_only_games_end_for_every_level(players: int) -> None:
    round_actions = ENGINE.default_options()["round_actions"]
    bound = rounds_bound(players, 5) * round_actions
    for number, level in enumerate([*BOT_LEVELS, "mixed"]):
        levels = list(BOT_LEVELS) if level == "mixed" else [level]
        played = play_bots(ENGINE, players, 100 * players + number, levels, max_actions=bound)
        assert not played.stalled and ENGINE.is_over(played.state)
        assert played.actions <= bound
        assert played.state.round <= rounds_bound(players, 5)
        assert ENGINE.result(played.state)["winners"]


@SETTINGS
@given(seed=st.integers(0, 2**32), players=st.sampled_from(list(PLAYER_COUNTS)))
def test_property_6_short_rounds_end_too(seed: int, players: int) -> None:
    bound = rounds_bound(players, 2) * 100
    played = play_bots(
        ENGINE, players, seed, ["easy", "hard"], {"round_actions": 100, "paws_to_win": 2},
        max_actions=bound,
    )  # fmt: skip
    assert not played.stalled and played.actions <= bound


def test_property_7_hard_beats_easy_and_chance() -> None:
    """A modest seeded check; ``manage.py simulate`` prints the 1,000-game figure."""
    games, players = 160, 4
    wins = 0.0
    for number in range(games):
        hard_seat = number % players
        levels = ["hard" if seat == hard_seat else "easy" for seat in range(players)]
        played = play_bots(ENGINE, players, 5000 + number, levels)
        assert not played.stalled
        wins += shared_win(ENGINE.result(played.state), players)[hard_seat]
    assert wins / games > 0.32  # chance is 0.25


def test_game_stats_count_rounds_claims_and_trades() -> None:
    played = play_bots(ENGINE, 4, 7, ["medium"])
    stats = ENGINE.game_stats(played.state)
    rounds = [e for e in played.state.log if e["type"] == "round_over"]
    assert stats["game"]["rounds"] == len(rounds)
    assert sum(stats["seat"]["claims"]) == len([r for r in rounds if not r["stalled"]])
    assert stats["seat"]["paws"] == played.state.paws
    assert stats["game"]["trades"] == len(
        [e for e in played.state.log if e["type"] == "trade_done"]
    )


# --------------------------------------------------------------------------- #
# State machine: every seat acting at once, legal and illegal moves interleaved
# --------------------------------------------------------------------------- #


class PurrfectTable(RuleBasedStateMachine):
    tracker: Tracker

    @initialize(players=st.sampled_from(list(PLAYER_COUNTS)), seed=st.integers(0, 2**32))
    def deal(self, players: int, seed: int) -> None:
        self.tracker = Tracker(players, seed, round_actions=100)

    @property
    def state(self) -> PurrfectState:
        return self.tracker.state

    @precondition(lambda self: not ENGINE.is_over(self.state))
    @rule(data=st.data())
    def a_seat_plays_a_legal_move(self, data: Any) -> None:
        seat = data.draw(st.integers(0, self.state.players - 1))
        action = data.draw(st.sampled_from(ENGINE.legal_actions(self.state, seat)))
        self.tracker.apply(seat, scramble(self.state, seat, action, random.Random(seat)))

    @precondition(lambda self: not ENGINE.is_over(self.state))
    @rule(data=st.data(), level=st.sampled_from(BOT_LEVELS))
    def a_bot_plays(self, data: Any, level: str) -> None:
        seat = data.draw(st.integers(0, self.state.players - 1))
        action = ENGINE.bot(level)(
            ENGINE.view(self.state, seat),
            ENGINE.legal_actions(self.state, seat),
            random.Random(data.draw(st.integers(0, 99))),
            ENGINE.history(self.state, seat),
        )
        if action is not None:
            self.tracker.apply(seat, action)

    @rule(data=st.data())
    def a_seat_tries_something_illegal(self, data: Any) -> None:
        seat = data.draw(st.integers(0, self.state.players - 1))
        others = [c for s, hand in enumerate(self.state.hands) if s != seat for c in hand]
        offer_ids = list(range(1, self.state.next_offer_id + 1))
        action = data.draw(
            st.one_of(
                actions,
                st.builds(
                    lambda cards: {"type": "offer", "cards": cards},
                    st.lists(st.sampled_from(others), min_size=1, max_size=4, unique=True),
                ),
                st.builds(
                    lambda offer, cards: {"type": "accept", "offer": offer, "cards": cards},
                    st.sampled_from(offer_ids),
                    st.lists(st.sampled_from(others), min_size=1, max_size=4, unique=True),
                ),
            )
        )
        before = json.dumps(ENGINE.to_json(self.state))
        try:
            self.tracker.apply(seat, action)
        except IllegalAction:
            assert json.dumps(ENGINE.to_json(self.state)) == before

    @invariant()
    def every_hand_holds_nine_cards_and_every_card_is_in_one_place(self) -> None:
        check_conservation(self.state)

    @invariant()
    def locked_cards_match_the_open_offers(self) -> None:
        for seat in range(self.state.players):
            view = ENGINE.view(self.state, seat)
            own = self.state.offer_of(seat)
            assert view["locked"] == (own.cards if own else [])
            assert set(view["locked"]) <= set(view["hand"])
            assert ({"type": "withdraw"} in ENGINE.legal_actions(self.state, seat)) == (
                own is not None and not self.state.over
            )
        ids = [offer.id for offer in self.state.offers]
        assert ids == sorted(set(ids))

    @invariant()
    def nothing_leaks(self) -> None:
        self.tracker.check_no_leak()


PurrfectTable.TestCase.settings = settings(
    max_examples=25, stateful_step_count=30, deadline=None, suppress_health_check=list(HealthCheck)
)
test_state_machine = PurrfectTable.TestCase


def test_offer_dataclass_round_trips_through_the_state() -> None:
    state = game()
    state.offers = [Offer(1, 0, state.hands[0][:1])]
    state.next_offer_id = 2
    assert ENGINE.to_json(ENGINE.from_json(ENGINE.to_json(state))) == ENGINE.to_json(state)
