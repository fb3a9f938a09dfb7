"""The games' drawings (named by ``cardgames.ui.art``, the templates and the adapters): every path a screen can ask for exists and is a safe, accessible SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cardgames import engines, ui
from cardgames.engines.picktura_catalogue import ARTWORKS
from cardgames.engines.pinocchio import COLOURS, GARMENTS
from cardgames.engines.purrfect import CAT_NAMES
from cardgames.templatetags.icons import EMOJI_ART
from cardgames.ui import art

ROOT = Path(__file__).resolve().parents[3]
STATIC = ROOT / "static"
SVG = "{http://www.w3.org/2000/svg}"


GAME_DRAWINGS = ("img/purrfect/", "img/pinocchio/", "img/picktura/")


def _named_elsewhere() -> list[str]:
    """The games' drawings that no ``art`` function names: the templates'
    literal ``{% static '...' %}`` paths, the adapters' icons and "how to
    play" pictures, and the emoji drawn as a game's picture."""
    paths = [
        path
        for template in (ROOT / "templates").rglob("*.html")
        for path in re.findall(r"""static ['"]([^'"]+\.svg)['"]""", template.read_text(encoding="utf-8"))
    ]
    for game in engines.names():
        adapter = ui.get(game)
        paths += [adapter.icon] + [picture for picture, _text in adapter.how_to_play]
    paths += list(EMOJI_ART.values())
    return [path for path in paths if path.startswith(GAME_DRAWINGS)]


def _all_paths() -> list[str]:
    """Every drawing path a screen can ask for, as the app names it."""
    paths = [art.purrfect_cat_src(cat) for cat in range(len(CAT_NAMES))]
    paths += [art.purrfect_back_src(), art.purrfect_paw_src()]
    paths += [art.pinocchio_garment_src(g, c) for g in GARMENTS for c in COLOURS]
    paths += [art.pinocchio_garment_src(g) for g in GARMENTS]
    paths += [art.picktura_work_src(work["number"]) for work in ARTWORKS]
    paths += [art.picktura_blank_src(), art.picktura_back_src()]
    return paths + _named_elsewhere()


def test_the_pictures_named_outside_art_are_found() -> None:
    """The card back and the noses Pinocchio's screens draw (a template that
    stopped naming them would leave this list, not the check, empty)."""
    named = set(_named_elsewhere())
    assert {"img/pinocchio/back.svg", "img/pinocchio/nose.svg", "img/pinocchio/nose-long.svg"} <= named


@pytest.mark.parametrize("path", sorted(set(_all_paths())))
def test_every_drawing_is_a_safe_accessible_svg(path: str) -> None:
    file, _, fragment = path.partition("#")
    text = (STATIC / file).read_text(encoding="utf-8")
    root = ET.fromstring(text)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    title = root.find(f"{SVG}title")
    assert title is not None and (title.text or "").strip()
    assert root.get("aria-labelledby") == title.get("id")
    # Self-contained: no script, no external file, font or link.
    assert "<script" not in text and "@import" not in text and "@font-face" not in text
    assert not re.search(r'(href|src)="(?!#)', text), "only internal references"
    assert "url(http" not in text and "javascript:" not in text
    assert len(text) < 12_000, "keep the drawings small"
    if fragment:
        assert root.find(f".//*[@id='{fragment}']") is not None


def test_engine_identifiers_match_the_drawings() -> None:
    assert art.PINOCCHIO_GARMENTS == GARMENTS and art.PINOCCHIO_COLOURS == COLOURS
    assert len(CAT_NAMES) == art.PURRFECT_CATS
    assert [w["number"] for w in ARTWORKS] == list(range(1, art.PICKTURA_WORKS + 1))


def test_ids_are_unique_across_drawings_that_a_page_may_inline_together() -> None:
    seen: dict[str, str] = {}
    for file in sorted({p.partition("#")[0] for p in _all_paths()}):
        for ident in re.findall(r'\bid="([^"]+)"', (STATIC / file).read_text(encoding="utf-8")):
            if ident in {"rouge", "bleu", "jaune"}:  # the colour fragments, by design in each garment
                continue
            assert ident not in seen, f"{ident} in {file} and {seen[ident]}"
            seen[ident] = file


def test_quarters_tile_the_square() -> None:
    boxes = [tuple(map(int, art.picktura_quarter_viewbox(q).split())) for q in art.PICKTURA_QUARTERS]
    assert boxes == [(0, 0, 100, 100), (100, 0, 100, 100), (0, 100, 100, 100), (100, 100, 100, 100)]


@pytest.mark.parametrize(
    "call",
    [
        lambda: art.purrfect_cat_src(7),
        lambda: art.pinocchio_garment_src("chapeau"),
        lambda: art.pinocchio_garment_src("bonnet", "vert"),
        lambda: art.picktura_work_src(0),
        lambda: art.picktura_quarter_viewbox(4),
    ],
)
def test_unknown_ids_are_refused(call: object) -> None:
    with pytest.raises(ValueError):
        call()  # type: ignore[operator]
