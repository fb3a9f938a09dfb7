"""The seven Purrfect cats in colour and in greyscale, at card and at thumbnail size.

``artifacts/screenshots/purrfect-cats.png`` is where a reviewer checks that the
cats stay apart without colour (shape, pattern and initial), as the tablets
promise children who do not see colours well.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardgames.engines.purrfect import CAT_NAMES
from cardgames.ui.art import purrfect_back_src, purrfect_cat_src, purrfect_paw_src
from tests.e2e.contact_sheet import broken_pictures, render, static_url

pytestmark = pytest.mark.e2e


def test_purrfect_cats_contact_sheet(browser: Any, screenshots: Path, tmp_path: Path) -> None:
    def row(css: str, size: int) -> str:
        cells = "".join(
            f'<figure><img class="{css}" width="{size}" height="{size}" src="{static_url(purrfect_cat_src(cat))}" '
            f'alt="{name}" data-cat="{cat}"><figcaption>{name}</figcaption></figure>'
            for cat, name in enumerate(CAT_NAMES)
        )
        return f'<div class="row">{cells}</div>'

    extras = (f'<img width="64" height="90" src="{static_url(purrfect_back_src())}" alt="">'
              f'<img width="64" height="64" src="{static_url(purrfect_paw_src())}" alt="">')
    body = (f"<h2>120 px</h2>{row('', 120)}<h2>64 px</h2>{row('', 64)}"
            f"<h2>64 px, niveaux de gris</h2>{row('grey small', 64)}<h2>120 px, niveaux de gris</h2>{row('grey', 120)}"
            f'<div class="row">{extras}</div>')
    page = render(browser, tmp_path, "purrfect", body, 960, screenshots / "purrfect-cats.png")

    assert page.locator("img").count() == 4 * 7 + 2
    assert broken_pictures(page) == []
    # Seven different pictures even without colour, at the smallest size.
    greys = {page.locator(f"img.small[data-cat='{cat}']").screenshot() for cat in range(len(CAT_NAMES))}
    assert len(greys) == len(CAT_NAMES)
    page.close()
