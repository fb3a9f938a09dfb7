"""Solo practice can be found on a tablet: the home page and the join page
link to it, its page answers 200 and helps, and once the tablet has met its
class it offers that class. The teacher's switch is in the class form."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.test_play_chasse import CLASS_NAME, _teacher

PORTRAIT = {"width": 768, "height": 1024}
TABLET_LANDSCAPE = {"width": 1024, "height": 768}


def test_a_pupil_finds_solo_practice_from_the_home_page(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    info = json.loads(
        server.shell(
            "import json; from classroom.models import SchoolClass;"
            f"c = SchoolClass.objects.get(name='{CLASS_NAME}');"
            "print(json.dumps({'token': c.link_token, 'pk': c.pk}))"
        ).splitlines()[-1]
    )
    context = browser.new_context(viewport=PORTRAIT, has_touch=True)
    page = context.new_page()
    page.goto(f"{server.url}/")
    link = page.get_by_role("link", name="Je m'entraîne seul")
    box = link.bounding_box()
    assert box is not None and box["height"] >= 48 and box["x"] + box["width"] <= PORTRAIT["width"]
    with page.expect_response(lambda r: r.url.endswith("/practice/")) as answer:
        link.click()
    assert answer.value.status == 200
    assert "QR code" in page.locator("main").inner_text()
    page.screenshot(path=str(screenshots / "practice-entry-768x1024.png"), full_page=True)
    # The join page links to it as well.
    page.goto(f"{server.url}/join")
    assert page.get_by_role("link", name="Pas de code ? Je m'entraîne seul").count() == 1
    # Once the tablet met its class (its login card's QR code), the page offers it.
    page.goto(f"{server.url}/practice/{info['token']}/")
    page.goto(f"{server.url}/practice/")
    page.set_viewport_size(TABLET_LANDSCAPE)
    go = page.get_by_role("link", name=f"Je m'entraîne avec la classe {CLASS_NAME}")
    go.wait_for()
    page.screenshot(path=str(screenshots / "practice-entry-class-1024x768.png"), full_page=True)
    go.click()
    page.wait_for_url(f"**/practice/{info['token']}/")
    context.close()

    teacher, tpage = _teacher(browser, server)
    tpage.goto(f"{server.url}/teacher/classes/{info['pk']}/edit/")
    switch = tpage.get_by_label("Entraînement libre")
    assert switch.is_checked()
    tpage.screenshot(path=str(screenshots / "class-form-practice-1280x800.png"), full_page=True)
    teacher.close()
