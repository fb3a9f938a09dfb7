"""The special cards' names are read whole on the card, in every language.

"Chat qui dort" used to be drawn as one SVG line wider than the card
("hat qui dor"). Each card is rendered by the real template, put on a page
with the real stylesheet, and every name line is measured against the card's
inner frame (x 10 to 90 in the card's 100-wide viewBox).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

CARDS_HTML = """
import json
from django.template.loader import render_to_string
from django.utils import translation
from cardgames.ui.chasse import decorate
cards = [{{"id": i, "kind": "special", "effect": e}} for i, e in enumerate(["sleep", "reverse", "skip", "again"])]
with translation.override("{lang}"):
    html = "".join('<span class="cg-card cg-card-special cg-card-static">'
                   + render_to_string("cardgames/chasse/_card.html", {{"card": decorate(c)}}) + "</span>"
                   for c in cards)
print(json.dumps(html))
"""

MEASURE = """() => [...document.querySelectorAll('.cg-svg-special')].map(svg => {
    const lines = [...svg.querySelectorAll('.cg-svg-name')].flatMap(t =>
        t.querySelectorAll('tspan').length ? [...t.querySelectorAll('tspan')] : [t]);
    return lines.map(t => { const b = t.getBBox ? t.getBBox() : t.getExtentOfChar(0);
        return {text: t.textContent, x: b.x, right: b.x + b.width, bottom: b.y + b.height}; });
})"""


@pytest.mark.parametrize("lang", ["fr", "de", "en"])
def test_special_card_names_fit_inside_the_card(
    live_server_url: Any, browser: Any, screenshots: Path, lang: str
) -> None:
    server = live_server_url
    html = json.loads(server.shell(CARDS_HTML.format(lang=lang)).splitlines()[-1])
    page = browser.new_page(viewport={"width": 768, "height": 1024})
    page.goto(f"{server.url}/")
    page.evaluate(
        "html => { document.querySelector('main').innerHTML ="
        " '<div class=\"cg-hand\">' + html + '</div>'; }",
        html,
    )
    cards = page.evaluate(MEASURE)
    assert len(cards) == 4
    for lines in cards:
        assert lines and "".join(line["text"] for line in lines).strip()
        for line in lines:
            # Inside the white frame of the card, not cut by its edge.
            assert line["x"] >= 10 and line["right"] <= 90, (lang, line)
            assert line["bottom"] <= 132, (lang, line)
    page.locator(".cg-hand").screenshot(path=str(screenshots / f"chasse-special-cards-{lang}.png"))
    page.close()
