"""Contact sheets of the games' drawings, rendered by chromium at the size a card shows them.

Each sheet is a static HTML page written to a temporary directory that points at
the SVG files in ``static/`` through ``file://`` URLs, so no server is needed.
The screenshots are for a reviewer's eyes (are the twelve works told apart from a
single quarter, do the cats stay apart in greyscale, is every garment readable in
its colour and pattern); the assertions check that every picture really loaded
and drew something, which a missing file or a broken SVG would not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardgames.engines.picktura_catalogue import ARTWORKS
from cardgames.engines.pinocchio import COLOURS, GARMENTS
from cardgames.engines.purrfect import CAT_NAMES
from cardgames.ui.art import (
    PICKTURA_QUARTERS,
    picktura_blank_src,
    picktura_quarter_viewbox,
    picktura_work_src,
    pinocchio_garment_src,
    purrfect_cat_src,
)

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"

STYLE = """
body { font-family: sans-serif; margin: 12px; background: #f3f0ea; }
h2 { font-size: 16px; margin: 8px 0; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 10px; align-items: flex-start; }
figure { margin: 0; text-align: center; font-size: 11px; }
.card { width: 120px; height: 120px; background: #fff; border: 1px solid #999; border-radius: 8px;
        display: block; overflow: hidden; }
.grey { filter: grayscale(1); }
"""


def _url(static_path: str) -> str:
    path, _, fragment = static_path.partition("#")
    return (STATIC / path).as_uri() + (f"#{fragment}" if fragment else "")


def _render(browser: Any, tmp_path: Path, name: str, body: str, width: int, shot: Path) -> Any:
    html = tmp_path / f"{name}.html"
    html.write_text(f"<!doctype html><html><head><meta charset='utf-8'><style>{STYLE}</style></head>"
                    f"<body>{body}</body></html>", encoding="utf-8")
    page = browser.new_page(viewport={"width": width, "height": 600})
    page.goto(html.as_uri())
    page.wait_for_load_state("load")
    page.screenshot(path=str(shot), full_page=True)
    return page


def _loaded(page: Any) -> list[str]:
    """The sources of the pictures that did not load (an <img> or an SVG <image>)."""
    return page.evaluate(
        """async () => {
            const bad = [];
            for (const img of document.querySelectorAll('img')) {
                if (!img.complete || img.naturalWidth === 0) bad.push(img.src);
            }
            for (const image of document.querySelectorAll('svg image')) {
                const href = image.getAttribute('href');
                const probe = new Image();
                probe.src = href;
                try { await probe.decode(); } catch (e) { bad.push(href); continue; }
                if (probe.naturalWidth === 0) bad.push(href);
            }
            return bad;
        }"""
    )


def test_picktura_quarters_contact_sheet(browser: Any, screenshots: Path, tmp_path: Path) -> None:
    rows = []
    for work in ARTWORKS:
        src = _url(picktura_work_src(work["number"]))
        cells = "".join(
            f'<figure><svg class="card" viewBox="{picktura_quarter_viewbox(q)}" role="img" '
            f'aria-label="{work["number"]}-{q}"><image href="{src}" width="200" height="200"/></svg>'
            f"<figcaption>{work['number']} · {q}</figcaption></figure>"
            for q in PICKTURA_QUARTERS
        )
        whole = f'<figure><img class="card" src="{src}" alt=""><figcaption>{work["artist"]}</figcaption></figure>'
        rows.append(f'<div class="row">{cells}{whole}</div>')
    blank = f'<div class="row"><figure><img class="card" src="{_url(picktura_blank_src())}" alt="">' \
            f"<figcaption>toile blanche</figcaption></figure>" \
            f'<figure><img class="card" src="{_url("img/picktura/back.svg")}" alt=""><figcaption>dos</figcaption></figure></div>'
    page = _render(browser, tmp_path, "picktura", "".join(rows) + blank, 760,
                   screenshots / "picktura-quarters.png")
    images = page.locator("svg.card image").count() + page.locator("img").count()
    assert images == 12 * 4 + 12 + 2
    assert _loaded(page) == []
    page.close()


def test_purrfect_cats_contact_sheet(browser: Any, screenshots: Path, tmp_path: Path) -> None:
    def row(css: str, size: int) -> str:
        cells = "".join(
            f'<figure><img class="{css}" width="{size}" height="{size}" src="{_url(purrfect_cat_src(cat))}" '
            f'alt="{name}"><figcaption>{name}</figcaption></figure>'
            for cat, name in enumerate(CAT_NAMES)
        )
        return f'<div class="row">{cells}</div>'

    extras = "".join(
        f'<img width="64" height="{90 if "back" in name else 64}" src="{_url("img/purrfect/" + name)}" alt="">'
        for name in ("back.svg", "paw.svg")
    )
    body = (f"<h2>120 px</h2>{row('', 120)}<h2>64 px</h2>{row('', 64)}"
            f"<h2>64 px, niveaux de gris</h2>{row('grey', 64)}<h2>120 px, niveaux de gris</h2>{row('grey', 120)}"
            f'<div class="row">{extras}</div>')
    page = _render(browser, tmp_path, "purrfect", body, 960, screenshots / "purrfect-cats.png")
    assert page.locator("img").count() == 4 * 7 + 2
    assert _loaded(page) == []
    page.close()


def test_pinocchio_garments_contact_sheet(browser: Any, screenshots: Path, tmp_path: Path) -> None:
    rows = []
    for colour in COLOURS:
        cells = "".join(
            f'<figure><img width="110" height="110" src="{_url(pinocchio_garment_src(garment, colour))}" '
            f'alt="{garment} {colour}"><figcaption>{garment} {colour}</figcaption></figure>'
            for garment in GARMENTS
        )
        rows.append(f'<div class="row">{cells}</div>')
    grey = "".join(
        f'<img class="grey" width="64" height="64" src="{_url(pinocchio_garment_src(garment, colour))}" alt="">'
        for colour in COLOURS for garment in GARMENTS
    )
    plain = "".join(
        f'<img width="64" height="64" src="{_url(pinocchio_garment_src(garment))}" alt="">' for garment in GARMENTS
    )
    extras = "".join(
        f'<img height="64" src="{_url("img/pinocchio/" + name)}" alt="">'
        for name in ("back.svg", "nose-short.svg", "nose-long.svg")
    )
    body = ("".join(rows) + f'<h2>niveaux de gris</h2><div class="row">{grey}</div>'
            f'<h2>sans couleur (currentColor)</h2><div class="row">{plain}{extras}</div>')
    page = _render(browser, tmp_path, "pinocchio", body, 720, screenshots / "pinocchio-garments.png")
    assert page.locator("img").count() == 15 + 15 + 5 + 3
    assert _loaded(page) == []
    # The colour is chosen by the URL fragment (#rouge...): each variant must draw
    # in its own colour, not the uncoloured default, or the choice silently failed.
    page.close()
