"""Long first names are read whole, never broken inside a word (issue 48, 5).

On a portrait tablet "Maximilienne" showed as "Maximilienn / e" on the name
picker and at a Chasse table of 4, and "Maximilien" overflowed its box at a
Purrfect table. A child who cannot find their own name cannot join; a name cut
in two reads as two children.

The class here has the long names a class list really holds ("Maximilienne",
"Anne-Charlotte", "Jean-Christophe"...) and the longest the class form keeps
(``PASTED_NAME_MAX`` = 36 characters). For each viewport (portrait and
landscape tablet, a phone), every element showing a name must be at least as
wide as the name's longest word (``scrollWidth`` against ``clientWidth``), no
line may break inside a word (the text's ``Range`` rects: all the letters of
a word on one line; a hyphen or a space is where a name may wrap), and the
name must stay inside its card and the screen.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

VIEWPORTS = {
    "portrait": {"width": 768, "height": 1024},
    "landscape": {"width": 1024, "height": 768},
    "phone": {"width": 390, "height": 844},
}

LONGEST = "Marie-Bérénice Dupont-Castelnaudarys"  # 36 characters, PASTED_NAME_MAX
NAMES = [
    "Maximilienne",
    "Anne-Charlotte",
    "Jean-Christophe",
    "Marie-Bérénice",
    "Bartholomée",
    "Gwendolyne",
    "Aurélien-Maxime",
    LONGEST,
]

CLASS = """
import json
from django.contrib.auth import get_user_model
from classroom import services
from classroom.models import SchoolClass
from classroom.services.pupils import PASTED_NAME_MAX
teacher = get_user_model().objects.order_by("pk").first()
cls, created = SchoolClass.objects.get_or_create(teacher=teacher, name="CE2 des longs prénoms", defaults={{"level": "CE2"}})
if created:
    services.pupils_add(school_class=cls, names={names!r})
cs = services.session_start(school_class=cls, game="chasse", options={{}})
pupils = {{p.display_name: {{"pk": p.pk, "display_name": p.display_name, "picture_code": p.picture_code}}
          for p in cls.pupils.all()}}
print(json.dumps({{"code": cs.join_code, "session": cs.pk, "pupils": pupils, "max": PASTED_NAME_MAX}}))
"""

TABLE = """
import json
from cardgames import services
from classroom.models import ClassSession, Pupil
cs = ClassSession.objects.get(pk={session})
pupils = {{p.display_name: p for p in cs.school_class.pupils.all()}}
seats = [services.SeatSpec(player_key=pupils[n].player_key, display_name=n, avatar=pupils[n].avatar)
         for n in {names!r}]
table = services.table_create(game={game!r}, seats=seats, group_key=cs.group_key, number={number})
services.table_start(table=table)
print(json.dumps(table.pk))
"""

# Every element that shows a name: its box against its text, and each word's
# letters on one line. Words are cut at spaces and after hyphens (where a
# name may wrap: "Anne-" / "Charlotte" is how it is written by hand).
NAMES_MEASURED = """(selector) => [...document.querySelectorAll(selector)].filter(el => el.offsetParent).map(el => {
  const text = [...el.querySelectorAll('bdi')].map(b => b.textContent).join('') || el.textContent;
  const node = (el.querySelector('bdi') || el).firstChild;
  const broken = [];
  if (node && node.nodeType === 3) {
    const re = /[^\\s-]+-?/g; let m;
    while ((m = re.exec(node.data))) {
      const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  const card = el.closest('li, a') || el.parentElement;
  const box = el.getBoundingClientRect(), outer = card.getBoundingClientRect();
  return {name: text.trim(), scroll: el.scrollWidth, client: el.clientWidth, broken,
          inside: box.left >= outer.left - 1 && box.right <= outer.right + 1,
          onscreen: box.left >= -1 && box.right <= innerWidth + 1,
          title: el.getAttribute('title') || (card.getAttribute('title') || '')};
})"""


def _problems(page: Any, selector: str, where: str) -> list[str]:
    found = []
    for n in page.evaluate(NAMES_MEASURED, selector):
        if n["scroll"] > n["client"] + 1:
            found.append(
                f"{where}: {n['name']!r} wider than its box ({n['scroll']} > {n['client']})"
            )
        if n["broken"]:
            found.append(f"{where}: {n['name']!r} broken inside {n['broken']}")
        if not n["inside"] or not n["onscreen"]:
            found.append(f"{where}: {n['name']!r} outside its card or the screen")
    return found


def _setup(server: Any) -> dict[str, Any]:
    return json.loads(server.shell(CLASS.format(names=NAMES)).splitlines()[-1])


def _join(
    browser: Any, server: Any, code: str, pupil: dict[str, Any], shots: Path
) -> tuple[Any, list[str]]:
    """Join as ``pupil``; on the way, the name picker is measured at every
    viewport (returned problems)."""
    context = browser.new_context(
        viewport=VIEWPORTS["portrait"], has_touch=True, locale="fr-FR", reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{server.url}/join")
    page.wait_for_load_state("networkidle")
    for typed, digit in enumerate(code[:-1], start=1):
        page.get_by_role("button", name=digit, exact=True).click()
        page.locator(".code-box.filled").nth(typed - 1).wait_for()
    page.get_by_role("button", name=code[-1], exact=True).click()
    page.wait_for_url("**/join/names/")
    problems: list[str] = []
    for label, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        page.screenshot(path=str(shots / f"long-names-picker-{label}.png"), full_page=True)
        problems += _problems(page, ".name-tile-name", f"name picker {label}")
    page.set_viewport_size(VIEWPORTS["portrait"])
    page.get_by_role("link", name=pupil["display_name"], exact=True).click()
    page.wait_for_url("**/join/pupil/**")
    first, second = pupil["picture_code"]
    page.locator(f'button[name="pick"][value="{first}"]').click()
    page.locator(".pick-slot.filled").first.wait_for()
    page.locator(f'button[name="pick"][value="{second}"]').click()
    # The lobby, or straight to the table when the pupil is seated already.
    page.wait_for_url(re.compile(r"/(lobby|table/\d+)/$"))
    return page, problems


TABLES = {
    # game, seats (the viewer first), the selector of the players' names, a
    # selector that says the screen is drawn.
    "chasse-4": ("chasse", NAMES[:4], ".cg-player-name", ".cg-total-value"),
    "chasse-6": ("chasse", [NAMES[4], *NAMES[:4], LONGEST], ".cg-player-name", ".cg-total-value"),
    "purrfect-7": ("purrfect", [LONGEST, *NAMES[:6]], ".pf-player-name", ".pf-players"),
}


@pytest.mark.parametrize("table", list(TABLES))
def test_long_names_are_read_whole(
    live_server_url: Any, browser: Any, screenshots: Path, table: str
) -> None:
    server = live_server_url
    demo = _setup(server)
    assert len(LONGEST) == demo["max"]
    game, names, selector, ready = TABLES[table]
    viewer = demo["pupils"][names[0]]
    page, problems = _join(browser, server, demo["code"], viewer, screenshots)
    number = 60 + list(TABLES).index(table)
    table_id = json.loads(
        server.shell(
            TABLE.format(session=demo["session"], names=names, game=game, number=number)
        ).splitlines()[-1]
    )
    page.goto(f"{server.url}/table/{table_id}/")
    page.locator(ready).first.wait_for()
    for label, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        page.wait_for_timeout(200)
        page.screenshot(path=str(screenshots / f"long-names-{table}-{label}.png"))
        shown = page.evaluate(NAMES_MEASURED, selector)
        assert len(shown) == len(names), (table, label, shown)
        problems += _problems(page, selector, f"{table} {label}")
    page.context.close()
    assert not problems, "\n".join(problems)
