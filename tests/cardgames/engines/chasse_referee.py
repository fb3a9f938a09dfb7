"""A rules referee for La Chasse aux Souris, written from the rule sheet alone.

It replays a game's public event log with its own bookkeeping (total, tokens,
direction, whose turn) and fails on the first event the sheet does not allow,
so a change in how cards are dealt (targeted cards, ``focus``) can be checked
against the rules rather than against the engine's own arithmetic. Used by the
focus tests and by ``benchmarks/bench_focus.py``.

What it checks, rule by rule (the numbers of the rule sheet):

* 1-2: every round starts at 0, the first round with seat 0, a later one with
  the loser of the previous round, and play goes round in increasing order;
* 3: the seat that plays is the one whose turn it is; a card's face is one of
  the sheet's (``a + b`` = value, sommes 2..20, the four specials); an addition
  adds its value, a somme subtracts a number smaller than the total, a special
  leaves it; ``correct`` says whether the announcement equals the new total;
* 4-5: a token is lost for a multiple of ten below the target, or for reaching
  the target (which ends the round), and for nothing else but a wrong
  announcement in strict mode (rule 6), in the order of rule 7, never below 0;
* specials: Demi-tour reverses the direction, Saut skips the next seat,
  Rejoue plays again;
* 8: the game ends as soon as a seat has no token left, the winners have the
  most tokens.

``check_hands`` and ``check_discard`` add what the log cannot show: hands hold
``hand_size`` cards, every card is in one place, the deck is the sheet's, and a
discard happens only when no card could be played.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardgames.engines.chasse import CARD_TYPES, KIND, SUB, VALUE

EFFECTS = {"sleep", "reverse", "skip", "again"}


class RuleBroken(AssertionError):
    pass


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise RuleBroken(message)


def _check_card(card: dict[str, Any]) -> None:
    kind = card["kind"]
    if kind == "add":
        _check(1 <= card["a"] <= 10 and 1 <= card["b"] <= 10, f"bad addition {card}")
        _check(card["value"] == card["a"] + card["b"], f"addition value {card}")
    elif kind == "sub":
        _check(2 <= card["value"] <= 20 and card["a"] is None, f"bad somme {card}")
    else:
        _check(kind == "special" and card["effect"] in EFFECTS, f"bad special {card}")
        _check(card["value"] == 0, f"special with a value {card}")


def referee(log: list[dict[str, Any]], players: int, options: dict[str, Any]) -> int:
    """Replay ``log`` and raise ``RuleBroken`` on the first illegal event.
    Returns the number of cards played."""
    target = int(options.get("target", 100))
    strict = options.get("wrong_announcement", "coach") == "strict"
    tokens = [int(options.get("tokens", 3))] * players
    total = 0
    direction = 1
    current: int | None = None
    expected_first = 0
    rounds = 0
    plays = 0
    pending: list[tuple[int, str]] = []  # token losses the last play must produce
    round_over_due: int | None = None
    game_over_due = False
    over = False
    next_seat: int | None = None
    for index, event in enumerate(log):
        kind = event["type"]
        where = f"event {index} ({kind})"
        _check(not over, f"{where} after game_over")
        if pending and kind != "token_lost":
            raise RuleBroken(f"{where}: expected token_lost {pending[0]}")
        if kind == "token_lost":
            _check(bool(pending), f"{where}: a token lost for nothing")
            seat, reason = pending.pop(0)
            _check((event["seat"], event["reason"]) == (seat, reason), f"{where}: {event}")
            tokens[seat] -= 1
            _check(event["tokens_left"] == tokens[seat] >= 0, f"{where}: token count")
            if tokens[seat] == 0:
                game_over_due = True
                # rule 7: no further penalty once at 0
                pending = [p for p in pending if p[0] != seat]
            continue
        if round_over_due is not None:
            _check(kind == "round_over", f"{where}: round_over expected")
            _check(
                (event["round"], event["loser"], event["total"]) == (rounds, round_over_due, total),
                f"{where}: {event}",
            )
            expected_first = round_over_due
            round_over_due = None
            continue
        if game_over_due:
            _check(kind == "game_over", f"{where}: game_over expected")
            best = max(tokens)
            _check(event["tokens"] == tokens, f"{where}: tokens {event['tokens']} != {tokens}")
            _check(
                event["winners"] == [s for s, t in enumerate(tokens) if t == best],
                f"{where}: winners",
            )
            over = True
            continue
        if kind == "round_started":
            rounds += 1
            _check(event["round"] == rounds, f"{where}: round number")
            _check(event["first_seat"] == expected_first, f"{where}: first seat")
            total, direction, current = 0, 1, expected_first
            next_seat = None
            continue
        if next_seat is not None:
            current, next_seat = next_seat, None
        if kind == "direction_changed":
            _check(event["direction"] == direction, f"{where}: direction")
            continue
        if kind == "turn_skipped":
            continue
        _check(kind in ("card_played", "card_discarded"), f"{where}: unknown event")
        seat = event["seat"]
        _check(seat == current, f"{where}: seat {seat} played out of turn ({current})")
        card = event["card"]
        _check_card(card)
        if kind == "card_discarded":
            next_seat = (seat + direction) % players
            continue
        plays += 1
        _check(event["before"] == total, f"{where}: before {event['before']} != {total}")
        value = card["value"]
        if card["kind"] == "add":
            after = total + value
        elif card["kind"] == "sub":
            _check(value < total, f"{where}: somme {value} not smaller than {total}")
            after = total - value
        else:
            after = total
        _check(event["after"] == after, f"{where}: after {event['after']} != {after}")
        announced = event["announced"]
        if announced is None:
            _check(event["correct"] is None, f"{where}: correct without announcement")
        else:
            _check(card["kind"] != "special", f"{where}: a special announced")
            _check(event["correct"] == (announced == after), f"{where}: correct flag")
        total = after
        step = direction
        following = (seat + step) % players
        if card["kind"] == "special":
            effect = card["effect"]
            if effect == "reverse":
                direction = -direction
                following = (seat + direction) % players
            elif effect == "skip":
                following = (seat + 2 * step) % players
            elif effect == "again":
                following = seat
        else:
            if after >= target:
                pending.append((seat, "reached_target"))
                round_over_due = seat
            elif after % 10 == 0:
                pending.append((seat, "multiple_of_ten"))
            if event["correct"] is False and strict:
                pending.append((seat, "wrong_announcement"))
            pending = [p for p in pending if tokens[p[0]] > 0]
        next_seat = following
    _check(not pending, "a token loss is missing at the end of the log")
    return plays


def check_hands(state: Any) -> None:
    """Hand sizes, every card in one place, and the sheet's deck (targeted
    cards change who draws what, never which cards exist)."""
    cards = [c for hand in state.hands for c in hand] + state.draw_pile + state.played
    _check(len(cards) == len(set(cards)), "a card id is in two places")
    _check(
        Counter(c % CARD_TYPES for c in cards) == Counter(state.deck),
        "the cards in play are not the deck",
    )
    if not state.over:
        size = int(state.options["hand_size"])
        _check(all(len(hand) == size for hand in state.hands), "a hand has the wrong size")


def check_discard(hand_before: list[int], total_before: int, action: dict[str, Any]) -> None:
    """A discard is legal only when no card of the hand could be played."""
    if action.get("type") != "discard":
        return
    for card in hand_before:
        index = card % CARD_TYPES
        _check(
            KIND[index] == SUB and VALUE[index] >= total_before,
            f"discard while card {card} could be played on {total_before}",
        )
