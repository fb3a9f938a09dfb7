"""Pinocchio's tablet form → an engine action: believe, doubt, or announce a
garment in a colour. Whose turn it is and whether the announcement follows
the last one are the engine's to judge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgames.engines.base import IllegalAction
from cardgames.engines.pinocchio import COLOURS, GARMENTS


def form_to_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """The tablet's form → ``doubt``, ``believe`` or ``announce`` (garment and
    colour among the engine's words). The engine judges the rest (whose turn,
    whether it follows)."""
    move = data.get("move")
    if move in ("doubt", "believe"):
        return {"type": move}
    if move != "announce":
        raise IllegalAction("malformed", "Unknown move.")
    garment = data.get("garment")
    colour = data.get("colour")
    if garment not in GARMENTS or colour not in COLOURS:
        raise IllegalAction("malformed", "Unknown garment or colour.")
    return {"type": "announce", "garment": garment, "colour": colour}
