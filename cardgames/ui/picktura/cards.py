"""What draws Picktura's cards and exhibits: a work's drawing clipped to one
quarter (``art.picktura_quarter_viewbox``), the blank canvas, the cartel's title.

The screen and the sentences both name cards by their work; this is the one
place that turns an engine card into what a template draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from cardgames.engines.picktura import BLANK_BASE
from cardgames.ui import art
from cardgames.ui.picktura.cartels import cartel


def card_info(card: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What draws one card: the work's drawing clipped to its quarter (or the
    blank canvas), its number for the corner and its cartel's title."""
    if card is None:
        return None
    if card.get("blank"):
        return {
            "id": card["id"],
            "blank": True,
            "work": None,
            "quarter": None,
            "src": art.picktura_blank_src(),
            "title": gettext("Toile blanche"),
        }
    work = int(card["artwork"])
    quarter = int(card["quarter"])
    return {
        "id": card["id"],
        "blank": False,
        "work": work,
        "quarter": quarter,
        "src": art.picktura_work_src(work),
        "viewbox": art.picktura_quarter_viewbox(quarter),
        "title": str(cartel(work)["title"]),
    }


def exhibit_info(exhibit: Mapping[str, Any], index: int) -> dict[str, Any]:
    """An exhibit assembled: four slots in reading order, each a quarter of
    the work, a blank canvas standing in for a missing quarter, or empty."""
    work = int(exhibit["artwork"])
    cards = list(exhibit.get("cards") or [])
    by_quarter = {c["quarter"]: c for c in cards if not c.get("blank")}
    blanks = [c for c in cards if c.get("blank")]
    slots: list[dict[str, Any]] = []
    for quarter in art.PICKTURA_QUARTERS:
        if quarter in by_quarter:
            slots.append({"kind": "real", "quarter": quarter, "viewbox": art.picktura_quarter_viewbox(quarter)})
        elif blanks:
            blanks.pop()
            slots.append({"kind": "blank", "quarter": quarter})
        else:
            slots.append({"kind": "empty", "quarter": quarter})
    size = int(exhibit.get("size") or len(cards))
    return {
        "index": index,
        "work": work,
        "src": art.picktura_work_src(work),
        "title": str(cartel(work)["title"]),
        "slots": slots,
        "size": size,
        "points": int(exhibit.get("points") or 0),
        "complete": size == 4,
        "has_blank": bool(exhibit.get("has_blank")),
        "actions": [],
    }


def card_fields(card: int) -> dict[str, Any]:
    """An engine card number's work and quarter (as the engine's card dict
    says them), for a card known by its number only (the visible pile)."""
    if card >= BLANK_BASE:
        return {"blank": True, "artwork": None, "quarter": None}
    return {"blank": False, "artwork": card // 4 + 1, "quarter": card % 4}
