"""La Chasse aux Souris: one test per rule of ``docs/rules/chasse.md``,
then the properties of ``docs/engine-contract.md`` for every player count.

Positions are built by hand with ``arrange`` so each rule test asserts exactly
one rule. In the first round a card's id is its index in ``chasse.FACES``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgames.engines import chasse
from cardgames.engines.base import IllegalAction, play_bots, shared_win
from cardgames.engines.chasse import (
    CARD_TYPES,
    ENGINE,
    FACES,
    ChasseState,
    announce_choices,
    avoidable,
    card_json,
    crossed_ten,
    error_kind,
)
from tests.cardgames.engines import properties
from tests.cardgames.engines.properties import JUNK, OVERSIZED

E = ENGINE
PLAYER_COUNTS = list(range(E.min_players, E.max_players + 1))
LEVELS = ("easy", "medium", "hard")
PROPERTY_SETTINGS = properties.property_settings(12)


# --------------------------------------------------------------------------- #
# Building positions.
# --------------------------------------------------------------------------- #


def add(a: int, b: int) -> int:
    return (a - 1) * 10 + (b - 1)


def somme(number: int) -> int:
    return 100 + number - 2


def special(effect: str, nth: int = 0) -> int:
    found = [i for i, face in enumerate(FACES) if face[4] == effect]
    return found[nth]


def arrange(
    players: int = 2,
    *,
    hands: list[list[int]],
    total: int = 0,
    current: int = 0,
    direction: int = 1,
    played: list[int] | None = None,
    draw_top: list[int] | None = None,
    draw: list[int] | None = None,
    tokens: list[int] | None = None,
    options: dict[str, Any] | None = None,
) -> ChasseState:
    """A first-round position. Cards not placed go to the draw pile; ``draw_top``
    are drawn first, in order. ``draw`` replaces the whole draw pile."""
    state = E.new_game(players, seed=0, options=options)
    placed = [card for hand in hands for card in hand] + (played or []) + (draw_top or [])
    assert len(placed) == len(set(placed))
    state.hands = [list(hand) for hand in hands]
    state.played = list(played or [])
    if draw is not None:
        state.draw_pile = list(draw)
    else:
        rest = [card for card in state.deck if card not in set(placed)]
        state.draw_pile = rest + list(reversed(draw_top or []))
    state.total = total
    state.current_seat = current
    state.direction = direction
    if tokens is not None:
        state.tokens = list(tokens)
    return state


def play(
    state: ChasseState, seat: int, card: int, announce: int | None = None
) -> list[dict[str, Any]]:
    if announce is None and FACES[card % CARD_TYPES][0] != chasse.SPECIAL:
        announce = state.total + chasse.DELTA[card % CARD_TYPES]
    return E.apply(state, seat, {"type": "play", "card": card, "announce": announce})


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def refused(state: ChasseState, seat: int, action: Any) -> str:
    return properties.refused(E, state, seat, action)


FILLER = [add(1, 1), add(1, 2), add(1, 3), add(2, 1), add(2, 2), add(2, 3)]
FILLER2 = [add(3, 1), add(3, 2), add(3, 3), add(4, 1), add(4, 2), add(4, 3)]


# --------------------------------------------------------------------------- #
# Material.
# --------------------------------------------------------------------------- #


def test_rule_material_has_137_cards_of_the_sheets_kinds() -> None:
    assert CARD_TYPES == 137
    kinds = Counter(face[0] for face in FACES)
    assert kinds == {chasse.ADD: 100, chasse.SUB: 19, chasse.SPECIAL: 18}
    assert sorted((a, b) for k, a, b, _, _ in FACES if k == chasse.ADD) == [
        (a, b) for a in range(1, 11) for b in range(1, 11)
    ]
    assert all(v == a + b for k, a, b, v, _ in FACES if k == chasse.ADD and a and b)
    assert sorted(v for k, _, _, v, _ in FACES if k == chasse.SUB) == list(range(2, 21))
    effects = Counter(e for k, _, _, _, e in FACES if k == chasse.SPECIAL)
    assert effects == {"sleep": 6, "reverse": 4, "skip": 4, "again": 4}
    assert all(v == 0 for k, _, _, v, _ in FACES if k == chasse.SPECIAL)


def test_rule_card_shape_is_the_same_everywhere() -> None:
    assert card_json(add(4, 7)) == {
        "id": add(4, 7),
        "kind": "add",
        "a": 4,
        "b": 7,
        "value": 11,
        "effect": None,
    }
    assert card_json(somme(14)) == {
        "id": somme(14),
        "kind": "sub",
        "a": None,
        "b": None,
        "value": 14,
        "effect": None,
    }
    assert card_json(special("skip")) == {
        "id": special("skip"),
        "kind": "special",
        "a": None,
        "b": None,
        "value": 0,
        "effect": "skip",
    }


def test_rule_each_player_starts_with_three_white_tokens() -> None:
    state = E.new_game(4, seed=1)
    assert state.tokens == [3, 3, 3, 3]
    assert E.view(state, 2)["tokens"] == [3, 3, 3, 3]


# --------------------------------------------------------------------------- #
# A round.
# --------------------------------------------------------------------------- #


def test_house_rule_round_collects_and_shuffles_every_card() -> None:
    decks = set()
    for seed in range(5):
        state = E.new_game(3, seed=seed)
        cards = [c for hand in state.hands for c in hand] + state.draw_pile + state.played
        assert sorted(c % CARD_TYPES for c in cards) == list(range(CARD_TYPES))
        decks.add(tuple(state.draw_pile))
    assert len(decks) == 5


def test_rule_deal_hand_size_cards_one_at_a_time() -> None:
    class NoShuffle(random.Random):
        def random(self) -> float:  # _shuffle swaps i with int(r*(i+1)) = i: no change
            return 0.999999999

    state = E.new_game(3, seed=0, options={"hand_size": 4})
    state.rng = NoShuffle(0)
    E._start_round(state, [], 1)
    pile = [state.generation * CARD_TYPES - CARD_TYPES + i for i in state.deck]
    dealt = list(reversed(pile))[:12]
    # one card to each seat in turn, starting with the first seat
    assert state.hands[1] == dealt[0::3]
    assert state.hands[2] == dealt[1::3]
    assert state.hands[0] == dealt[2::3]
    assert [len(h) for h in state.hands] == [4, 4, 4]


def test_rule_rest_of_the_cards_is_the_draw_pile_and_total_starts_at_zero() -> None:
    state = E.new_game(5, seed=2)
    view = E.view(state, None)
    assert view["total"] == 0
    assert view["hand_counts"] == [6] * 5
    assert view["draw_pile_count"] == 137 - 30
    assert view["last_card"] is None


def test_rule_first_round_started_by_seat_zero() -> None:
    state = E.new_game(4, seed=9)
    assert E.view(state, None)["current_seat"] == 0
    assert state.log == [{"type": "round_started", "round": 1, "first_seat": 0}]


def test_house_rule_later_round_started_by_the_loser() -> None:
    state = arrange(3, hands=[FILLER, [add(5, 5), *FILLER2[1:]], [add(9, 9)]], total=95, current=1)
    events = play(state, 1, add(5, 5))
    assert types(events) == ["card_played", "token_lost", "round_over", "round_started"]
    assert events[-1] == {"type": "round_started", "round": 2, "first_seat": 1}
    assert E.view(state, None)["current_seat"] == 1
    assert state.total == 0 and state.round == 2


def test_house_rule_every_round_begins_in_increasing_order() -> None:
    state = arrange(3, hands=[FILLER, FILLER2, [add(9, 9)]], total=95, current=2, direction=-1)
    play(state, 2, add(9, 9))
    assert state.direction == 1 and E.view(state, None)["direction"] == 1
    addition = next(c for c in state.hands[2] if FACES[c % CARD_TYPES][0] == chasse.ADD)
    play(state, 2, addition)
    assert state.current_seat == 0


def test_rule_turns_go_round_the_seats_in_order() -> None:
    state = arrange(4, hands=[FILLER, FILLER2, [add(5, 1)], [add(5, 2)]], total=1)
    play(state, 0, add(1, 1))
    assert state.current_seat == 1
    play(state, 1, add(3, 1))
    assert state.current_seat == 2


def test_rule_play_then_draw_one_card() -> None:
    state = arrange(2, hands=[FILLER, FILLER2], draw_top=[add(7, 7)])
    play(state, 0, add(1, 1))
    assert len(state.hands[0]) == 6
    assert state.hands[0][-1] == add(7, 7)
    assert add(1, 1) in state.played


def test_rule_empty_draw_pile_reshuffles_played_cards_keeping_the_top_one() -> None:
    others = [c for c in range(CARD_TYPES) if c not in FILLER + FILLER2]
    state = arrange(2, hands=[FILLER, FILLER2], played=others, draw=[], total=3)
    top_before = state.played[-1]
    events = play(state, 0, add(1, 1))
    assert types(events) == ["card_played"]
    # the card just played is the top one and stays; the rest became the draw pile
    assert [c % CARD_TYPES for c in state.played] == [add(1, 1)]
    assert len(state.draw_pile) == len(others) - 1
    assert sorted(c % CARD_TYPES for c in [*state.draw_pile, state.hands[0][-1]]) == sorted(others)
    assert top_before not in state.draw_pile  # fresh ids after a reshuffle


def test_rule_reshuffle_leaves_the_total_unchanged() -> None:
    others = [c for c in range(CARD_TYPES) if c not in FILLER + FILLER2]
    state = arrange(2, hands=[FILLER, FILLER2], played=others, draw=[], total=33)
    play(state, 0, add(1, 1))
    assert state.total == 35


def test_rule_addition_card_adds_its_sum() -> None:
    state = arrange(hands=[[add(7, 8), *FILLER[1:]], FILLER2], total=17)
    events = play(state, 0, add(7, 8), 32)
    assert events[0] == {
        "type": "card_played",
        "seat": 0,
        "card": card_json(add(7, 8)),
        "before": 17,
        "after": 32,
        "announced": 32,
        "correct": True,
    }
    assert state.total == 32


def test_rule_somme_card_subtracts_its_number() -> None:
    state = arrange(hands=[[somme(14), *FILLER[1:]], FILLER2], total=47)
    events = play(state, 0, somme(14), 33)
    assert (events[0]["before"], events[0]["after"], events[0]["correct"]) == (47, 33, True)
    assert events[0]["card"]["kind"] == "sub"


def test_house_rule_somme_only_when_its_number_is_smaller_than_the_total() -> None:
    state = arrange(hands=[[somme(14), somme(15), *FILLER[2:]], FILLER2], total=15)
    assert (
        refused(state, 0, {"type": "play", "card": somme(15), "announce": 0}) == "card_not_playable"
    )
    legal_cards = {a["card"] for a in E.legal_actions(state, 0)}
    assert somme(15) not in legal_cards and somme(14) in legal_cards
    play(state, 0, somme(14), 1)
    assert state.total == 1


def test_house_rule_special_leaves_the_total_and_has_no_number() -> None:
    state = arrange(hands=[[special("sleep"), *FILLER[1:]], FILLER2], total=47)
    events = E.apply(state, 0, {"type": "play", "card": special("sleep"), "announce": 12})
    assert events[0]["before"] == events[0]["after"] == 47
    assert events[0]["announced"] is None and events[0]["correct"] is None
    assert E.legal_actions(state, 1)[0]["announce"] == "int"


def test_house_rule_special_needs_no_announcement() -> None:
    state = arrange(hands=[[special("sleep"), *FILLER[1:]], FILLER2], total=47)
    E.apply(state, 0, {"type": "play", "card": special("sleep")})
    assert state.current_seat == 1


def test_house_rule_chat_qui_dort_does_nothing() -> None:
    state = arrange(3, hands=[[special("sleep"), *FILLER[1:]], FILLER2, [add(9, 9)]], total=47)
    events = play(state, 0, special("sleep"))
    assert types(events) == ["card_played"]
    assert state.current_seat == 1 and state.direction == 1 and state.total == 47


def test_house_rule_demi_tour_reverses_the_direction() -> None:
    state = arrange(3, hands=[[special("reverse"), *FILLER[1:]], FILLER2, [add(9, 9)]], total=4)
    events = play(state, 0, special("reverse"))
    assert types(events) == ["card_played", "direction_changed"]
    assert events[1] == {"type": "direction_changed", "direction": -1}
    assert state.current_seat == 2
    play(state, 2, add(9, 9))
    assert state.current_seat == 1


def test_house_rule_demi_tour_with_two_players_flips_and_the_other_plays() -> None:
    state = arrange(2, hands=[[special("reverse"), *FILLER[1:]], FILLER2], total=4)
    events = play(state, 0, special("reverse"))
    assert events[1] == {"type": "direction_changed", "direction": -1}
    assert state.direction == -1 and state.current_seat == 1


def test_house_rule_saut_skips_the_next_player() -> None:
    state = arrange(
        4, hands=[[special("skip"), *FILLER[1:]], FILLER2, [add(9, 9)], [add(8, 8)]], total=4
    )
    events = play(state, 0, special("skip"))
    assert events[1] == {"type": "turn_skipped", "seat": 1}
    assert state.current_seat == 2


def test_house_rule_saut_follows_the_direction() -> None:
    state = arrange(
        4,
        hands=[[special("skip"), *FILLER[1:]], FILLER2, [add(9, 9)], [add(8, 8)]],
        total=4,
        direction=-1,
    )
    events = play(state, 0, special("skip"))
    assert events[1] == {"type": "turn_skipped", "seat": 3}
    assert state.current_seat == 2


def test_house_rule_saut_with_two_players_gives_the_turn_back() -> None:
    state = arrange(2, hands=[[special("skip"), *FILLER[1:]], FILLER2], total=4)
    events = play(state, 0, special("skip"))
    assert events[1] == {"type": "turn_skipped", "seat": 1}
    assert state.current_seat == 0


def test_house_rule_rejoue_draws_then_plays_again() -> None:
    state = arrange(
        3,
        hands=[[special("again"), *FILLER[1:]], FILLER2, [add(9, 9)]],
        total=4,
        draw_top=[add(6, 6)],
    )
    events = play(state, 0, special("again"))
    assert types(events) == ["card_played"]
    assert state.current_seat == 0
    assert len(state.hands[0]) == 6 and state.hands[0][-1] == add(6, 6)


def test_house_rule_discard_when_no_card_can_be_played() -> None:
    hand = [somme(n) for n in (5, 6, 7, 8, 9, 10)]
    state = arrange(3, hands=[hand, FILLER2, FILLER], total=3, draw_top=[add(6, 6)])
    legal = E.legal_actions(state, 0)
    assert legal == [{"type": "discard", "card": card} for card in hand]
    assert (
        refused(state, 0, {"type": "play", "card": somme(5), "announce": 0}) == "card_not_playable"
    )
    events = E.apply(state, 0, {"type": "discard", "card": somme(9)})
    assert events == [{"type": "card_discarded", "seat": 0, "card": card_json(somme(9))}]
    assert state.total == 3 and state.tokens == [3, 3, 3]
    assert state.hands[0][-1] == add(6, 6) and len(state.hands[0]) == 6
    assert state.played[-1] == somme(9)
    assert state.current_seat == 1


def test_house_rule_discard_refused_while_a_card_can_be_played() -> None:
    state = arrange(hands=[[somme(20), *FILLER[1:]], FILLER2], total=3)
    assert refused(state, 0, {"type": "discard", "card": somme(20)}) == "discard_not_allowed"
    assert all(action["type"] == "play" for action in E.legal_actions(state, 0))


def test_rule_multiple_of_ten_costs_a_token_after_an_addition() -> None:
    state = arrange(hands=[[add(6, 7), *FILLER[1:]], FILLER2], total=47)
    events = play(state, 0, add(6, 7), 60)
    assert events[1] == {
        "type": "token_lost",
        "seat": 0,
        "reason": "multiple_of_ten",
        "tokens_left": 2,
    }
    assert state.total == 60 and state.current_seat == 1


def test_rule_multiple_of_ten_costs_a_token_after_a_subtraction() -> None:
    state = arrange(hands=[[somme(12), *FILLER[1:]], FILLER2], total=52)
    events = play(state, 0, somme(12), 40)
    assert events[1]["reason"] == "multiple_of_ten"
    assert state.tokens == [2, 3]


def test_house_rule_special_card_never_costs_a_multiple_of_ten() -> None:
    state = arrange(hands=[[special("sleep"), *FILLER[1:]], FILLER2], total=40)
    events = play(state, 0, special("sleep"))
    assert types(events) == ["card_played"]
    assert state.tokens == [3, 3]


def test_rule_multiple_of_ten_counts_only_below_the_target() -> None:
    state = arrange(
        hands=[[add(1, 4), add(5, 5), *FILLER[2:]], FILLER2], total=45, options={"target": 50}
    )
    events = play(state, 0, add(1, 4), 50)
    assert [e["reason"] for e in events if e["type"] == "token_lost"] == ["reached_target"]


def test_rule_reaching_the_target_costs_a_token_and_ends_the_round() -> None:
    state = arrange(3, hands=[[add(4, 5), *FILLER[1:]], FILLER2, [add(9, 9)]], total=95)
    events = play(state, 0, add(4, 5), 104)
    assert types(events) == ["card_played", "token_lost", "round_over", "round_started"]
    assert events[1] == {
        "type": "token_lost",
        "seat": 0,
        "reason": "reached_target",
        "tokens_left": 2,
    }
    assert events[2] == {"type": "round_over", "round": 1, "loser": 0, "total": 104}
    assert E.view(state, None)["last_round"] == {"round": 1, "loser": 0, "total": 104}
    assert state.total == 0 and [len(h) for h in state.hands] == [6, 6, 6]


def test_rule_reaching_the_target_exactly_is_not_also_a_multiple_of_ten() -> None:
    state = arrange(hands=[[add(1, 4), *FILLER[1:]], FILLER2], total=95)
    events = play(state, 0, add(1, 4), 100)
    assert [e["reason"] for e in events if e["type"] == "token_lost"] == ["reached_target"]
    assert state.tokens == [2, 3]


def test_rule_wrong_announcement_costs_nothing_in_coach_mode() -> None:
    state = arrange(hands=[[add(4, 4), *FILLER[1:]], FILLER2], total=47)
    events = play(state, 0, add(4, 4), 54)
    assert types(events) == ["card_played"]
    assert events[0]["announced"] == 54 and events[0]["correct"] is False
    assert state.tokens == [3, 3]


def test_rule_wrong_announcement_costs_a_token_in_strict_mode() -> None:
    state = arrange(
        hands=[[add(4, 4), *FILLER[1:]], FILLER2],
        total=47,
        options={"wrong_announcement": "strict"},
    )
    events = play(state, 0, add(4, 4), 54)
    assert events[1] == {
        "type": "token_lost",
        "seat": 0,
        "reason": "wrong_announcement",
        "tokens_left": 2,
    }


def test_rule_the_true_total_always_stands() -> None:
    state = arrange(hands=[[add(4, 4), *FILLER[1:]], FILLER2], total=47)
    play(
        state, 0, add(4, 4), 60
    )  # announcing a multiple of ten costs nothing: the true total is 55
    assert state.total == 55 and state.tokens == [3, 3]
    assert E.view(state, 1)["total"] == 55


def test_rule_position_penalty_comes_before_the_announcement_penalty() -> None:
    state = arrange(
        hands=[[add(6, 7), *FILLER[1:]], FILLER2],
        total=47,
        options={"wrong_announcement": "strict"},
    )
    events = play(state, 0, add(6, 7), 61)
    assert [e["reason"] for e in events if e["type"] == "token_lost"] == [
        "multiple_of_ten",
        "wrong_announcement",
    ]
    assert [e["tokens_left"] for e in events if e["type"] == "token_lost"] == [2, 1]


def test_rule_tokens_never_go_below_zero() -> None:
    state = arrange(
        hands=[[add(6, 7), *FILLER[1:]], FILLER2],
        total=47,
        tokens=[1, 3],
        options={"wrong_announcement": "strict"},
    )
    events = play(state, 0, add(6, 7), 61)
    assert [e["reason"] for e in events if e["type"] == "token_lost"] == ["multiple_of_ten"]
    assert state.tokens == [0, 3]
    assert types(events)[-1] == "game_over"


def test_rule_game_ends_as_soon_as_a_player_has_no_tokens() -> None:
    state = arrange(
        3, hands=[[add(6, 7), *FILLER[1:]], FILLER2, [add(9, 9)]], total=47, tokens=[1, 2, 2]
    )
    events = play(state, 0, add(6, 7))
    assert types(events) == ["card_played", "token_lost", "game_over"]
    assert events[-1] == {"type": "game_over", "winners": [1, 2], "tokens": [0, 2, 2]}
    assert E.is_over(state)
    assert E.view(state, 0)["current_seat"] is None and E.view(state, 0)["over"] is True
    assert E.legal_actions(state, 1) == []
    assert refused(state, 1, {"type": "play", "card": FILLER2[0], "announce": 4}) == "game_over"


def test_rule_round_over_comes_before_game_over() -> None:
    state = arrange(
        3, hands=[[add(5, 5), *FILLER[1:]], FILLER2, [add(9, 9)]], total=95, tokens=[1, 3, 2]
    )
    events = play(state, 0, add(5, 5))
    assert types(events) == ["card_played", "token_lost", "round_over", "game_over"]
    assert events[-1] == {"type": "game_over", "winners": [1], "tokens": [0, 3, 2]}


def test_rule_winners_have_the_most_tokens_and_everyone_is_ranked() -> None:
    state = arrange(
        4,
        hands=[[add(5, 5), *FILLER[1:]], FILLER2, [add(9, 9)], [add(8, 8)]],
        total=95,
        tokens=[1, 2, 3, 3],
    )
    play(state, 0, add(5, 5))
    assert E.result(state) == {"winners": [2, 3], "ranking": [2, 3, 1, 0], "scores": [0, 2, 3, 3]}
    assert shared_win(E.result(state), 4) == [0.0, 0.0, 0.5, 0.5]
    assert E.view(state, None)["winners"] == [2, 3]


def test_rule_deck_too_small_is_refused_by_new_game() -> None:
    # tables {10}: 19 additions; no somme, no special: 19 cards < 2 x 6 + 10
    with pytest.raises(ValueError, match="cards"):
        E.new_game(
            2, seed=0, options={"tables": [10], "somme_cards": False, "special_cards": False}
        )
    # 19 >= 2 x 3 + 10: enough
    E.new_game(
        2,
        seed=0,
        options={"tables": [10], "somme_cards": False, "special_cards": False, "hand_size": 3},
    )
    with pytest.raises(ValueError):
        E.new_game(6, seed=0, options={"tables": [1], "hand_size": 8})


# --------------------------------------------------------------------------- #
# Table options.
# --------------------------------------------------------------------------- #


def test_option_target() -> None:
    assert E.validate_options({})["target"] == 100
    for bad in (10, 210, 55, "100", True):
        with pytest.raises(ValueError):
            E.validate_options({"target": bad})
    state = arrange(hands=[[add(4, 5), *FILLER[1:]], FILLER2], total=41, options={"target": 50})
    events = play(state, 0, add(4, 5))
    assert "round_over" in types(events)
    assert E.view(state, 0)["target"] == 50


def test_option_tokens() -> None:
    assert E.new_game(3, seed=0, options={"tokens": 5}).tokens == [5, 5, 5]
    assert E.new_game(3, seed=0, options={"tokens": 1}).tokens == [1, 1, 1]
    for bad in (0, 6):
        with pytest.raises(ValueError):
            E.validate_options({"tokens": bad})


def test_option_hand_size() -> None:
    for size in (3, 8):
        state = E.new_game(4, seed=0, options={"hand_size": size})
        assert [len(h) for h in state.hands] == [size] * 4
    for bad in (2, 9):
        with pytest.raises(ValueError):
            E.validate_options({"hand_size": bad})


def test_option_tables_keeps_additions_with_a_or_b_in_the_set() -> None:
    state = E.new_game(2, seed=0, options={"tables": [2, 5]})
    adds = [FACES[i] for i in state.deck if FACES[i][0] == chasse.ADD]
    assert len(adds) == 36  # 100 - 8 x 8
    assert all(a in (2, 5) or b in (2, 5) for _, a, b, _, _ in adds)
    assert len(state.deck) == 36 + 19 + 18
    assert E.validate_options({"tables": [5, 2, 2]})["tables"] == [2, 5]
    for bad in ([], [0], [11], "5", [True]):
        with pytest.raises(ValueError):
            E.validate_options({"tables": bad})


def test_option_somme_cards_off() -> None:
    state = E.new_game(2, seed=0, options={"somme_cards": False})
    assert len(state.deck) == 118
    assert all(FACES[i][0] != chasse.SUB for i in state.deck)


def test_option_special_cards_off() -> None:
    state = E.new_game(2, seed=0, options={"special_cards": False})
    assert len(state.deck) == 119
    assert all(FACES[i][0] != chasse.SPECIAL for i in state.deck)


@pytest.mark.parametrize("mode", ["typed", "choice"])
def test_option_announce_typed_and_choice_require_an_integer(mode: str) -> None:
    state = arrange(
        hands=[[add(4, 4), somme(5), special("sleep"), *FILLER[3:]], FILLER2],
        total=47,
        options={"announce": mode},
    )
    assert refused(state, 0, {"type": "play", "card": add(4, 4)}) == "announce_required"
    assert (
        refused(state, 0, {"type": "play", "card": somme(5), "announce": None})
        == "announce_required"
    )
    for bad in ("55", 55.0, True, [55], {"n": 55}):
        assert (
            refused(state, 0, {"type": "play", "card": add(4, 4), "announce": bad}) == "malformed"
        )
    legal = {a["card"]: a["announce"] for a in E.legal_actions(state, 0)}
    assert (
        legal[add(4, 4)] == "int" and legal[somme(5)] == "int" and legal[special("sleep")] is None
    )
    play(state, 0, add(4, 4), 55)


def test_option_announce_shown_asks_for_nothing() -> None:
    state = arrange(
        hands=[[add(4, 4), *FILLER[1:]], FILLER2], total=47, options={"announce": "shown"}
    )
    assert all(a["announce"] is None for a in E.legal_actions(state, 0))
    events = E.apply(state, 0, {"type": "play", "card": add(4, 4), "announce": 12})
    assert events[0]["announced"] is None and events[0]["correct"] is None
    assert state.total == 55
    assert refused(state, 1, {"type": "play", "card": FILLER2[0], "announce": "x"}) == "malformed"


def test_option_announce_choices_offers_the_true_total_and_two_close_ones() -> None:
    for before in range(0, 120):
        for card in (card_json(add(3, 9)), card_json(somme(7)), card_json(add(10, 10))):
            if card["kind"] == "sub" and card["value"] >= before:
                continue
            true = chasse.total_after(before, card)
            choices = announce_choices(before, card, before)
            assert choices == announce_choices(before, card, random.Random(before))
            assert len(set(choices)) == 3 and true in choices and min(choices) >= 0
            kinds = sorted(str(error_kind(true, c)) for c in choices if c != true)
            assert kinds == ["tens", "units"]
    # a forgotten carry: 47 + 8 = 55, the tens distractor is 45
    assert 45 in announce_choices(47, card_json(add(4, 4)), 1)
    assert announce_choices(47, card_json(special("sleep")), 1) == []


def test_option_wrong_announcement_values() -> None:
    assert E.validate_options({})["wrong_announcement"] == "coach"
    assert E.validate_options({"wrong_announcement": "strict"})["wrong_announcement"] == "strict"
    with pytest.raises(ValueError):
        E.validate_options({"wrong_announcement": "harsh"})


def test_option_turn_seconds_is_stored_for_the_server_only() -> None:
    assert E.validate_options({})["turn_seconds"] is None
    assert E.validate_options({"turn_seconds": None})["turn_seconds"] is None
    state = E.new_game(2, seed=0, options={"turn_seconds": 30})
    assert E.view(state, 0)["options"]["turn_seconds"] == 30
    for bad in (5, 121, "30", 30.0):
        with pytest.raises(ValueError):
            E.validate_options({"turn_seconds": bad})


def test_options_schema_lists_every_option_of_the_sheet() -> None:
    keys = [spec["key"] for spec in E.option_schema()]
    assert keys == [
        "target",
        "tokens",
        "hand_size",
        "tables",
        "somme_cards",
        "special_cards",
        "announce",
        "wrong_announcement",
        "turn_seconds",
    ]
    with pytest.raises(ValueError, match="Unknown option"):
        E.validate_options({"speed": 3})


# --------------------------------------------------------------------------- #
# Actions, views and errors.
# --------------------------------------------------------------------------- #


def test_contract_legal_actions_are_canonical_and_only_for_the_current_seat() -> None:
    hand = [
        special("sleep", 0),
        special("sleep", 1),
        special("skip"),
        add(4, 4),
        somme(20),
        somme(3),
    ]
    state = arrange(hands=[hand, FILLER2], total=10)
    legal = E.legal_actions(state, 0)
    assert legal == [
        {"type": "play", "card": special("sleep", 0), "announce": None},
        {"type": "play", "card": special("skip"), "announce": None},
        {"type": "play", "card": add(4, 4), "announce": "int"},
        {"type": "play", "card": somme(3), "announce": "int"},
    ]
    assert E.legal_actions(state, 1) == []
    # any id of an interchangeable card is accepted
    play(state, 0, special("sleep", 1))
    assert special("sleep", 1) in state.played


def test_contract_errors_have_stable_codes() -> None:
    state = arrange(3, hands=[FILLER, FILLER2, [add(9, 9)]], total=3)
    assert refused(state, 1, {"type": "play", "card": FILLER2[0], "announce": 7}) == "not_your_turn"
    assert (
        refused(state, 0, {"type": "play", "card": FILLER2[0], "announce": 7}) == "card_not_in_hand"
    )
    # An unknown id is refused like a card of another hand (no secret leaks).
    assert refused(state, 0, {"type": "play", "card": 999_999, "announce": 7}) == "card_not_in_hand"
    assert refused(state, 0, {"type": "play", "card": -1, "announce": 7}) == "card_not_in_hand"
    assert refused(state, 0, {"type": "play", "announce": 7}) == "malformed"
    assert refused(state, 0, {"type": "play", "card": True, "announce": 7}) == "malformed"
    assert refused(state, 0, {"type": "play", "card": 10**12, "announce": 7}) == "malformed"
    assert refused(state, 0, {"type": "play", "card": FILLER[0], "announce": 10**12}) == "malformed"
    assert refused(state, 0, {"type": "fold"}) == "malformed"
    assert refused(state, 0, ["play"]) == "malformed"
    assert refused(state, 7, {"type": "play", "card": FILLER[0], "announce": 7}) == "malformed"
    assert refused(state, True, {"type": "play", "card": FILLER[0], "announce": 7}) == "malformed"  # type: ignore[arg-type]


def test_contract_view_holds_the_sheets_keys() -> None:
    state = arrange(3, hands=[FILLER, FILLER2, [add(9, 9)]], total=3, played=[add(8, 8)])
    view = E.view(state, 1)
    for key in (
        "seat",
        "hand",
        "hand_counts",
        "total",
        "tokens",
        "current_seat",
        "direction",
        "round",
        "draw_pile_count",
        "last_card",
        "target",
        "options",
        "over",
        "round_turns",
    ):
        assert key in view
    assert view["seat"] == 1
    assert view["hand"] == [card_json(c) for c in FILLER2]
    assert view["hand_counts"] == [6, 6, 1]
    assert view["last_card"] == card_json(add(8, 8))
    assert view["options"] == E.default_options()
    assert "legal" not in view
    json.dumps(view)
    public = E.view(state, None)
    assert public["seat"] is None and public["hand"] == []
    assert public["current_seat"] == 0 and public["over"] is False


def test_contract_views_and_json_are_copies() -> None:
    state = E.new_game(2, seed=4)
    view = E.view(state, 0)
    view["options"]["tables"].append(99)
    view["hand"][0]["value"] = 1000
    view["tokens"][0] = 9
    data = E.to_json(state)
    data["log"][0]["round"] = 42
    assert E.view(state, 0) != view
    assert state.log[0]["round"] == 1


def test_helper_crossed_ten() -> None:
    assert crossed_ten(47, card_json(add(4, 4)))  # 47 + 8
    assert crossed_ten(38, card_json(add(7, 7)))  # 38 + 14
    assert crossed_ten(52, card_json(somme(7)))  # 52 - 7
    assert not crossed_ten(43, card_json(add(7, 7)))  # 43 + 14
    assert not crossed_ten(58, card_json(somme(7)))
    assert not crossed_ten(52, card_json(somme(20)))
    assert not crossed_ten(99, card_json(special("again")))


def test_helper_error_kind() -> None:
    assert error_kind(55, 55) is None
    assert error_kind(55, 45) == "tens"
    assert error_kind(55, 65) == "tens"
    assert error_kind(55, 54) == "units"
    assert error_kind(55, 59) == "units"
    assert error_kind(55, 60) == "other"
    assert error_kind(55, 12) == "other"
    assert error_kind(105, 103) == "units"


def test_helper_avoidable() -> None:
    hand = [card_json(c) for c in (add(6, 7), add(1, 1), somme(20))]
    assert avoidable(47, hand[0], hand, 100)  # 47 + 2 = 49 was safe
    assert not avoidable(47, hand[1], hand, 100)  # no penalty at all
    only_bad = [card_json(c) for c in (add(6, 7), add(1, 2), somme(17))]
    assert not avoidable(47, only_bad[0], only_bad, 100)  # 60, 50 or 30
    unplayable = [card_json(c) for c in (add(2, 3), somme(15), somme(18))]
    assert not avoidable(15, unplayable[0], unplayable, 100)  # sommes too big for 15
    near = [card_json(c) for c in (add(5, 5), special("sleep"))]
    assert avoidable(95, near[0], near, 100)


def test_game_stats_count_plays_and_multiples_of_ten() -> None:
    state = arrange(hands=[[add(6, 7), *FILLER[1:]], FILLER2], total=47)
    play(state, 0, add(6, 7))
    play(state, 1, add(3, 1))
    stats = E.game_stats(state)
    assert stats == {"game": {"rounds": 1, "plays": 2}, "seat": {"plays": [1, 1], "mult10": [1, 0]}}
    assert E.stat_ratios == (("landed on a multiple of ten", "mult10", "plays"),)


# --------------------------------------------------------------------------- #
# Bots.
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("level", LEVELS)
def test_bots_announce_the_true_total(level: str) -> None:
    state = arrange(hands=[[add(6, 7), add(8, 1), add(8, 2), *FILLER2[3:]], FILLER], total=47)
    bot = E.bot(level)
    action = bot(E.view(state, 0), E.legal_actions(state, 0), random.Random(0), E.history(state, 0))
    assert action is not None
    events = E.apply(state, 0, action)
    assert events[0]["correct"] is True


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_bots_medium_and_hard_avoid_a_penalty_whenever_they_can(level: str) -> None:
    bot = E.bot(level)
    for seed in range(20):
        state = arrange(
            hands=[[add(6, 7), add(7, 6), add(8, 5), add(3, 4), *FILLER2[4:]], FILLER], total=47
        )
        action = bot(E.view(state, 0), E.legal_actions(state, 0), random.Random(seed), [])
        assert action is not None
        assert action["card"] not in (add(6, 7), add(7, 6), add(8, 5))


def test_bot_hard_keeps_escape_cards_while_the_total_is_low() -> None:
    bot = E.bot("hard")
    hand = [somme(5), special("sleep"), add(9, 8), add(1, 1), add(2, 1), add(1, 2)]
    for seed in range(10):
        state = arrange(hands=[hand, FILLER2], total=12)
        action = bot(E.view(state, 0), E.legal_actions(state, 0), random.Random(seed), [])
        assert action is not None and action["card"] == add(9, 8)


def test_bot_hard_corners_the_next_player_near_the_target() -> None:
    bot = E.bot("hard")
    hand = [add(1, 1), add(5, 3), somme(5), special("sleep"), special("again"), add(10, 10)]
    for seed in range(10):
        state = arrange(hands=[hand, FILLER2], total=90)
        action = bot(E.view(state, 0), E.legal_actions(state, 0), random.Random(seed), [])
        # 90 + 8 = 98 leaves the next player almost nothing; 92 or a somme would not
        assert action is not None and action["card"] == add(5, 3)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_bots_lose_patience_when_a_round_cannot_end(level: str) -> None:
    # No somme cards, target 20, only the additions of the table of 2: once every
    # addition sits in a hand, careful players could pass with specials for ever.
    options = {"target": 20, "tables": [2], "somme_cards": False, "hand_size": 6}
    turns = [0]

    def longest(state: ChasseState, *_: Any) -> None:
        turns[0] = max(turns[0], state.round_turns)

    played = play_bots(E, 4, 2, [level], options, max_actions=10_000, on_action=longest)
    assert not played.stalled
    assert chasse.PATIENCE_TURNS <= turns[0] < chasse.PATIENCE_TURNS + 200


def test_bot_levels_are_checked() -> None:
    with pytest.raises(ValueError):
        E.bot("grandmaster")


# --------------------------------------------------------------------------- #
# Properties of docs/engine-contract.md, for every player count.
# --------------------------------------------------------------------------- #

option_sets = st.fixed_dictionaries(
    {},
    optional={
        "target": st.sampled_from([20, 50, 100, 200]),
        "tokens": st.integers(1, 5),
        "hand_size": st.integers(3, 8),
        "tables": st.lists(st.integers(1, 10), min_size=1, max_size=10, unique=True),
        "somme_cards": st.booleans(),
        "special_cards": st.booleans(),
        "announce": st.sampled_from(["typed", "choice", "shown"]),
        "wrong_announcement": st.sampled_from(["coach", "strict"]),
        "turn_seconds": st.one_of(st.none(), st.integers(10, 120)),
    },
)


def new_game_or_none(
    players: int, seed: int, options: dict[str, Any], late: bool = False
) -> ChasseState | None:
    """A new game, or None when the options leave too few cards. ``late`` moves
    all but three cards of the draw pile onto the played pile, so the draw pile
    runs out within a few plays and the reshuffle is exercised (with default
    options a round rarely lasts long enough)."""
    try:
        state = E.new_game(players, seed, options)
    except ValueError as error:
        assert "cards" in str(error)  # only a deck too small may be refused
        return None
    if late:
        state.played = state.draw_pile[3:]
        state.draw_pile = state.draw_pile[:3]
    return state


def random_action(state: ChasseState, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A random legal action, announced right most of the time."""
    seat = state.current_seat
    action = dict(rng.choice(E.legal_actions(state, seat)))
    if action.get("announce") == "int":
        true = state.total + chasse.DELTA[action["card"] % CARD_TYPES]
        action["announce"] = true if rng.random() < 0.8 else true + rng.choice((-10, -1, 1, 10))
    if action["type"] == "play" and action.get("announce") is None and rng.random() < 0.5:
        del action["announce"]
    return seat, action


def random_game(state: ChasseState, rng: random.Random, steps: int) -> Iterator[properties.Step]:
    return properties.random_game(E, state, rng, steps, random_action)


def card_ids(data: Any) -> set[int]:
    return properties.card_ids(data, lambda card: "kind" in card and "id" in card)


def assert_conserved(state: ChasseState) -> None:
    cards = [c for hand in state.hands for c in hand] + state.draw_pile + state.played
    assert len(cards) == len(set(cards)), "a card id is in two places"
    assert sorted(c % CARD_TYPES for c in cards) == sorted(state.deck)
    assert all(0 <= c < state.generation * CARD_TYPES for c in cards)


def assert_no_leak(state: ChasseState) -> None:
    for seat in [None, *range(state.players)]:
        hidden = set(state.draw_pile)
        for other in range(state.players):
            if other != seat:
                hidden |= set(state.hands[other])
        view = json.loads(json.dumps(E.view(state, seat)))
        assert not card_ids(view) & hidden
        assert not card_ids(E.history(state, seat)) & hidden
        if seat is not None:
            assert [card["id"] for card in view["hand"]] == state.hands[seat]
        else:
            assert view["hand"] == []


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32), options=option_sets, late=st.booleans())
def test_property_1_determinism(
    players: int, seed: int, options: dict[str, Any], late: bool
) -> None:
    runs = []
    for _ in range(2):
        state = new_game_or_none(players, seed, options, late)
        if state is None:
            return
        events = [e for _, _, e in random_game(state, random.Random(seed), 400)]
        runs.append((events, E.to_json(state)))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32), options=option_sets, late=st.booleans())
def test_property_2_json_round_trip(
    players: int, seed: int, options: dict[str, Any], late: bool
) -> None:
    state = new_game_or_none(players, seed, options, late)
    if state is None:
        return
    rng = random.Random(seed)
    for step, _ in enumerate(random_game(state, rng, 300)):
        data = E.to_json(state)
        assert json.loads(json.dumps(data)) == data
        copy = E.from_json(json.loads(json.dumps(data)))
        assert E.to_json(copy) == data
        if step % 25 == 0:
            # the copy carries on exactly like the original
            fork = random.Random(step)
            fork_again = random.Random(step)
            original = [e for _, _, e in random_game(E.from_json(data), fork, 60)]
            continued = [e for _, _, e in random_game(copy, fork_again, 60)]
            assert original == continued


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32), options=option_sets, late=st.booleans())
def test_property_3_conservation(
    players: int, seed: int, options: dict[str, Any], late: bool
) -> None:
    state = new_game_or_none(players, seed, options, late)
    if state is None:
        return
    assert_conserved(state)
    hand_size = state.options["hand_size"]
    for _ in random_game(state, random.Random(seed), 400):
        assert_conserved(state)
        if not state.over:
            assert all(len(hand) == hand_size for hand in state.hands)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32), options=option_sets, late=st.booleans())
def test_property_4_no_leak(players: int, seed: int, options: dict[str, Any], late: bool) -> None:
    state = new_game_or_none(players, seed, options, late)
    if state is None:
        return
    assert_no_leak(state)
    for _ in random_game(state, random.Random(seed), 250):
        assert_no_leak(state)


def malformed_actions() -> st.SearchStrategy[Any]:
    return st.one_of(
        JUNK,
        st.fixed_dictionaries({"type": st.sampled_from(["play", "discard", "x"]), "card": JUNK}),
        st.fixed_dictionaries(
            {"type": st.just("play"), "card": st.integers(-5, 2000), "announce": JUNK}
        ),
        OVERSIZED,
    )


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@properties.property_settings(10)
@given(seed=st.integers(0, 2**32), options=option_sets, late=st.booleans(), data=st.data())
def test_property_5_rejection_is_clean(
    players: int, seed: int, options: dict[str, Any], late: bool, data: st.DataObject
) -> None:
    state = new_game_or_none(players, seed, options, late)
    if state is None:
        return
    rng = random.Random(seed)
    steps = data.draw(st.integers(0, 120))
    for _ in random_game(state, rng, steps):
        pass
    before = E.to_json(state)
    current = state.current_seat
    illegal: list[tuple[Any, Any]] = [
        ((current + 1) % players, {"type": "play", "card": state.hands[current][0], "announce": 1}),
        (current, {"type": "play", "card": state.hands[(current + 1) % players][0], "announce": 1}),
        (current, {"type": "discard", "card": state.hands[current][0]}),
        (
            current,
            {"type": "play", "card": state.draw_pile[0] if state.draw_pile else -1, "announce": 1},
        ),
        (players, {"type": "play", "card": state.hands[current][0], "announce": 1}),
        (None, {"type": "play", "card": state.hands[current][0], "announce": 1}),
    ]
    for _ in range(5):
        illegal.append((data.draw(st.integers(-1, players)), data.draw(malformed_actions())))
    for seat, action in illegal:
        legal = (
            E.legal_actions(state, seat)
            if isinstance(seat, int) and not isinstance(seat, bool)
            else []
        )
        if action in legal and not state.over:
            continue  # the drawn action happens to be legal
        try:
            E.apply(state, seat, action)
        except IllegalAction as error:
            assert error.code and error.message
        else:
            # only a legal play with some announce may pass: undo by rebuilding
            state = E.from_json(before)
            continue
        assert E.to_json(state) == before


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("level", LEVELS)
def test_property_6_termination(players: int, level: str) -> None:
    # Worst case: players x (tokens - 1) + 1 <= 25 rounds, each cut short by the
    # bots' patience (PATIENCE_TURNS) plus a few random plays. 1,500 random
    # configurations never needed more than about 2,700 actions.
    bound = 10_000
    rng = random.Random(players * 31 + LEVELS.index(level))
    for game in range(6):
        options: dict[str, Any] = {}
        if game % 2:
            options = {
                "target": rng.choice([20, 50, 200]),
                "tokens": rng.randint(1, 5),
                "tables": sorted(rng.sample(range(1, 11), rng.randint(1, 10))),
                "somme_cards": rng.random() < 0.7,
                "special_cards": rng.random() < 0.7,
                "wrong_announcement": "strict",
                "announce": rng.choice(["typed", "choice", "shown"]),
            }
        try:
            E.new_game(players, game, options)
        except ValueError:
            options = {}
        levels = [level] if game < 4 else [level, "easy", "medium", "hard"]
        played = play_bots(E, players, game, levels, options, max_actions=bound)
        assert not played.stalled, f"no end within {bound} actions"
        assert E.is_over(played.state)


def hard_share(opponent: str, games: int) -> float:
    share = 0.0
    for game in range(games):
        levels = [opponent] * 4
        levels[game % 4] = "hard"  # rotate the hard bot's seat
        played = play_bots(E, 4, 10_000 + game, levels)
        share += shared_win(E.result(played.state), 4)[game % 4]
    return share / games


def test_property_7_bots_beat_chance() -> None:
    # chance is 25%; the 1,000-game figures come from the simulate command
    assert hard_share("easy", 200) >= 0.5
    assert hard_share("medium", 200) >= 0.32


# --------------------------------------------------------------------------- #
# Purity.
# --------------------------------------------------------------------------- #


def test_registry_finds_the_engine() -> None:
    from cardgames import engines

    assert engines.get("chasse") is ENGINE
    assert (E.name, E.min_players, E.max_players, E.simultaneous) == ("chasse", 2, 6, False)
