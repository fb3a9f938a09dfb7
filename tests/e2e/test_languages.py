"""A German class and an English class, end to end, without one French word.

For each language: a class set to that language, its pupils on tablets in
that language, join, play a short Chasse game to its end (one white card each,
3-button answers), then the teacher opens the pupil's report and a parent the
parent page. On every screen, no French marker word may appear: words chosen
because they exist in French but not in German or English (accents included).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import axe_check
from tests.e2e.test_play_chasse import PORTRAIT, _join

# French words that are not German or English words (nor names used below):
# not "des", "manche", "Partie" (German), nor "tour", "pour" (English), nor "Ton".
FRENCH_MARKERS = re.compile(
    r"(?<![\w'])("
    r"est|les|une|avec|dans|sur|ta|tes|toi|vous|votre|nous|"
    r"carte|cartes|joue|jouer|élève|élèves|séance|séances|"
    r"combien|attends|touche|cible|dernière|robots?\s+facile|facile|moyen|difficile|"
    r"entraînement|progrès|calcul|calculs|réponse|réponses|"
    r"c'est|d'|l'|qu'|n'"
    r")(?!\w)|[éèêàçœùûîïô]",
    re.IGNORECASE,
)

CASES = {
    "de": {
        "locale": "de-DE",
        "class": "Klasse 2b Füchse",
        "pupils": ["Jonas", "Mia"],
        "over": "Spiel",  # the ranking heading speaks German
    },
    "en": {
        "locale": "en-GB",
        "class": "Year 2 Owls",
        "pupils": ["Oliver", "Amelia"],
        "over": "Game",
    },
}

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.utils import translation
from cardgames import services as cg
from classroom.models import Pupil, SchoolClass
from classroom.services.parents import parent_link_create
from classroom.services.sessions import session_start
teacher = get_user_model().objects.get(username="demo@example.org")
school_class, _ = SchoolClass.objects.get_or_create(teacher=teacher, name={name!r}, defaults={{"language": {lang!r}}})
pupils = [Pupil.objects.get_or_create(school_class=school_class, display_name=n,
          defaults={{"avatar": "chat", "picture_code": [i + 2, i + 4]}})[0] for i, n in enumerate({pupils!r})]
session = session_start(school_class=school_class, game="chasse", options={{}})
_link, token = parent_link_create(pupil=pupils[0], expires_in_days=30)
print(json.dumps({{"code": session.join_code, "session": session.pk, "class": school_class.pk,
    "token": token,
    "pupils": [{{"pk": p.pk, "display_name": p.display_name, "picture_code": p.picture_code}} for p in pupils]}}))
"""


TABLE = """
import json
from django.utils import translation
from cardgames import services as cg
from classroom.models import ClassSession
session = ClassSession.objects.get(pk={session})
pupils = [a.pupil for a in session.attendances.select_related("pupil").order_by("pupil__display_name")]
# The teacher's laptop is French: what the table stores must not be.
with translation.override("fr"):
    seats = [cg.SeatSpec(player_key=p.player_key, display_name=p.display_name, avatar=p.avatar)
             for p in pupils] + [cg.bot_seat(level="easy", number=1)]
    table = cg.table_create(game="chasse", seats=seats, group_key=session.group_key, number=1,
                            label="Table %(n)s", options={{"announce": "choice", "tokens": 1, "target": 30}})
    cg.table_start(table=table)
print(json.dumps(table.pk))
"""


def _french(page: Any, where: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """French marker words in the page's text, title and accessible labels."""
    text = page.evaluate(
        """() => [document.title, document.body.innerText,
                  ...[...document.querySelectorAll('[aria-label], [title], [alt]')].map(
                      el => [el.getAttribute('aria-label'), el.getAttribute('title'),
                             el.getAttribute('alt')].filter(Boolean).join(' '))].join('\\n')"""
    )
    for word in allowed:
        text = text.replace(word, "")
    return [
        f"{where}: {m.group(0)!r} in …{text[max(0, m.start() - 30) : m.end() + 30]!r}…"
        for m in FRENCH_MARKERS.finditer(text)
    ]


def _play_to_the_end(pages: list[Any], seen: list[str], allowed: tuple[str, ...]) -> None:
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        if pages[0].locator('#table-state[data-over="1"]').count():
            return
        played = False
        for page in pages:
            main = page.locator("#table-main")
            cards = main.locator(".cg-hand button.cg-card:not([disabled])")
            if main.locator(".cg-myturn").count() == 0 or cards.count() == 0:
                continue
            seen += _french(page, "table", allowed)
            total = int(main.locator(".cg-total-value").inner_text().strip())
            numbers = main.locator(
                '.cg-hand button.cg-card:not([disabled]):is([data-kind="add"], [data-kind="sub"])'
            )
            card = numbers.first if numbers.count() else cards.first
            kind, value = (
                card.get_attribute("data-kind"),
                int(card.get_attribute("data-value") or 0),
            )
            card_id = card.get_attribute("data-card")
            card.click()
            panel = main.locator(".cg-panel")
            panel.wait_for(timeout=10_000)
            seen += _french(page, "panel", allowed)
            if panel.locator(".cg-choices").count():
                answer = total + value if kind == "add" else total - value
                panel.get_by_role("button", name=str(answer), exact=True).click()
            else:
                panel.locator(".cg-play").click()
            page.locator(f'.cg-hand [data-card="{card_id}"]').wait_for(
                state="detached", timeout=10_000
            )
            played = True
        if not played:
            pages[0].wait_for_timeout(200)
    raise AssertionError("the game never ended")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_class_plays_and_reads_its_pages_without_french(
    live_server_url: Any, browser: Any, screenshots: Path, lang: str
) -> None:
    server = live_server_url
    case = CASES[lang]
    info = json.loads(
        server.shell(
            SETUP.format(name=case["class"], lang=lang, pupils=case["pupils"])
        ).splitlines()[-1]
    )
    # The class and pupil names are the teacher's data, not the interface's.
    allowed = (case["class"], *case["pupils"])
    seen: list[str] = []

    # Tablets in the class's language join, wait in the lobby, then sit at the table.
    tablets = []
    for pupil in info["pupils"]:
        tablet = _join_in(browser, server, info["code"], pupil, case["locale"])
        seen += _french(tablet, "lobby", allowed)
        tablets.append(tablet)
    axe_check(tablets[0], f"lobby-{lang}")
    table_id = json.loads(server.shell(TABLE.format(session=info["session"])).splitlines()[-1])
    for tablet in tablets:
        tablet.goto(f"{server.url}/table/{table_id}/")
        tablet.locator(".cg-total-value").wait_for()
        seen += _french(tablet, "table", allowed)
    axe_check(tablets[0], f"chasse-table-{lang}")
    _play_to_the_end(tablets, seen, allowed)
    main = tablets[0].locator("#table-main")
    main.locator(".cg-ranking").wait_for()
    assert case["over"] in main.inner_text()
    for tablet in tablets:
        seen += _french(tablet, "game over", allowed)
    tablets[0].screenshot(
        path=str(screenshots / f"chasse-over-{lang}-768x1024.png"), full_page=True
    )

    # The teacher (browser in that language) reads the first pupil's report.
    teacher = browser.new_context(viewport={"width": 1280, "height": 900}, locale=case["locale"])
    page = teacher.new_page()
    page.goto(f"{server.url}/teacher/login/")
    page.fill('input[name="username"]', "demo@example.org")
    page.fill('input[name="password"]', "souris-demo-2026")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url("**/teacher/")
    page.goto(f"{server.url}/teacher/pupils/{info['pupils'][0]['pk']}/report/")
    page.locator("h1").first.wait_for()
    # The teacher's language buttons name each language in its own words.
    seen += _french(page, "pupil report", (*allowed, "Français"))
    axe_check(page, f"pupil-report-{lang}")
    page.screenshot(path=str(screenshots / f"report-pupil-{lang}-1280.png"), full_page=True)
    teacher.close()

    # A parent, phone in that language, opens their link.
    parent = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale=case["locale"],
        is_mobile=True,
        has_touch=True,
    )
    phone = parent.new_page()
    phone.goto(f"{server.url}/p/{info['token']}")
    phone.wait_for_url("**/parent/")
    phone.locator("h1").first.wait_for()
    # The language links name each language in its own words ("Français" is allowed there).
    seen += _french(phone, "parent page", (*allowed, "Français"))
    axe_check(phone, f"parent-page-{lang}")
    phone.screenshot(path=str(screenshots / f"parent-page-{lang}-390x844.png"), full_page=True)
    parent.close()
    for tablet in tablets:
        tablet.context.close()
    assert seen == [], f"French on a {lang} screen:\n" + "\n".join(seen[:30])


def _join_in(browser: Any, server: Any, code: str, pupil: dict[str, Any], locale: str) -> Any:
    """``_join`` with the tablet's browser in ``locale``."""

    class Localised:
        def new_context(self, **kwargs: Any) -> Any:
            kwargs["locale"] = locale
            return browser.new_context(**kwargs)

    return _join(Localised(), server, code, pupil, PORTRAIT)
