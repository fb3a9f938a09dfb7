"""Pinocchio's five garments in the three colours, each with its pattern, plus back and noses.

The colour is chosen by the file's URL fragment (``bonnet.svg#rouge``); the test
checks that each fragment really changes the picture, so a broken ``:target``
rule cannot leave every card in the same uncoloured default. The contact sheet
``artifacts/screenshots/pinocchio-garments.png`` shows them in colour and in
greyscale, where only the patterns tell the colours apart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardgames.engines.pinocchio import COLOURS, GARMENTS
from cardgames.ui.art import pinocchio_garment_src
from tests.e2e.contact_sheet import broken_pictures, render, static_url

pytestmark = pytest.mark.e2e

# The card back and the noses as the screens name them (the pile and the
# reveal, the game's icon and "how to play", the players' stretchable nose).
BACK = "img/pinocchio/back.svg"
LONG_NOSE = "img/pinocchio/nose-long.svg"
STRETCHING_NOSE = "img/pinocchio/nose.svg"


def test_pinocchio_garments_contact_sheet(browser: Any, screenshots: Path, tmp_path: Path) -> None:
    def img(garment: str, colour: str | None, size: int, css: str = "") -> str:
        return (f'<img class="{css}" width="{size}" height="{size}" data-key="{css}{garment}-{colour}" '
                f'src="{static_url(pinocchio_garment_src(garment, colour))}" alt="">')

    rows = "".join(
        '<div class="row">' + "".join(
            f"<figure>{img(g, c, 110)}<figcaption>{g} {c}</figcaption></figure>" for g in GARMENTS
        ) + "</div>"
        for c in COLOURS
    )
    grey = "".join(img(g, c, 64, "grey") for c in COLOURS for g in GARMENTS)
    plain = "".join(img(g, None, 64) for g in GARMENTS)
    extras = "".join(
        f'<img height="64" src="{static_url(src)}" alt="">'
        for src in (BACK, LONG_NOSE)
    )
    # nose.svg stretches with the count (preserveAspectRatio="none"): 0, 1, 3 and 6 noses.
    noses = "".join(
        f'<img class="nose" style="height:20px;width:{24 + 12 * count}px" src="{static_url(STRETCHING_NOSE)}" alt="">'
        for count in (0, 1, 3, 6)
    )
    body = (rows + f'<h2>niveaux de gris</h2><div class="row">{grey}</div>'
            f'<h2>sans couleur (currentColor)</h2><div class="row">{plain}{extras}</div>'
            f'<h2>nez qui grandit</h2><div class="row">{noses}</div>')
    page = render(browser, tmp_path, "pinocchio", body, 720, screenshots / "pinocchio-garments.png")

    assert page.locator("img").count() == 15 + 15 + 5 + 2 + 4
    assert broken_pictures(page) == []
    for garment in GARMENTS:
        shots = {page.locator(f"img[data-key='{garment}-{c}']").screenshot() for c in (*COLOURS, None)}
        assert len(shots) == 4, garment
        greys = {page.locator(f"img[data-key='grey{garment}-{c}']").screenshot() for c in COLOURS}
        assert len(greys) == 3, garment
    page.close()
