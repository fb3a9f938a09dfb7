"""Reports in a real browser: the class report on the teacher's big screen, one
pupil's report and the parent page on a phone (issue 6).

The demo class "CE1 Les Chats" is seeded with about three months of history, so
the pages show real-looking figures. Screenshots go to
``artifacts/screenshots/`` for a human to look at.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.e2e.conftest import axe_check

DESKTOP = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
DEMO_CLASS = "CE1 Les Chats"
# What a finger has to hit on these pages (the rule of the house: ≥ 48 px).
TARGETS = (
    "main .btn, main select, main input:not([type=hidden]), main summary, main .rp-sort,"
    " main .crumbs a, main .rp-class-table tbody th a"
)


def _demo_class(server: Any) -> tuple[int, list[str]]:
    """The demo class's id and its pupils' names, read from the server's database."""
    code = (
        "import json; from classroom.models import SchoolClass;"
        f"c = SchoolClass.objects.get(name={DEMO_CLASS!r}, teacher__username='demo@example.org');"
        "print(json.dumps([c.pk, list(c.pupils.order_by('display_name')"
        ".values_list('display_name', flat=True))]))"
    )
    class_id, names = json.loads(server.shell(code).splitlines()[-1])
    return int(class_id), list(names)


def _login(page: Any, server: Any) -> None:
    page.goto(f"{server.url}/teacher/login/")
    page.fill('input[name="username"]', "demo@example.org")
    page.fill('input[name="password"]', "souris-demo-2026")
    page.get_by_role("button", name="Se connecter").last.click()
    page.wait_for_url("**/teacher/")


def _horizontal_overflow(page: Any) -> int:
    """How many CSS pixels the page is wider than the screen (0 = no sideways
    scrolling of the whole page; wide tables scroll inside their own box)."""
    return int(
        page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
    )


def _small_targets(page: Any, selector: str) -> list[str]:
    """Visible controls matching ``selector`` that are less than 48 px high."""
    return list(
        page.evaluate(
            """(sel) => Array.from(document.querySelectorAll(sel))
                .filter(el => el.offsetParent !== null)
                .filter(el => el.getBoundingClientRect().height < 47.5)
                .map(el => `${el.tagName} "${el.textContent.trim().slice(0, 40)}"`
                    + ` ${Math.round(el.getBoundingClientRect().height)}px`)""",
            selector,
        )
    )


def _progress_title(name: str) -> str:
    """The parent page's title, French elision included ("Les progrès d'Adam")."""
    from django.utils import translation

    from cardgames.names import with_names

    with translation.override("fr"):
        return with_names("Les progrès de %(name)s", name=name)


def _names_shown(text: str, names: list[str]) -> list[str]:
    return [n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)]


def test_class_report_pupil_report_and_parent_page(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    class_id, names = _demo_class(server)
    assert len(names) == 24

    # --- 1. The class report on the teacher's screen (1920x1080).
    teacher = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = teacher.new_page()
    _login(page, server)
    page.goto(f"{server.url}/teacher/classes/{class_id}/")
    page.get_by_role("link", name="Rapport de la classe").click()
    page.wait_for_url("**/report/")
    page.get_by_role("heading", name="Rapport de la classe").wait_for()
    table = page.locator("table.rp-class-table")
    rows = table.locator("tbody tr")
    assert rows.count() == 24
    listed = sorted(rows.locator("th[scope=row]").all_inner_texts())
    assert listed == sorted(names)
    # At least one pupil is flagged "à surveiller", with the reason in words.
    watched = table.locator("tbody tr.is-watched")
    assert watched.count() >= 1
    reason = watched.first.locator(".rp-flag").first.inner_text()
    assert re.search(r"Précision faible|lentement|dizaines", reason), reason
    kpi = page.locator(".rp-kpi", has_text="élèves à surveiller")
    assert kpi.locator(".rp-kpi-value").inner_text().strip().endswith(str(watched.count()))
    # Sorting by a column is a link a teacher can click.
    page.get_by_role("link", name=re.compile(r"^Réussite")).first.click()
    page.wait_for_url(re.compile(r"sort="))
    page.locator("table.rp-class-table").wait_for()
    assert page.locator("table.rp-class-table tbody tr").count() == 24
    page.go_back()
    page.locator("table.rp-class-table").wait_for()
    assert _horizontal_overflow(page) == 0
    # The table fits the big screen: nothing hidden behind a sideways scroll.
    assert (
        page.evaluate(
            "() => { const b = document.querySelector('table.rp-class-table').parentElement;"
            " return b.scrollWidth - b.clientWidth; }"
        )
        == 0
    )
    assert _small_targets(page, TARGETS) == []
    page.screenshot(path=str(screenshots / "report-class-1920x1080.png"), full_page=True)
    axe_check(page, "class-report")

    # The pupil to follow: the first one the report flags.
    pupil_name = (
        page.locator("table.rp-class-table tbody tr.is-watched th[scope=row]").first.inner_text()
    ).strip()
    pupil_url = page.locator("table.rp-class-table tbody tr.is-watched th a").first.get_attribute(
        "href"
    )
    assert pupil_url

    # --- 2. That pupil's report on a phone (390x844).
    page.set_viewport_size(PHONE)
    page.goto(f"{server.url}{pupil_url}")
    page.get_by_role("heading", name=pupil_name, exact=True).wait_for()
    grid = page.locator("table.rp-fluency")
    grid.scroll_into_view_if_needed()
    assert grid.is_visible()
    # 10 x 10 facts, each marked with a symbol and not only a colour.
    assert grid.locator("tbody td.rp-cell").count() == 100
    assert grid.locator("tbody td.is-fluent, tbody td.is-weak, tbody td.is-learning").count() > 0
    practise = page.locator(".rp-next-list li")
    assert 1 <= practise.count() <= 3
    assert practise.first.is_visible()
    assert page.get_by_role("heading", name="À travailler ensuite").is_visible()
    assert page.get_by_role("heading", name="À surveiller").is_visible()
    assert _horizontal_overflow(page) == 0
    assert _small_targets(page, TARGETS) == []
    page.screenshot(path=str(screenshots / "report-pupil-390x844.png"), full_page=True)
    axe_check(page, "pupil-report")
    # On a tablet the carry grids sit side by side; each "swipe sideways" line
    # stays right above its own table, in its column (it once took a column).
    page.set_viewport_size({"width": 768, "height": 1024})
    page.reload()
    page.locator(".rp-carry").first.wait_for()
    hints = page.evaluate(
        "() => [...document.querySelectorAll('.rp-scroll-hint')].filter(h => !h.hidden)"
        ".map(h => { const a = h.getBoundingClientRect(),"
        " b = h.nextElementSibling.getBoundingClientRect();"
        " return {left: [a.left, b.left], bottom: a.bottom, top: b.top}; })"
    )
    assert hints, "a carry grid is wider than its column on a 768 px tablet"
    for hint in hints:
        assert hint["left"][0] == hint["left"][1] and hint["bottom"] <= hint["top"] + 1, hint
    page.screenshot(path=str(screenshots / "report-pupil-768x1024.png"), full_page=True)
    page.set_viewport_size(PHONE)

    # --- 3. A parent link, made through the teacher's UI.
    page.locator("#parents").scroll_into_view_if_needed()
    page.select_option("#rp-expiry", "90")
    page.get_by_role("button", name="Créer un lien et imprimer la lettre").click()
    page.wait_for_url("**/letter/")
    parent_url = page.locator(".rp-letter-url").inner_text().strip()
    assert re.search(r"/p/[\w-]{22,}$", parent_url), parent_url
    token = parent_url.rsplit("/", 1)[-1]
    assert page.locator(".rp-letter-qr svg").is_visible()
    page.screenshot(path=str(screenshots / "report-parent-letter-390x844.png"), full_page=True)
    axe_check(page, "parent-letter")
    teacher.close()

    # The parent opens it on their own phone: a new browser, no teacher cookie.
    parent = browser.new_context(viewport=PHONE, locale="fr-FR", has_touch=True, is_mobile=True)
    phone = parent.new_page()
    phone.goto(parent_url)
    phone.wait_for_url("**/parent/")
    assert token not in phone.url
    assert "/p/" not in phone.url
    phone.get_by_role("heading", name=_progress_title(pupil_name)).wait_for()
    body = phone.locator("body").inner_text()
    assert token not in body
    others = [n for n in names if n != pupil_name]
    assert _names_shown(body, others) == []
    assert phone.locator("table.rp-fluency").is_visible()
    assert phone.get_by_role("heading", name="Pour l'aider à la maison").is_visible()
    assert phone.locator(".rp-tips li").count() >= 2
    assert phone.get_by_role("heading", name="Vos données").is_visible()
    assert _horizontal_overflow(phone) == 0
    # The whole 10 x 10 grid fits the phone: no sideways scrolling to find column 10.
    assert (
        phone.evaluate(
            "() => { const b = document.querySelector('table.rp-fluency').parentElement;"
            " return b.scrollWidth - b.clientWidth; }"
        )
        == 0
    )
    assert _small_targets(phone, TARGETS) == []
    phone.screenshot(path=str(screenshots / "report-parent-390x844.png"), full_page=True)
    axe_check(phone, "parent-page")
    # The link, opened again later from history, still works through the cookie.
    phone.reload()
    phone.get_by_role("heading", name=_progress_title(pupil_name)).wait_for()
    parent.close()
