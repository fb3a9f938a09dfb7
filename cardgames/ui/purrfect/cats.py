"""What draws Purrfect's cats and paws: a cat's name, initial and picture,
the language a meow is said in, a seat's paw prints. The screen and the
sentences both name cats from here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgames.engines.purrfect import CAT_NAMES
from cardgames.ui import art


def cat_info(cat: int) -> dict[str, Any]:
    """What draws a cat: its name, initial, picture and colour class."""
    name = CAT_NAMES[cat] if 0 <= cat < len(CAT_NAMES) else "?"
    src = art.purrfect_cat_src(cat) if 0 <= cat < art.PURRFECT_CATS else art.purrfect_back_src()
    return {"cat": cat, "name": name, "initial": name[:1], "src": src}


def meow_lang(view: Mapping[str, Any], meow: Any) -> str:
    """The language the board says ``meow`` in (for the 🔊 voice), "" if the board has no such meow."""
    for entry in view.get("meows") or []:
        if entry.get("meow") == meow:
            langs = entry.get("langs") or []
            return str(langs[0]) if langs else ""
    return ""


def player_extras(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Paws for each seat (drawn as paw prints next to the avatar)."""
    paws = list(view.get("paws") or [])
    return [{"paws": int(n or 0), "paw_range": range(int(n or 0))} for n in paws]
