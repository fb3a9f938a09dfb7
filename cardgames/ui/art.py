"""Where the games' drawings live, as paths for Django's ``static``: pure functions, no Django.

The drawings are the project's own SVGs under ``static/img/<game>/``. Templates
call ``{% static path %}`` on what these functions return; keeping the naming
here means a screen never spells a file name and a test can check every path
exists.

* Purrfect: one face per cat, by the engine's cat index (``card_cat(card)``).
* Pinocchio: one file per garment; its colour is picked by the URL fragment
  (``bonnet.svg#rouge``), which the SVG turns into the colour **and** the colour's
  pattern (dots for rouge, stripes for bleu, zigzag for jaune) with ``:target``.
  Without a fragment the garment is drawn in ``currentColor`` (for inline use).
  The card back and the noses are named by the templates and the adapter
  themselves (``templates/cardgames/pinocchio/``, ``cardgames/ui/pinocchio/``):
  one fixed file each, nothing to compute.
* Picktura: one square drawing per work (viewBox ``0 0 200 200``); a card shows
  one quarter of it by drawing the whole file under a quarter's viewBox, see
  :func:`picktura_quarter_viewbox`.
"""

from __future__ import annotations

from typing import Final

PURRFECT_CATS: Final[int] = 7
PINOCCHIO_GARMENTS: Final[tuple[str, ...]] = ("bonnet", "noeud_papillon", "chemise", "pantalon", "sabots")
PINOCCHIO_COLOURS: Final[tuple[str, ...]] = ("rouge", "bleu", "jaune")
PINOCCHIO_PATTERNS: Final[dict[str, str]] = {"rouge": "dots", "bleu": "stripes", "jaune": "zigzag"}
PICKTURA_WORKS: Final[int] = 12
PICKTURA_SIZE: Final[int] = 200

# Quarter numbers as the engine gives them (``card % 4``), in reading order.
PICKTURA_QUARTERS: Final[tuple[int, ...]] = (0, 1, 2, 3)
_QUARTER_ORIGINS: Final[dict[int, tuple[int, int]]] = {0: (0, 0), 1: (100, 0), 2: (0, 100), 3: (100, 100)}


def purrfect_cat_src(cat: int) -> str:
    """The face of cat ``cat`` (0..6, the engine's index: 0 Anchois ... 6 Grisou)."""
    if not 0 <= cat < PURRFECT_CATS:
        raise ValueError(f"no cat {cat!r}")
    return f"img/purrfect/cat-{cat}.svg"


def purrfect_back_src() -> str:
    return "img/purrfect/back.svg"


def purrfect_paw_src() -> str:
    return "img/purrfect/paw.svg"


def pinocchio_garment_src(garment: str, colour: str | None = None) -> str:
    """The garment's picture, in ``colour`` with its pattern, or in ``currentColor``.

    With a colour the fragment is part of the returned path, for code that builds
    URLs itself. In a template, pass the path without colour to ``{% static %}``
    and add ``#colour`` after it: ``StaticFilesStorage`` escapes a ``#`` inside the
    path (``%23``), so the picture would not be found.
    """
    if garment not in PINOCCHIO_GARMENTS:
        raise ValueError(f"no garment {garment!r}")
    if colour is None:
        return f"img/pinocchio/{garment}.svg"
    if colour not in PINOCCHIO_COLOURS:
        raise ValueError(f"no colour {colour!r}")
    return f"img/pinocchio/{garment}.svg#{colour}"


def picktura_work_src(work: int) -> str:
    """The whole drawing after work ``work`` (1..12, the catalogue's ``number``)."""
    if not 1 <= work <= PICKTURA_WORKS:
        raise ValueError(f"no work {work!r}")
    return f"img/picktura/work-{work}.svg"


def picktura_blank_src() -> str:
    return "img/picktura/blank.svg"


def picktura_back_src() -> str:
    return "img/picktura/back.svg"


def picktura_quarter_viewbox(quarter: int) -> str:
    """The viewBox that shows quarter ``quarter`` (0 top left, 1 top right, 2 bottom left, 3 bottom right).

    A card draws ``<svg viewBox="{this}"><image href="{work src}" width="200"
    height="200"/></svg>``: one drawing, clipped, so that two adjacent quarters
    put side by side join up exactly.
    """
    if quarter not in _QUARTER_ORIGINS:
        raise ValueError(f"no quarter {quarter!r}")
    x, y = _QUARTER_ORIGINS[quarter]
    half = PICKTURA_SIZE // 2
    return f"{x} {y} {half} {half}"
