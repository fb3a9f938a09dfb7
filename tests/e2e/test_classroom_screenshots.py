"""The classroom in a real browser: a pupil joins on a tablet, the projector
shows them live, and the login cards print 8 to an A4 page.

Screenshots go to ``artifacts/screenshots/`` for a human to look at.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.board import groups_make
from tests.e2e.conftest import axe_check, small_touch_targets

TABLET = {"width": 768, "height": 1024}
# Everything a pupil taps (WCAG 2.2 target size: 44 x 44 CSS px).
PUPIL_TARGETS = "main button, main a, main input:not([type=hidden]), main label"
PROJECTOR = {"width": 1920, "height": 1080}


def _demo(server: Any) -> dict[str, Any]:
    """A fresh Chasse session of the demo class, as the teacher opens one each
    morning: nobody has joined it yet, whatever other tests did before."""
    code = (
        "import json; from classroom.models import SchoolClass; from classroom import services;"
        "c = SchoolClass.objects.get(name='CE1 Les Chats');"
        "s = services.session_start(school_class=c, game='chasse', options={});"
        "p = list(s.school_class.pupils.order_by('display_name').values('pk', 'display_name', 'picture_code'));"
        "print(json.dumps({'code': s.join_code, 'session': s.pk, 'class': s.school_class_id, 'pupils': p}))"
    )
    return json.loads(server.shell(code).splitlines()[-1])


def _tablet_join(
    browser: Any, server: Any, demo: dict[str, Any], pupil: dict[str, Any], shots: Path | None
) -> Any:
    context = browser.new_context(
        viewport=TABLET, device_scale_factor=1, has_touch=True, locale="fr-FR"
    )
    page = context.new_page()
    page.goto(f"{server.url}/join")
    if shots:
        page.screenshot(path=str(shots / "join-keypad-768x1024.png"))
        axe_check(page, "join-keypad")
        assert small_touch_targets(page, PUPIL_TARGETS) == [], "join-keypad"
    page.wait_for_load_state("networkidle")
    for typed, digit in enumerate(demo["code"][:-1], start=1):
        page.get_by_role("button", name=digit, exact=True).click()
        page.locator(".code-box.filled").nth(typed - 1).wait_for()
    page.get_by_role("button", name=demo["code"][-1], exact=True).click()
    page.wait_for_url("**/join/names/")
    if shots:
        page.screenshot(path=str(shots / "join-names-768x1024.png"), full_page=True)
        axe_check(page, "join-names")
        assert small_touch_targets(page, PUPIL_TARGETS) == [], "join-names"
    page.get_by_role("link", name=pupil["display_name"], exact=True).click()
    page.wait_for_url("**/join/pupil/**")
    first, second = pupil["picture_code"]
    page.locator(f'button[name="pick"][value="{first}"]').click()
    page.locator(".pick-slot.filled").first.wait_for()
    if shots:
        page.screenshot(path=str(shots / "join-pictures-768x1024.png"))
        axe_check(page, "join-pictures")
        assert small_touch_targets(page, PUPIL_TARGETS) == [], "join-pictures"
    page.locator(f'button[name="pick"][value="{second}"]').click()
    page.wait_for_url("**/lobby/")
    page.get_by_text("Attends ta table").wait_for()
    if shots:
        page.screenshot(path=str(shots / "lobby-768x1024.png"))
        axe_check(page, "lobby")
        assert small_touch_targets(page, PUPIL_TARGETS) == [], "lobby"
    return context


def test_a_pupil_joins_and_the_projector_shows_them_live(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    demo = _demo(server)
    teacher = browser.new_context(viewport=PROJECTOR, locale="fr-FR")
    projector = teacher.new_page()
    projector.goto(f"{server.url}/teacher/login/")
    projector.fill('input[name="username"]', "demo@example.org")
    projector.fill('input[name="password"]', "souris-demo-2026")
    projector.get_by_role("button", name="Se connecter").last.click()
    projector.wait_for_url("**/teacher/")
    projector.goto(f"{server.url}/teacher/sessions/{demo['session']}/projector/")
    projector.get_by_text("On attend les premiers élèves").wait_for()

    pupils = demo["pupils"]
    tablets = [_tablet_join(browser, server, demo, pupils[0], screenshots)]
    projector.locator("#joined").get_by_text(pupils[0]["display_name"], exact=True).wait_for(
        timeout=10_000
    )
    for pupil in pupils[1:9]:
        tablets.append(_tablet_join(browser, server, demo, pupil, None))
    projector.locator("#joined").get_by_text(pupils[8]["display_name"], exact=True).wait_for(
        timeout=10_000
    )
    projector.wait_for_timeout(500)
    projector.screenshot(path=str(screenshots / "projector-1920x1080.png"))
    axe_check(projector, "projector")

    # The teacher's session page: tablets, groups of 3, and the board.
    session_page = teacher.new_page()
    session_page.set_viewport_size({"width": 1280, "height": 800})
    session_page.goto(f"{server.url}/teacher/sessions/{demo['session']}/")
    groups_make(session_page, 3)
    session_page.locator(".table-card").nth(2).wait_for()
    session_page.locator("#board .chip").first.click()
    session_page.get_by_text("Mettre ici").first.wait_for()
    session_page.screenshot(path=str(screenshots / "teacher-session-1280x800.png"), full_page=True)
    axe_check(session_page, "teacher-session")

    # Start the tables: the lobby tablet moves to its table page by itself.
    session_page.get_by_role("button", name="Lancer").click()
    session_page.wait_for_load_state()
    lobby = tablets[0].pages[0]
    lobby.wait_for_url("**/table/**", timeout=15_000)
    for context in tablets:
        context.close()
    teacher.close()


def test_login_cards_print_eight_to_an_a4_page(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    demo = _demo(server)
    context = browser.new_context(viewport={"width": 1100, "height": 1200}, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{server.url}/teacher/login/")
    page.fill('input[name="username"]', "demo@example.org")
    page.fill('input[name="password"]', "souris-demo-2026")
    page.get_by_role("button", name="Se connecter").last.click()
    page.wait_for_url("**/teacher/")
    page.goto(f"{server.url}/teacher/classes/{demo['class']}/")
    page.screenshot(path=str(screenshots / "teacher-class-1100.png"), full_page=True)
    axe_check(page, "teacher-class")
    page.goto(f"{server.url}/teacher/classes/{demo['class']}/cards/")
    page.emulate_media(media="print")
    first_sheet = page.locator(".sheet").first
    assert first_sheet.locator(".login-card").count() == 8
    box = first_sheet.bounding_box()
    assert box is not None
    # A4 at 96 dpi is 794 px wide: the sheet fills it.
    assert abs(box["width"] - 793.7) < 2
    first_sheet.screenshot(path=str(screenshots / "login-cards-print-a4.png"))
    axe_check(page, "login-cards")
    pdf = page.pdf(format="A4", print_background=True)
    (screenshots / "login-cards.pdf").write_bytes(pdf)
    assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + pdf.count(b"/Type/Page") >= 1
    context.close()
