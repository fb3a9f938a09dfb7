"""Picktura's tablet form → an engine action.

The form says which move (``move``) and which cards, exhibit and piles; it
only checks the strings make sense (``malformed``, ``no_cards``...). Whose
turn it is, which cards may go together and how many draws a lay needs are the
engine's to judge, like any other input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgames.engines.base import IllegalAction
from cardgames.engines.picktura import PILES
from cardgames.parsing import whole_number

LAYS = ("exhibit", "complete", "blank", "replace_blank")
MOVES = ("collect", "discard", *LAYS)
MAX_CARDS = 4


def _number(raw: Any, what: str) -> int:
    number = whole_number(raw, max_digits=4)
    if number is None:
        raise IllegalAction("malformed", f"Bad {what}.")
    return number


def _items(raw: Any) -> list[Any]:
    """A repeated form field: a list, one value, or "a,b,c"."""
    if raw is None or raw == "":
        return []
    if isinstance(raw, list):
        return raw
    if isinstance(raw, str):
        return [part for part in raw.split(",") if part.strip()]
    return [raw]


def _cards(raw: Any) -> list[int]:
    items = _items(raw)
    if len(items) > MAX_CARDS:
        raise IllegalAction("malformed", "Too many cards.")
    cards: list[int] = []
    for item in items:
        card = _number(item, "card")
        if card not in cards:
            cards.append(card)
    return cards


def _draws(raw: Any) -> list[str]:
    items = _items(raw)
    if len(items) > MAX_CARDS + 1:
        raise IllegalAction("malformed", "Too many draws.")
    draws = [item.strip() if isinstance(item, str) else item for item in items]
    if any(draw not in PILES for draw in draws):
        raise IllegalAction("malformed", "A draw names a pile.")
    return draws


def form_to_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """The tablet's form → an engine action. ``move`` names the action; the
    engine judges everything else (whose turn, which cards, how many draws)."""
    move = data.get("move")
    if move not in MOVES:
        raise IllegalAction("malformed", "Unknown move.")
    if move == "collect":
        pile = data.get("from")
        if pile not in PILES:
            raise IllegalAction("malformed", "Collect from a pile.")
        return {"type": "collect", "from": pile}
    if move == "discard":
        cards = _cards(data.get("card"))
        if len(cards) != 1:
            # Two cards named (a hand-made message): "tap cards first" was false.
            raise IllegalAction("discard_one" if cards else "no_cards", "Discard one card.")
        return {"type": "discard", "card": cards[0]}
    action: dict[str, Any] = {"type": move}
    if move != "exhibit":
        action["exhibit"] = _number(data.get("exhibit"), "exhibit")
    if move in ("exhibit", "complete"):
        cards = _cards(data.get("cards"))
        if not cards:
            raise IllegalAction("no_cards", "No card chosen.")
        action["cards"] = cards
    else:
        cards = _cards(data.get("card"))
        if len(cards) != 1:
            raise IllegalAction("no_cards", "One card.")
        action["card"] = cards[0]
    action["draw_from"] = _draws(data.get("draw_from"))
    return action
