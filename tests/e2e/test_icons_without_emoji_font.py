"""Icons that carry meaning are the app's pictures, not emoji (issue 48, 6).

A projector PC, a school's old laptop and this test's chromium (Debian's, with
DejaVu and Liberation only) have no emoji font: an emoji there is an empty box.
The special card's effect, whose turn it is, the "Comment jouer" steps, the
robots' faces and the "listen" buttons showed as boxes. They are now SVG
files under static/img/icons/ (cardgames/templatetags/icons.py).

On a Chasse and a Purrfect table, with screenshots to look at: each of those
icons is an ``<img>`` that loaded (same origin, so the CSP allows it), and no
emoji is left where a screen reader would read it or where it would stand
alone. Decoration may stay emoji, hidden from screen readers, beside words
that say the same.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.template.loader import render_to_string

from tests.e2e.board import join_on

PORTRAIT = {"width": 768, "height": 1024}

SETUP = """
import json
from django.contrib.auth import get_user_model
from cardgames import services as games
from classroom import services
from classroom.models import SchoolClass
teacher = get_user_model().objects.order_by("pk").first()
cls, created = SchoolClass.objects.get_or_create(teacher=teacher, name="CE1 sans emoji", defaults={"level": "CE1"})
if created:
    services.pupils_add(school_class=cls, names=["Nour", "Timéo", "Elsa", "Yanis"])
cs = services.session_start(school_class=cls, game="chasse", options={})
pupils = {p.display_name: p for p in cls.pupils.all()}
def table(game, names, bots, number):
    seats = [games.SeatSpec(player_key=pupils[n].player_key, display_name=n, avatar=pupils[n].avatar) for n in names]
    seats += [games.bot_seat(level="easy", number=i + 1) for i in range(bots)]
    t = games.table_create(game=game, seats=seats, group_key=cs.group_key, number=number)
    games.table_start(table=t)
    return t.pk
print(json.dumps({
    "code": cs.join_code,
    "nour": {"display_name": "Nour", "picture_code": pupils["Nour"].picture_code},
    "chasse": table("chasse", ["Nour"], 2, 71),
    "purrfect": table("purrfect", ["Nour", "Timéo", "Elsa"], 1, 72),
}))
"""

# Visible emoji that a screen reader would read or that stand for something:
# any Extended_Pictographic character outside an aria-hidden element.
EMOJI_READ = """(root) => {
  const emoji = /\\p{Extended_Pictographic}/u;
  const found = [];
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!emoji.test(n.data) || !el.offsetParent || el.closest('[aria-hidden="true"]')) continue;
    found.push(n.data.trim());
  }
  return found;
}"""

# The app's icons on screen: each one an image that loaded.
ICONS_SHOWN = """(root) => [...document.querySelectorAll(root + ' img[data-icon], ' + root + ' image[data-icon]')]
  .filter(el => el.getBoundingClientRect().width > 0)
  .map(el => ({icon: el.dataset.icon, tag: el.tagName.toLowerCase(),
               src: el.getAttribute('src') || el.getAttribute('href'),
               loaded: el.tagName === 'IMG' ? (el.complete && el.naturalWidth > 0) : true}))"""


def _join(browser: Any, server: Any, code: str, pupil: dict[str, Any]) -> Any:
    context = browser.new_context(
        viewport=PORTRAIT, has_touch=True, locale="fr-FR", reduced_motion="reduce"
    )
    page = context.new_page()
    join_on(page, server.url, code, pupil)
    # The lobby, or straight to the table when the pupil is seated already.
    page.wait_for_url(re.compile(r"/(lobby|table/\d+)/$"))
    return page


def _check(page: Any, shots: Path, name: str, expected: set[str]) -> None:
    page.screenshot(path=str(shots / f"icons-{name}.png"), full_page=True)
    shown = page.evaluate(ICONS_SHOWN, "#table-main")
    missing = expected - {i["icon"] for i in shown}
    assert not missing, f"{name}: icons not drawn as images: {missing} (shown: {shown})"
    for icon in shown:
        assert icon["src"].startswith("/static/img/") and icon["loaded"], (name, icon)
    read = page.evaluate(EMOJI_READ, "#table-main")
    assert not read, f"{name}: emoji a screen reader reads, or shown alone: {read}"


def test_meaning_carrying_icons_are_images_without_an_emoji_font(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    demo = json.loads(server.shell(SETUP).splitlines()[-1])
    page = _join(browser, server, demo["code"], demo["nour"])

    page.goto(f"{server.url}/table/{demo['chasse']}/")
    page.locator(".cg-total-value").wait_for()
    page.locator("#table-howto[open]").wait_for()
    # The how-to steps' pictures, whose turn it is, the target, the robots.
    _check(page, screenshots, "chasse", {"card", "numbers", "warning", "target", "trophy", "robot"})
    turn = page.locator("#cg-whose img[data-icon]")
    assert turn.get_attribute("data-icon") in {"star", "hourglass"}

    page.goto(f"{server.url}/table/{demo['purrfect']}/")
    page.locator(".pf-players").wait_for()
    # The "listen" buttons have only their icon to show (and an aria-label).
    _check(page, screenshots, "purrfect", {"speaker", "offer", "numbers", "swap", "robot"})
    speak = page.locator(".pf-speak").first
    assert speak.get_attribute("aria-label")
    assert speak.locator("img[data-icon=speaker]").count() == 1
    page.context.close()


@pytest.mark.parametrize("effect", ["sleep", "reverse", "skip", "again"])
def test_a_special_cards_effect_is_drawn_by_the_app(effect: str) -> None:
    """The card is one inline SVG: its effect is an ``<image>`` of the icon
    file, no longer an emoji in a ``<text>``."""
    card = {"kind": "special", "effect": effect, "label": "Chat", "label_lines": ["Chat"]}
    svg = render_to_string("cardgames/chasse/_card.html", {"card": card})
    assert f'href="/static/img/icons/effect-{effect}.svg"' in svg
    assert "💤" not in svg and "🔄" not in svg and "⏭" not in svg and "🔁" not in svg
    assert Path(f"static/img/icons/effect-{effect}.svg").is_file()
