"""Finding 15: a Chasse refusal never depends on another seat's secrets.

At every step of random games, each seat probes every card id of the game
(and ids that name no card): anything outside its own hand — a card in another
hand, in the draw pile, already played, or no card at all — gets exactly the
same refusal code and message."""

from __future__ import annotations

import random

from cardgames.engines.base import MAX_ABS_INT, IllegalAction
from cardgames.engines.chasse import ENGINE as E


def _refusal(state, seat: int, card: int) -> tuple[str, str]:
    try:
        E.apply(E.from_json(E.to_json(state)), seat, {"type": "play", "card": card, "announce": 0})
    except IllegalAction as exc:
        return exc.code, str(exc)
    raise AssertionError("a card outside the hand was accepted")


def test_15_refusals_are_the_same_for_unknown_ids_and_other_seats_cards() -> None:
    rng = random.Random(15)
    for game in range(6):
        state = E.new_game(3, seed=game, options={"hand_size": 3})
        for _step in range(40):
            if E.is_over(state):
                break
            seat = E.view(state, None)["current_seat"]
            mine = set(state.hands[seat])
            others = {c for s, h in enumerate(state.hands) if s != seat for c in h}
            probes = sorted(others)[:6] + sorted(state.draw_pile)[:6] + sorted(state.played)[:3]
            probes += [max(mine | others) + 1, MAX_ABS_INT, -1, 137 * 3 + 5]
            answers = {_refusal(state, seat, card) for card in probes if card not in mine}
            assert len(answers) == 1, answers
            assert answers.pop()[0] == "card_not_in_hand"
            action = dict(rng.choice(E.legal_actions(state, seat)))
            if action.get("announce") == "int":
                card = next(c for c in E.view(state, seat)["hand"] if c["id"] == action["card"])
                sign = {"add": 1, "sub": -1}.get(card["kind"], 0)
                action["announce"] = state.total + sign * card["value"]
            E.apply(state, seat, action)
