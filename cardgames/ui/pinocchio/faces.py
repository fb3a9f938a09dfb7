"""What draws Pinocchio's cards and noses: a garment's picture in a colour
with its pattern and its words in the table's language, and the stretchable
nose's width. The seat, the reveal and the ranking all draw from here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgames.engines.pinocchio import COLOURS, GARMENTS
from cardgames.ui import art
from cardgames.ui.pinocchio.words import SPEECH_LANG, colour_word, garment_word, phrase

NOSE_BASE = 26
NOSE_STEP = 9
NOSE_MAX = 110


def face_info(lang: str, garment: str, colour: str) -> dict[str, Any]:
    """What draws one garment in one colour: its picture (colour and pattern),
    its words in ``lang`` and the voice that says them."""
    return {
        "garment": garment,
        "colour": colour,
        "key": f"{garment}:{colour}",
        # The path and the colour fragment apart: ``{% static %}`` escapes a "#"
        # in development (StaticFilesStorage), so templates write
        # ``{% static face.src %}#{{ face.colour }}``.
        "src": art.pinocchio_garment_src(garment),
        "phrase": phrase(lang, garment, colour),
        "garment_word": garment_word(lang, garment),
        "colour_word": colour_word(lang, colour),
        "pattern": art.PINOCCHIO_PATTERNS[colour],
        "speech": SPEECH_LANG[lang],
    }


def face_of(lang: str, data: Any) -> dict[str, Any] | None:
    """The face an event or a view names, drawn; ``None`` for anything that
    is not one of the engine's garments in one of its colours."""
    if not isinstance(data, Mapping):
        return None
    garment, colour = data.get("garment"), data.get("colour")
    if garment not in GARMENTS or colour not in COLOURS:
        return None
    return face_info(lang, str(garment), str(colour))


def nose_width(noses: int) -> int:
    """The stretchable nose's width in px: it grows with the count, up to a
    width that still fits a player's card at six seats (the count is written too)."""
    return min(NOSE_BASE + NOSE_STEP * max(noses, 0), NOSE_MAX)
