"""Pinocchio: one test per rule of ``docs/rules/pinocchio.md``, then the
properties of ``docs/engine-contract.md`` for every player count.

Positions are built by hand with ``arrange``: a card is named by its face
(``cid("bonnet", "rouge")``) and each pile lists its cards in drawing order.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgames.engines.base import IllegalAction, play_bots, shared_win
from cardgames.engines.pinocchio import (
    ALL_FACES,
    COLOURS,
    DECK_SIZE,
    ENGINE,
    GARMENTS,
    PinocchioState,
    card_face,
)
from tests.cardgames.engines import properties
from tests.cardgames.engines.properties import JUNK, OVERSIZED

E = ENGINE
PLAYER_COUNTS = list(range(E.min_players, E.max_players + 1))
LEVELS = ("easy", "medium", "hard")
PROPERTY_SETTINGS = properties.property_settings(6)

Face = tuple[str, str]


# --------------------------------------------------------------------------- #
# Building positions.
# --------------------------------------------------------------------------- #


def cid(garment: str, colour: str, copy: int = 0) -> int:
    return GARMENTS.index(garment) * 9 + COLOURS.index(colour) * 3 + copy


def arrange(players: int, tops: list[list[Face]], *, seed: int = 0) -> PinocchioState:
    """A fresh game whose piles start (in drawing order) with ``tops``; the rest
    of each pile is filled with other cards. Seat 0 has drawn its first card."""
    state = E.new_game(players, seed)
    used: set[int] = set()
    chosen: list[list[int]] = []
    for faces in tops:
        ids = []
        for garment, colour in faces:
            card = next(c for c in range(3) if cid(garment, colour, c) not in used)
            used.add(cid(garment, colour, card))
            ids.append(cid(garment, colour, card))
        chosen.append(ids)
    rest = [c for c in range(DECK_SIZE) if c not in used]
    size = DECK_SIZE // players
    piles = []
    for seat in range(players):
        mine = chosen[seat] if seat < len(chosen) else []
        filler = [rest.pop() for _ in range(size - len(mine))]
        piles.append(filler + list(reversed(mine)))
    state.piles = piles
    state.removed = rest
    state.log = []
    state.drawn = None
    E._draw(state, 0, [])
    return state


def announce(state: PinocchioState, seat: int, garment: str, colour: str) -> list[dict[str, Any]]:
    return E.apply(state, seat, {"type": "announce", "garment": garment, "colour": colour})


def doubt(state: PinocchioState, seat: int) -> list[dict[str, Any]]:
    return E.apply(state, seat, {"type": "doubt"})


def believe(state: PinocchioState, seat: int) -> list[dict[str, Any]]:
    return E.apply(state, seat, {"type": "believe"})


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def refused(state: PinocchioState, seat: Any, action: Any) -> str:
    return properties.refused(E, state, seat, action)


def faces_of(actions: list[dict[str, Any]]) -> set[Face]:
    return {(a["garment"], a["colour"]) for a in actions if a["type"] == "announce"}


def drawn(state: PinocchioState, seat: int) -> Face:
    card = E.view(state, seat)["drawn_card"]
    return card["garment"], card["colour"]


BR, BB, BJ = ("bonnet", "rouge"), ("bonnet", "bleu"), ("bonnet", "jaune")
CR, CB, CJ = ("chemise", "rouge"), ("chemise", "bleu"), ("chemise", "jaune")
PR, PB, PJ = ("pantalon", "rouge"), ("pantalon", "bleu"), ("pantalon", "jaune")
SR, SB, SJ = ("sabots", "rouge"), ("sabots", "bleu"), ("sabots", "jaune")
NR, NB, NJ = ("noeud_papillon", "rouge"), ("noeud_papillon", "bleu"), ("noeud_papillon", "jaune")


# --------------------------------------------------------------------------- #
# Material and setup.
# --------------------------------------------------------------------------- #


def test_rule_material_is_45_garment_cards_five_garments_three_colours_three_copies() -> None:
    assert GARMENTS == ("bonnet", "noeud_papillon", "chemise", "pantalon", "sabots")
    assert COLOURS == ("rouge", "bleu", "jaune")
    assert DECK_SIZE == 45
    faces = [card_face(card) for card in range(DECK_SIZE)]
    assert sorted(set(faces)) == sorted(ALL_FACES)
    assert all(faces.count(face) == 3 for face in ALL_FACES)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_rule_piles_dealt_evenly_one_per_player_leftovers_leave_the_game(players: int) -> None:
    state = E.new_game(players, seed=11)
    size = 45 // players
    # seat 0 has already drawn its first card
    assert [len(pile) for pile in state.piles] == [size - 1] + [size] * (players - 1)
    assert len(state.removed) == 45 % players
    view = E.view(state, None)
    assert view["pile_sizes"] == [size - 1] + [size] * (players - 1)
    assert view["removed_count"] == 45 % players


def test_rule_deal_is_shuffled_by_the_seed() -> None:
    deals = {tuple(E.new_game(2, seed).piles[0]) for seed in range(5)}
    assert len(deals) == 5
    assert E.new_game(3, 9).piles == E.new_game(3, 9).piles


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_rule_nobody_may_look_at_any_pile_not_even_their_own(players: int) -> None:
    """Views and histories stay the same whatever the unseen cards are and in
    whatever order they lie: no pile's contents or order can be read."""
    state = E.new_game(players, seed=5)
    for _ in range(players + 1):
        E.apply(state, state.current, E.legal_actions(state, state.current)[0])
    before = {s: (E.view(state, s), E.history(state, s)) for s in [None, *range(players)]}
    hidden = [c for pile in state.piles for c in pile] + state.removed
    random.Random(1).shuffle(hidden)
    sizes = [len(pile) for pile in state.piles]
    state.piles = [[hidden.pop() for _ in range(size)] for size in sizes]
    state.removed = hidden
    after = {s: (E.view(state, s), E.history(state, s)) for s in [None, *range(players)]}
    assert before == after
    for seat in range(players):
        assert "piles" not in E.view(state, seat)


def test_rule_two_to_six_players() -> None:
    assert (E.min_players, E.max_players) == (2, 6)
    for players in (0, 1, 7):
        with pytest.raises(ValueError):
            E.new_game(players, seed=1)


# --------------------------------------------------------------------------- #
# The first player.
# --------------------------------------------------------------------------- #


def test_rule_first_player_draws_when_the_game_is_created_and_sees_it_alone() -> None:
    state = arrange(3, [[CB]])
    assert state.current == 0 and state.phase == "announce"
    view = E.view(state, 0)
    assert view["drawn_card"] == {"id": cid(*CB), "garment": "chemise", "colour": "bleu"}
    assert [e["type"] for e in state.log] == ["card_seen"]
    assert state.log[0]["to"] == [0]
    assert E.history(state, 0) == state.log
    assert E.history(state, 1) == [] and E.history(state, None) == []
    assert E.view(state, 1)["drawn_card"] is None
    assert E.view(state, None)["drawn_card"] is None


def test_rule_first_player_draws_at_creation_in_a_real_game() -> None:
    state = E.new_game(4, seed=8)
    assert types(state.log) == ["card_seen"]
    assert state.log[0]["card"]["id"] == state.drawn
    assert E.view(state, 0)["drawn_card"]["id"] == state.drawn


def test_rule_first_announcement_of_the_game_is_free() -> None:
    state = arrange(2, [[CB]])
    assert faces_of(E.legal_actions(state, 0)) == set(ALL_FACES)
    assert E.view(state, 0)["announcement_free"] is True
    events = announce(state, 0, "sabots", "jaune")
    assert events == [
        {
            "type": "card_laid",
            "seat": 0,
            "garment": "sabots",
            "colour": "jaune",
            "free": True,
            "doubtable": True,
        }
    ]


def test_rule_first_announcement_can_be_doubted() -> None:
    state = arrange(2, [[CB]])
    announce(state, 0, *CB)
    assert state.current == 1 and state.phase == "respond"
    assert E.legal_actions(state, 1) == [{"type": "doubt"}, {"type": "believe"}]
    assert E.view(state, 1)["can_doubt"] is True


# --------------------------------------------------------------------------- #
# Step 1: doubt or believe.
# --------------------------------------------------------------------------- #


def test_rule_doubting_reveals_the_previous_card_to_everyone() -> None:
    state = arrange(3, [[CB], [PR]])
    announce(state, 0, "chemise", "rouge")
    events = doubt(state, 1)
    assert events[0] == {
        "type": "doubted",
        "seat": 1,
        "target": 0,
        "card": {"id": cid(*CB), "garment": "chemise", "colour": "bleu"},
        "announced": {"garment": "chemise", "colour": "rouge"},
        "truthful": False,
    }
    for seat in [None, 0, 1, 2]:
        revealed = E.view(state, seat)["revealed"]
        assert [item["card"]["id"] for item in revealed] == [cid(*CB)]
        assert events[0] in E.history(state, seat)


def test_rule_doubting_a_true_announcement_gives_the_doubter_a_nose() -> None:
    state = arrange(2, [[CB], [PR]])
    announce(state, 0, *CB)
    events = doubt(state, 1)
    assert events[1] == {"type": "nose_taken", "seat": 1, "noses": 1, "reason": "wrong_doubt"}
    assert state.noses == [0, 1]


def test_rule_doubting_a_lie_gives_the_liar_a_nose() -> None:
    state = arrange(2, [[CB], [PR]])
    announce(state, 0, *CR)
    events = doubt(state, 1)
    assert events[1] == {"type": "nose_taken", "seat": 0, "noses": 1, "reason": "caught_lying"}
    assert state.noses == [1, 0]


@pytest.mark.parametrize("said", [CR, PB])
def test_rule_announcement_is_true_only_when_garment_and_colour_both_match(said: Face) -> None:
    state = arrange(2, [[CB], [PR]])
    announce(state, 0, *said)
    events = doubt(state, 1)
    assert events[0]["truthful"] is False
    assert state.noses == [1, 0]


def test_rule_believing_reveals_nothing_and_costs_nothing() -> None:
    state = arrange(2, [[CB], [PR]])
    announce(state, 0, *SJ)
    events = believe(state, 1)
    assert events[0] == {"type": "believed", "seat": 1, "target": 0}
    assert state.noses == [0, 0]
    assert E.view(state, None)["revealed"] == []
    assert E.view(state, 1)["revealed"] == []


def test_rule_step_one_is_doubt_or_believe_before_announcing() -> None:
    state = arrange(2, [[CB], [PR]])
    announce(state, 0, *CB)
    assert refused(state, 1, {"type": "announce", "garment": "chemise", "colour": "bleu"}) == (
        "respond_first"
    )
    assert E.view(state, 1)["drawn_card"] is None  # nothing drawn before step 1


# --------------------------------------------------------------------------- #
# Step 2: the automatic draw.
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("judge", [doubt, believe])
def test_rule_card_is_drawn_automatically_once_step_one_is_done(judge: Any) -> None:
    state = arrange(3, [[CB], [PR]])
    announce(state, 0, *CB)
    events = judge(state, 1)
    seen = events[-1]
    assert seen == {
        "type": "card_seen",
        "to": [1],
        "seat": 1,
        "card": {"id": cid(*PR), "garment": "pantalon", "colour": "rouge"},
    }
    assert state.phase == "announce" and state.current == 1
    assert drawn(state, 1) == PR
    assert seen in E.history(state, 1)
    assert seen not in E.history(state, 0) and seen not in E.history(state, None)
    assert E.view(state, 0)["drawn_card"] is None


def test_rule_card_is_drawn_at_turn_start_when_there_is_no_step_one() -> None:
    state = arrange(3, [[CB], [PR], [SJ]])
    announce(state, 0, *CB)
    doubt(state, 1)
    events = announce(state, 1, *BJ)  # free, cannot be doubted
    assert types(events) == ["card_laid", "card_seen"]
    assert state.current == 2 and state.phase == "announce"
    assert drawn(state, 2) == SJ


# --------------------------------------------------------------------------- #
# Step 3: lay and announce.
# --------------------------------------------------------------------------- #


def test_rule_announce_lays_the_drawn_card_and_announces_in_one_action() -> None:
    state = arrange(2, [[CB], [PR]])
    events = announce(state, 0, *SJ)
    assert types(events) == ["card_laid"]
    assert "card" not in events[0]  # the seat and the announcement only
    assert state.drawn is None
    assert [laid.card for laid in state.rangement] == [cid(*CB)]
    assert E.view(state, None)["rangement_count"] == 1
    assert E.view(state, None)["last_announcement"] == {
        "seat": 0,
        "garment": "sabots",
        "colour": "jaune",
        "doubtable": True,
    }


def test_rule_announcement_must_share_garment_or_colour_seven_possibilities() -> None:
    state = arrange(2, [[SJ], [PR]])
    announce(state, 0, *SJ)
    believe(state, 1)
    allowed = faces_of(E.legal_actions(state, 1))
    assert allowed == {SR, SB, SJ, BJ, NJ, CJ, PJ}
    for face in ALL_FACES:
        if face not in allowed:
            action = {"type": "announce", "garment": face[0], "colour": face[1]}
            assert refused(state, 1, action) == "must_follow"


def test_rule_a_player_may_be_forced_to_lie() -> None:
    state = arrange(2, [[SJ], [CB]])
    announce(state, 0, *SJ)
    believe(state, 1)
    assert drawn(state, 1) not in faces_of(E.legal_actions(state, 1))
    announce(state, 1, *PJ)
    assert card_face(state.rangement[-1].card) == CB


def test_rule_a_player_may_choose_to_lie() -> None:
    state = arrange(2, [[SJ], [SB]])
    announce(state, 0, *SJ)
    believe(state, 1)
    announce(state, 1, *SR)  # could have said "sabots bleu"
    assert doubt(state, 0)[0]["truthful"] is False
    assert state.noses == [0, 1]


def test_rule_after_a_doubt_the_announcement_is_free() -> None:
    state = arrange(2, [[SJ], [CB]])
    announce(state, 0, *SJ)
    doubt(state, 1)
    assert faces_of(E.legal_actions(state, 1)) == set(ALL_FACES)
    view = E.view(state, 1)
    assert view["announcement_free"] is True and view["announcement_doubtable"] is False


def test_rule_announcement_after_a_doubt_cannot_be_doubted() -> None:
    state = arrange(2, [[SJ], [CB], []])
    announce(state, 0, *SJ)
    doubt(state, 1)
    events = announce(state, 1, *BR)
    assert events[0]["doubtable"] is False and events[0]["free"] is True
    # the next player skips step 1: it has drawn already and may only announce
    assert state.phase == "announce" and state.current == 0
    assert refused(state, 0, {"type": "doubt"}) == "cannot_doubt"
    assert refused(state, 0, {"type": "believe"}) == "cannot_doubt"
    assert E.view(state, 0)["can_doubt"] is False


def test_rule_announcement_after_the_free_one_must_follow_it() -> None:
    state = arrange(2, [[SJ, PR], [CB]])
    announce(state, 0, *SJ)
    doubt(state, 1)
    announce(state, 1, *BR)
    assert faces_of(E.legal_actions(state, 0)) == {BR, BB, BJ, NR, CR, PR, SR}
    events = announce(state, 0, *PR)
    assert events[0]["doubtable"] is True and events[0]["free"] is False
    assert state.phase == "respond" and state.current == 1


def test_rule_turns_go_round_the_seats_in_order() -> None:
    state = E.new_game(4, seed=2)
    seats = []
    for _ in range(12):
        seat = state.current
        seats.append(seat)
        E.apply(state, seat, E.legal_actions(state, seat)[-1])  # believe / announce
    assert seats == [0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2]


# --------------------------------------------------------------------------- #
# The end.
# --------------------------------------------------------------------------- #


def play_until_last_card(players: int, seed: int) -> PinocchioState:
    """Believe everything, announcing the first legal face, until the last card
    of every pile is drawn and waits to be laid."""
    state = E.new_game(players, seed)
    while not (state.phase == "announce" and not any(state.piles)):
        E.apply(state, state.current, E.legal_actions(state, state.current)[-1])
    return state


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("judge", [doubt, believe])
def test_rule_end_next_player_may_still_doubt_the_last_announcement(
    players: int, judge: Any
) -> None:
    state = play_until_last_card(players, seed=players)
    last = state.current
    assert last == players - 1  # the even deal empties the piles in turn
    E.apply(state, last, E.legal_actions(state, last)[-1])
    assert not E.is_over(state)
    assert state.phase == "respond" and state.current == 0
    events = judge(state, 0)
    assert events[-1]["type"] == "game_over"
    assert "card_seen" not in types(events)
    assert E.is_over(state)
    view = E.view(state, None)
    assert view["over"] is True and view["current_seat"] is None
    assert all(E.legal_actions(state, s) == [] for s in range(players))
    assert refused(state, 0, {"type": "doubt"}) == "game_over"


def test_rule_end_at_once_when_the_last_announcement_cannot_be_doubted() -> None:
    state = E.new_game(2, seed=4)
    while not (state.phase == "respond" and len(state.piles[1]) == 1 and not state.piles[0]):
        E.apply(state, state.current, E.legal_actions(state, state.current)[-1])
    doubt(state, 1)  # seat 1 lays the last card freely: nobody may doubt it
    events = E.apply(state, 1, E.legal_actions(state, 1)[0])
    assert types(events) == ["card_laid", "game_over"]
    assert E.is_over(state)


def test_rule_every_card_is_laid_once_before_the_end() -> None:
    for players in PLAYER_COUNTS:
        state = play_until_last_card(players, seed=1)
        E.apply(state, state.current, E.legal_actions(state, state.current)[-1])
        believe(state, state.current)
        assert len(state.rangement) == (45 // players) * players


def test_rule_fewest_noses_wins_and_ties_share_the_win() -> None:
    state = play_until_last_card(4, seed=3)
    E.apply(state, 3, E.legal_actions(state, 3)[-1])
    state.noses = [2, 0, 3, 0]
    events = believe(state, 0)
    assert events[-1] == {
        "type": "game_over",
        "winners": [1, 3],
        "ranking": [1, 3, 0, 2],
        "noses": [2, 0, 3, 0],
    }
    assert E.result(state) == {"winners": [1, 3], "ranking": [1, 3, 0, 2], "scores": [2, 0, 3, 0]}
    assert shared_win(E.result(state), 4) == [0.0, 0.5, 0.0, 0.5]


def test_house_rule_noses_have_no_limit() -> None:
    state = arrange(2, [[SR, SR, SR, CR], [PR, PR, PR]])
    for _ in range(3):
        announce(state, 0, *SR)  # true: the doubter pays each time
        doubt(state, 1)
        announce(state, 1, *PR)  # cannot be doubted: seat 0 draws at once
    assert state.noses == [0, 3]
    state.noses = [0, 40]
    announce(state, 0, *CR)
    doubt(state, 1)
    assert state.noses == [0, 41]


def test_house_rule_result_before_the_end_has_no_winner() -> None:
    state = E.new_game(3, seed=1)
    assert E.result(state) == {"winners": [], "ranking": [0, 1, 2], "scores": [0, 0, 0]}


# --------------------------------------------------------------------------- #
# House rule: a seat whose pile is empty while others still hold cards.
# --------------------------------------------------------------------------- #


def test_house_rule_empty_pile_judges_then_is_skipped_and_next_follows() -> None:
    state = arrange(3, [[CB], [], [PR]])
    state.piles[1] = []
    announce(state, 0, *CB)
    assert state.phase == "respond" and state.current == 1  # it still judges
    events = believe(state, 1)
    assert types(events) == ["believed", "card_seen"]
    assert state.current == 2 and state.phase == "announce"  # no step 1 for seat 2
    assert faces_of(E.legal_actions(state, 2)) == {CR, CB, CJ, BB, NB, PB, SB}
    announce(state, 2, *PB)
    assert state.phase == "respond" and state.current == 0


def test_house_rule_empty_pile_doubter_passes_the_free_announcement_on() -> None:
    state = arrange(3, [[CB], [], [PR]])
    state.piles[1] = []
    announce(state, 0, *CR)
    events = doubt(state, 1)
    assert types(events) == ["doubted", "nose_taken", "card_seen"]
    assert state.current == 2
    assert faces_of(E.legal_actions(state, 2)) == set(ALL_FACES)
    announce(state, 2, *SJ)
    assert state.phase == "announce" and state.current == 0  # not doubtable: seat 0 draws


def test_house_rule_empty_pile_is_skipped_after_an_undoubtable_announcement() -> None:
    state = arrange(3, [[CB, SR], [], [PR]])
    state.piles[1] = []
    state.piles[2] = []
    announce(state, 0, *CR)
    doubt(state, 1)  # seat 1 cannot lay, seat 2 neither: seat 0 lays freely
    assert state.current == 0 and faces_of(E.legal_actions(state, 0)) == set(ALL_FACES)


# --------------------------------------------------------------------------- #
# Views.
# --------------------------------------------------------------------------- #


def test_view_holds_the_sheets_keys() -> None:
    state = arrange(3, [[CB], [PR]])
    announce(state, 0, *CR)
    doubt(state, 1)
    view = E.view(state, 2)
    assert view == {
        "seat": 2,
        "players": 3,
        "current_seat": 1,
        "over": False,
        "phase": "announce",
        "pile_sizes": [14, 14, 15],
        "removed_count": 0,
        "rangement_count": 1,
        "last_announcement": {
            "seat": 0,
            "garment": "chemise",
            "colour": "rouge",
            "doubtable": True,
        },
        "can_doubt": False,
        "announcement_free": True,
        "announcement_doubtable": False,
        "noses": [1, 0, 0],
        "revealed": [
            {
                "seat": 0,
                "card": {"id": cid(*CB), "garment": "chemise", "colour": "bleu"},
                "announced": {"garment": "chemise", "colour": "rouge"},
                "doubted_by": 1,
            }
        ],
        "drawn_card": None,
        "my_last_laid": None,
        "words_language": "fr",
    }
    assert json.loads(json.dumps(view)) == view


def test_view_shows_the_card_a_seat_laid_last_until_it_is_revealed() -> None:
    state = arrange(2, [[CB, SJ], [PR]])
    announce(state, 0, *CR)
    assert E.view(state, 0)["my_last_laid"] == {
        "id": cid(*CB),
        "garment": "chemise",
        "colour": "bleu",
    }
    assert E.view(state, 1)["my_last_laid"] is None
    assert E.view(state, None)["my_last_laid"] is None
    believe(state, 1)
    announce(state, 1, *PR)
    assert E.view(state, 0)["my_last_laid"]["id"] == cid(*CB)
    assert E.view(state, 1)["my_last_laid"]["id"] == cid(*PR)
    doubt(state, 0)
    assert E.view(state, 1)["my_last_laid"] is None  # revealed: now in "revealed"
    announce(state, 0, *SJ)
    assert E.view(state, 0)["my_last_laid"]["id"] == cid(*SJ)  # only the last one


def test_laid_card_stays_hidden_from_everyone_but_its_layer_until_doubted() -> None:
    state = arrange(3, [[CB], [PR]])
    announce(state, 0, *SJ)
    believe(state, 1)
    hidden = cid(*CB)
    for seat in (None, 1, 2):
        assert hidden not in card_ids(E.view(state, seat))
        assert hidden not in card_ids(E.history(state, seat))
    assert hidden in card_ids(E.view(state, 0))


def test_laid_card_is_public_once_doubted() -> None:
    state = arrange(3, [[CB], [PR]])
    announce(state, 0, *SJ)
    doubt(state, 1)
    for seat in (None, 0, 1, 2):
        assert cid(*CB) in card_ids(E.view(state, seat)["revealed"])
        assert cid(*CB) in card_ids(E.history(state, seat))


def test_contract_views_and_json_are_copies() -> None:
    state = arrange(2, [[CB], [PR]])
    announce(state, 0, *CR)
    doubt(state, 1)
    view = E.view(state, 0)
    view["revealed"][0]["card"]["garment"] = "sabots"
    view["noses"][0] = 9
    data = E.to_json(state)
    data["log"][2]["card"]["id"] = 44
    data["piles"][0].clear()
    assert E.view(state, 0)["revealed"][0]["card"]["garment"] == "chemise"
    assert state.log[2]["card"]["id"] == cid(*CB)
    assert state.piles[0]


# --------------------------------------------------------------------------- #
# Options, errors, contract.
# --------------------------------------------------------------------------- #


def test_option_words_language_is_stored_for_the_ui() -> None:
    assert E.option_schema() == [
        {"key": "words_language", "type": "choice", "default": "fr", "choices": ["fr", "de", "en"]}
    ]
    for language in ("fr", "de", "en"):
        state = E.new_game(2, 1, {"words_language": language})
        assert E.view(state, 0)["words_language"] == language
        assert E.view(state, None)["words_language"] == language
    # the language changes nothing else
    assert E.new_game(2, 1, {"words_language": "de"}).piles == E.new_game(2, 1).piles
    for bad in ("it", 3, None):
        with pytest.raises(ValueError):
            E.validate_options({"words_language": bad})
    with pytest.raises(ValueError):
        E.validate_options({"noses_limit": 5})


def test_contract_errors_have_stable_codes() -> None:
    state = arrange(2, [[SJ], [CB]])
    assert refused(state, 1, {"type": "announce", "garment": "bonnet", "colour": "rouge"}) == (
        "not_your_turn"
    )
    assert refused(state, 0, {"type": "doubt"}) == "cannot_doubt"
    announce(state, 0, *SJ)
    assert refused(state, 0, {"type": "believe"}) == "not_your_turn"
    assert refused(state, 1, {"type": "announce", "garment": "bonnet", "colour": "rouge"}) == (
        "respond_first"
    )
    believe(state, 1)
    assert refused(state, 1, {"type": "announce", "garment": "bonnet", "colour": "rouge"}) == (
        "must_follow"
    )
    for bad in (
        None,
        [],
        "doubt",
        {"type": "announce", "garment": "bonnet"},
        {"type": "announce", "garment": "Bonnet", "colour": "rouge"},
        {"type": "announce", "garment": "bonnet", "colour": 3},
        {"type": "announce", "garment": ["bonnet"], "colour": "rouge"},
        {"type": "lay"},
        {"type": True},
        {str(i): i for i in range(20)},
    ):
        assert refused(state, 1, bad) == "malformed"
    for seat in (-1, 2, True, "1", None, 1.0):
        assert refused(state, seat, {"type": "doubt"}) == "malformed"


def test_contract_legal_actions_only_for_the_current_seat() -> None:
    state = arrange(3, [[SJ], [CB]])
    assert E.legal_actions(state, 1) == [] and E.legal_actions(state, 2) == []
    assert len(E.legal_actions(state, 0)) == 15
    for action in E.legal_actions(state, 0):
        assert set(action) == {"type", "garment", "colour"}


def test_game_stats_count_lays_lies_and_doubts() -> None:
    state = arrange(2, [[SJ, PR], [CB]])
    announce(state, 0, *SJ)  # true
    doubt(state, 1)  # wrong doubt
    announce(state, 1, *SR)  # a (free) lie
    announce(state, 0, *SB)  # lie
    doubt(state, 1)  # caught
    assert E.game_stats(state) == {
        "game": {"lays": 3, "doubts": 2, "lies": 1, "noses": 2},
        "seat": {
            "lays": [2, 1],
            "doubtable_lays": [2, 0],
            "lies": [1, 0],  # a free announcement after a doubt is no risky lie
            "bluffs": [1, 1],  # ... but it still differed from its card
            "caught": [1, 0],
            "doubts": [0, 2],
            "good_doubts": [0, 1],
            "judgements": [0, 2],
        },
    }
    labels = {label for label, _, _ in E.stat_ratios}
    assert {"doubt rate", "lie rate when doubtable"} <= labels


# --------------------------------------------------------------------------- #
# Bots.
# --------------------------------------------------------------------------- #


def ask(level: str, state: PinocchioState, seed: int = 0) -> dict[str, Any]:
    seat = state.current
    action = E.bot(level)(
        E.view(state, seat),
        E.legal_actions(state, seat),
        random.Random(seed),
        E.history(state, seat),
    )
    assert action is not None
    return action


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_bots_easy_and_medium_announce_truthfully_when_they_can(level: str) -> None:
    for seed in range(10):
        state = arrange(2, [[SJ], [SB]])
        announce(state, 0, *SJ)
        believe(state, 1)
        assert ask(level, state, seed) == {
            "type": "announce",
            "garment": "sabots",
            "colour": "bleu",
        }


@pytest.mark.parametrize("level", LEVELS)
def test_bots_lie_when_they_must(level: str) -> None:
    for seed in range(10):
        state = arrange(2, [[SJ], [CB]])
        announce(state, 0, *SJ)
        believe(state, 1)
        action = ask(level, state, seed)
        assert action in E.legal_actions(state, 1)
        assert (action["garment"], action["colour"]) != CB


def test_bot_easy_doubts_at_a_sensible_rate() -> None:
    doubts = 0
    for seed in range(200):
        state = arrange(2, [[SJ], [CB]])
        announce(state, 0, *SJ)
        doubts += ask("easy", state, seed)["type"] == "doubt"
    assert 30 <= doubts <= 100


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_bots_medium_and_hard_doubt_an_announcement_they_know_is_false(level: str) -> None:
    # seat 1 drew two "sabots jaune" itself and the third was revealed: the
    # announcement cannot be true
    state = arrange(2, [[SJ, CB, PR], [SJ, SJ, BB]])
    announce(state, 0, *SJ)
    doubt(state, 1)  # wrong doubt: seat 1 sees sabots jaune revealed
    announce(state, 1, *BB)
    announce(state, 0, *BB)
    believe(state, 1)
    announce(state, 1, *SB)
    believe(state, 0)
    announce(state, 0, *SJ)
    assert ask(level, state) == {"type": "doubt"}


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_bots_medium_and_hard_believe_a_likely_announcement(level: str) -> None:
    # a free-looking first announcement of a face nobody has seen: no reason to doubt
    believed = 0
    for seed in range(20):
        state = arrange(2, [[SJ], [CB]], seed=seed)
        announce(state, 0, *SJ)
        believed += ask(level, state, seed)["type"] == "believe"
    assert believed >= 15


def test_bot_hard_announces_to_make_the_next_player_lie() -> None:
    # After its doubt, hard announces freely. It knows one "sabots jaune"
    # (revealed) and one "chemise bleu" (drawn) are gone, so the faces that the
    # fewest unknown cards can follow share sabots or jaune AND chemise or bleu.
    for seed in range(10):
        state = arrange(2, [[SJ], [CB]])
        announce(state, 0, *SJ)
        doubt(state, 1)
        action = ask("hard", state, seed)
        assert (action["garment"], action["colour"]) in {SB, CJ}


def test_bot_hard_sometimes_bluffs_against_a_trusting_judge() -> None:
    bluffs = 0
    for seed in range(200):
        state = arrange(2, [[SJ, SB, SR], [SB, SR, BR]])
        for _ in range(5):  # seat 0 believes everything: a trusting judge
            announce(state, state.current, *drawn(state, state.current))
            believe(state, state.current)
        assert state.current == 1 and drawn(state, 1) == BR
        action = ask("hard", state, seed)
        bluffs += (action["garment"], action["colour"]) != BR
    assert 5 <= bluffs <= 80


def test_bots_use_only_their_view_and_history() -> None:
    state = E.new_game(3, seed=6)
    for level in LEVELS:
        bot = E.bot(level)
        seat = state.current
        view = json.loads(json.dumps(E.view(state, seat)))
        history = json.loads(json.dumps(E.history(state, seat)))
        action = bot(view, E.legal_actions(state, seat), random.Random(1), history)
        assert action in E.legal_actions(state, seat)
        assert bot(E.view(state, 1), [], random.Random(1), []) is None


def test_bot_levels_are_checked() -> None:
    with pytest.raises(ValueError):
        E.bot("grandmaster")


# --------------------------------------------------------------------------- #
# Properties of docs/engine-contract.md, for every player count.
# --------------------------------------------------------------------------- #


def random_action(state: PinocchioState, rng: random.Random) -> tuple[int, dict[str, Any]]:
    seat = state.current
    legal = E.legal_actions(state, seat)
    if legal[0]["type"] == "doubt":
        return seat, legal[0] if rng.random() < 0.4 else legal[1]
    return seat, dict(rng.choice(legal))


def random_game(state: PinocchioState, rng: random.Random, steps: int) -> Iterator[properties.Step]:
    return properties.random_game(E, state, rng, steps, random_action)


def card_ids(data: Any) -> set[int]:
    return properties.card_ids(data, lambda card: set(card) == {"id", "garment", "colour"})


def assert_conserved(state: PinocchioState) -> None:
    places = [c for pile in state.piles for c in pile] + state.removed
    places += [laid.card for laid in state.rangement]
    places += [] if state.drawn is None else [state.drawn]
    assert sorted(places) == list(range(DECK_SIZE)), "a card is missing or in two places"


def seen_by(state: PinocchioState, seat: int | None) -> set[int]:
    """The cards a seat may know: revealed ones and the ones it drew itself."""
    known = {laid.card for laid in state.rangement if laid.revealed}
    if seat is not None:
        known |= {
            e["card"]["id"] for e in state.log if e["type"] == "card_seen" and e["seat"] == seat
        }
    return known


def assert_no_leak(state: PinocchioState) -> None:
    in_piles = {c for pile in state.piles for c in pile} | set(state.removed)
    for seat in [None, *range(state.players)]:
        view = json.loads(json.dumps(E.view(state, seat)))
        shown = card_ids(view) | card_ids(E.history(state, seat))
        assert shown <= seen_by(state, seat)
        # a laid card is hidden from all but its layer until it is doubted
        for laid in state.rangement:
            if not laid.revealed and laid.seat != seat:
                assert laid.card not in shown
        # no pile card, the seat's own included
        assert not shown & in_piles
        if seat is not None and state.drawn is not None and state.current == seat:
            assert view["drawn_card"]["id"] == state.drawn
        else:
            assert view["drawn_card"] is None


def assert_piles_unreadable(state: PinocchioState, rng: random.Random) -> None:
    """Reshuffling every unseen card (pile order and contents) changes no view
    and no history."""
    seats = [None, *range(state.players)]
    before = [(E.view(state, s), E.history(state, s)) for s in seats]
    other = E.from_json(E.to_json(state))
    hidden = [c for pile in other.piles for c in pile] + other.removed
    rng.shuffle(hidden)
    other.piles = [[hidden.pop() for _ in pile] for pile in other.piles]
    other.removed = hidden
    assert [(E.view(other, s), E.history(other, s)) for s in seats] == before


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32))
def test_property_1_determinism(players: int, seed: int) -> None:
    runs = []
    for _ in range(2):
        state = E.new_game(players, seed)
        events = [e for _, _, e in random_game(state, random.Random(seed), 200)]
        runs.append((events, E.to_json(state)))
    assert runs[0] == runs[1]
    assert E.is_over(E.from_json(runs[0][1]))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 90))
def test_property_2_json_round_trip(players: int, seed: int, cut: int) -> None:
    state = E.new_game(players, seed)
    rng = random.Random(seed)
    data = E.to_json(state)
    assert E.to_json(E.from_json(json.loads(json.dumps(data)))) == data
    for step, _ in enumerate(random_game(state, rng, 200)):
        data = E.to_json(state)
        assert json.loads(json.dumps(data)) == data
        copy = E.from_json(json.loads(json.dumps(data)))
        assert E.to_json(copy) == data
        if step == cut:
            # the copy carries on exactly like the original
            original = [e for _, _, e in random_game(E.from_json(data), random.Random(step), 200)]
            continued = [e for _, _, e in random_game(copy, random.Random(step), 200)]
            assert original == continued
            assert E.to_json(copy)["log"] == data["log"] + [e for es in original for e in es]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32))
def test_property_3_conservation(players: int, seed: int) -> None:
    state = E.new_game(players, seed)
    assert_conserved(state)
    for _ in random_game(state, random.Random(seed), 200):
        assert_conserved(state)
    assert E.is_over(state)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32))
def test_property_4_no_leak(players: int, seed: int) -> None:
    state = E.new_game(players, seed)
    rng = random.Random(seed)
    assert_no_leak(state)
    assert_piles_unreadable(state, rng)
    for step, _ in enumerate(random_game(state, rng, 200)):
        assert_no_leak(state)
        if step % 7 == 0:
            assert_piles_unreadable(state, rng)


def malformed_actions() -> st.SearchStrategy[Any]:
    return st.one_of(
        JUNK,
        st.fixed_dictionaries({"type": JUNK}),
        st.fixed_dictionaries(
            {"type": st.just("announce"), "garment": JUNK, "colour": st.sampled_from(COLOURS)}
        ),
        st.fixed_dictionaries(
            {"type": st.just("announce"), "garment": st.sampled_from(GARMENTS), "colour": JUNK}
        ),
        st.fixed_dictionaries({"type": st.sampled_from(["doubt", "believe", "announce", "lay"])}),
        st.fixed_dictionaries(
            {
                "type": st.just("announce"),
                "garment": st.sampled_from(GARMENTS),
                "colour": st.sampled_from(COLOURS),
            }
        ),
        OVERSIZED,
    )


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@properties.property_settings(10)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 100), data=st.data())
def test_property_5_rejection_is_clean(
    players: int, seed: int, steps: int, data: st.DataObject
) -> None:
    state = E.new_game(players, seed)
    for _ in random_game(state, random.Random(seed), steps):
        pass
    before = E.to_json(state)
    attempts: list[tuple[Any, Any]] = [
        ((state.current + 1) % players, {"type": "doubt"}),
        (
            (state.current + 1) % players,
            {"type": "announce", "garment": "bonnet", "colour": "bleu"},
        ),
        (players, {"type": "believe"}),
        (None, {"type": "believe"}),
    ]
    for _ in range(6):
        attempts.append((data.draw(st.integers(-1, players)), data.draw(malformed_actions())))
    for seat, action in attempts:
        legal = E.legal_actions(state, seat) if seat in range(players) else []
        if isinstance(seat, int) and not isinstance(seat, bool) and action in legal:
            continue  # the drawn action happens to be legal
        with pytest.raises(IllegalAction) as error:
            E.apply(state, seat, action)
        assert error.value.code and error.value.message
        assert E.to_json(state) == before


LAY_AND_JUDGE_BOUND = 2 * DECK_SIZE  # every card laid once, each judged at most once


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("level", LEVELS)
def test_property_6_termination(players: int, level: str) -> None:
    for game in range(4):
        levels = [level, *random.Random(game).sample(LEVELS, 3)]
        played = play_bots(E, players, game, levels, max_actions=LAY_AND_JUDGE_BOUND)
        assert not played.stalled, f"no end within {LAY_AND_JUDGE_BOUND} actions"
        assert E.is_over(played.state)
        assert len(played.state.rangement) == (DECK_SIZE // players) * players


def mean_noses(players: int, games: int, opponent: str = "easy") -> tuple[float, float, float]:
    """Mean noses of the hard seat and of the others, and the hard seat's win
    share; the hard seat rotates so it has no first-player advantage."""
    hard = others = share = 0.0
    for game in range(games):
        levels = [opponent] * players
        levels[game % players] = "hard"
        played = play_bots(E, players, 20_000 + game, levels)
        noses = played.state.noses
        hard += noses[game % players]
        others += (sum(noses) - noses[game % players]) / (players - 1)
        share += shared_win(E.result(played.state), players)[game % players]
    return hard / games, others / games, share / games


def test_property_7_bots_beat_chance() -> None:
    # the 1,000-game figures come from the simulate command
    hard, easy, share = mean_noses(2, 100)
    assert hard < 0.7 * easy and share > 0.8
    hard, easy, share = mean_noses(4, 150)
    assert hard < 0.95 * easy and share > 0.25


# --------------------------------------------------------------------------- #
# Purity and registry.
# --------------------------------------------------------------------------- #


def test_registry_finds_the_engine() -> None:
    from cardgames import engines

    assert engines.get("pinocchio") is ENGINE
    assert (E.name, E.min_players, E.max_players, E.simultaneous) == ("pinocchio", 2, 6, False)
