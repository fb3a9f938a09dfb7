"""Purrfect's tablet form → an engine action: offer cards, accept an offer
with as many cards, withdraw one's offer, or claim "Purrfect!". The engine
judges the rest (same cat, the count the meow asks)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgames.engines.base import IllegalAction
from cardgames.engines.purrfect import POSES
from cardgames.parsing import whole_number


def _whole(raw: Any) -> int | None:
    number = whole_number(raw, max_digits=6)
    return number if number is not None and number >= 0 else None


def _cards(raw: Any) -> list[int]:
    """The tapped cards: a list (checkboxes), one value, or "3,5,7"."""
    if raw is None or raw == "":
        return []
    items: list[Any]
    if isinstance(raw, list):
        items = raw
    elif isinstance(raw, str):
        items = raw.split(",")
    else:
        items = [raw]
    if len(items) > POSES:
        raise IllegalAction("malformed", "Too many cards.")
    cards: list[int] = []
    for item in items:
        number = _whole(item)
        if number is None:
            raise IllegalAction("malformed", "Bad card.")
        if number not in cards:
            cards.append(number)
    return cards


def form_to_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """The tablet's form → an engine action.

    ``move`` is ``offer``, ``accept``, ``withdraw`` or ``claim``. The trade form
    may leave it out: an offer chosen on the table means "accept", otherwise
    the tapped cards are offered. The engine judges the rest (same cat, count)."""
    move = data.get("move") or ""
    if move in ("withdraw", "claim"):
        return {"type": move}
    offer_raw = data.get("offer")
    offer = None if offer_raw in (None, "") else _whole(offer_raw)
    if offer_raw not in (None, "") and offer is None:
        raise IllegalAction("malformed", "Bad offer.")
    if move == "":
        move = "accept" if offer is not None else "offer"
    if move not in ("offer", "accept"):
        raise IllegalAction("malformed", "Unknown move.")
    cards = _cards(data.get("cards"))
    if not cards:
        raise IllegalAction("no_cards", "No card chosen.")
    if move == "offer":
        return {"type": "offer", "cards": cards}
    if offer is None:
        raise IllegalAction("malformed", "No offer.")
    return {"type": "accept", "offer": offer, "cards": cards}
