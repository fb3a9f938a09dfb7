"""The 48 quarters of the twelve Picktura works and the blank canvas, at card size.

A card shows its quarter by drawing the whole work under the quarter's viewBox
(``cardgames.ui.art.picktura_quarter_viewbox``), exactly as here. The contact
sheet ``artifacts/screenshots/picktura-quarters.png`` is where a reviewer checks
that every work is told apart from any single quarter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardgames.engines.picktura_catalogue import ARTWORKS
from cardgames.ui.art import (
    PICKTURA_QUARTERS,
    picktura_back_src,
    picktura_blank_src,
    picktura_quarter_viewbox,
    picktura_work_src,
)
from tests.e2e.contact_sheet import broken_pictures, render, static_url

pytestmark = pytest.mark.e2e


def test_picktura_quarters_contact_sheet(browser: Any, screenshots: Path, tmp_path: Path) -> None:
    rows = []
    for work in ARTWORKS:
        src = static_url(picktura_work_src(work["number"]))
        cells = "".join(
            f'<figure><svg class="card quarter" viewBox="{picktura_quarter_viewbox(q)}" role="img" '
            f'aria-label="{work["number"]}-{q}"><image href="{src}" width="200" height="200"/></svg>'
            f"<figcaption>{work['number']} · {q}</figcaption></figure>"
            for q in PICKTURA_QUARTERS
        )
        whole = f'<figure><img class="card" src="{src}" alt=""><figcaption>{work["artist"]}</figcaption></figure>'
        rows.append(f'<div class="row">{cells}{whole}</div>')
    rows.append(
        f'<div class="row"><figure><img class="card" id="blank" src="{static_url(picktura_blank_src())}" alt="">'
        f"<figcaption>toile blanche</figcaption></figure>"
        f'<figure><img class="card" src="{static_url(picktura_back_src())}" alt=""><figcaption>dos</figcaption></figure></div>'
    )
    page = render(browser, tmp_path, "picktura", "".join(rows), 760, screenshots / "picktura-quarters.png")

    assert page.locator("svg.quarter image").count() == 48
    assert page.locator("img").count() == 12 + 2
    assert broken_pictures(page) == []
    # A quarter card is card-sized, and the four quarters of one work differ:
    # the viewBox really clips, rather than showing the whole work four times.
    box = page.locator("svg.quarter").first.bounding_box()
    assert box is not None and 110 <= box["width"] <= 130
    for n in (1, 6, 12):
        shots = {page.locator(f'svg[aria-label="{n}-{q}"]').screenshot() for q in PICKTURA_QUARTERS}
        assert len(shots) == 4
    page.close()
