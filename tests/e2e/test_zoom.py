"""Text zoomed to 200 % (WCAG 1.4.4) on a 768 x 1024 tablet: the Chasse table
stays usable. Nothing is cut off sideways, the total and the hand can be read,
a card can still be tapped and the keypad used. The screenshot
(``chasse-zoom200-768x1024.png``) is for a human to look at."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.e2e.conftest import axe_check, small_touch_targets
from tests.e2e.test_play_chasse import CLASS_NAME, PORTRAIT, PUPIL_TARGETS

ZOOM_200 = "() => { document.documentElement.style.fontSize = '200%'; }"


def _practice_table(browser: Any, server: Any) -> Any:
    info = json.loads(
        server.shell(
            "import json; from classroom.models import SchoolClass;"
            f"c = SchoolClass.objects.get(name='{CLASS_NAME}');"
            "p = c.pupils.order_by('display_name')[5];"
            "print(json.dumps({'token': c.link_token, 'name': p.display_name,"
            " 'code': p.picture_code}))"
        ).splitlines()[-1]
    )
    context = browser.new_context(viewport=PORTRAIT, has_touch=True, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{server.url}/practice/{info['token']}/")
    page.get_by_role("link", name=info["name"], exact=True).click()
    page.wait_for_url("**/pupil/**")
    first, second = info["code"]
    page.locator(f'button[name="pick"][value="{first}"]').click()
    page.locator(".pick-slot.filled").first.wait_for()
    page.locator(f'button[name="pick"][value="{second}"]').click()
    page.wait_for_url("**/practice/setup/")
    page.get_by_role("button", name=re.compile("C'est parti")).click()
    page.wait_for_url("**/table/**")
    page.locator(".cg-total-value").wait_for()
    return page


def _overflow(page: Any) -> int:
    return int(
        page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
    )


def _clipped(page: Any, selector: str) -> list[str]:
    """Elements whose own text is cut off (wider or taller than their box)."""
    return list(
        page.evaluate(
            """sel => [...document.querySelectorAll(sel)]
                .filter(el => el.getClientRects().length)
                .filter(el => el.scrollWidth > el.clientWidth + 1)
                .map(el => `${el.className} ${el.scrollWidth}>${el.clientWidth}`)""",
            selector,
        )
    )


def test_table_at_200_percent_text_on_a_tablet(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    page = _practice_table(browser, live_server_url)
    page.evaluate(ZOOM_200)
    page.wait_for_timeout(300)
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "32px"
    assert _overflow(page) == 0
    assert _clipped(page, ".cg-total-value, .cg-whose, .cg-event, .cg-feedback") == []
    page.screenshot(path=str(screenshots / "chasse-zoom200-768x1024.png"), full_page=True)
    axe_check(page, "chasse-zoom200")
    assert small_touch_targets(page, PUPIL_TARGETS) == []

    # Still playable: wait for our turn, tap a card, the keypad is reachable.
    main = page.locator("#table-main")
    main.locator(".cg-myturn").wait_for(timeout=30_000)
    page.evaluate(ZOOM_200)  # the live update replaced the board; the zoom stays on <html>
    card = main.locator(".cg-hand button.cg-card:not([disabled])").first
    card.scroll_into_view_if_needed()
    card.click()
    panel = main.locator(".cg-panel")
    panel.wait_for(timeout=10_000)
    ok = panel.locator('.cg-key[data-key="ok"], .cg-choice, .cg-play').first
    ok.scroll_into_view_if_needed()
    assert ok.is_visible()
    assert _overflow(page) == 0
    page.screenshot(path=str(screenshots / "chasse-zoom200-panel-768x1024.png"), full_page=True)
    assert small_touch_targets(page, PUPIL_TARGETS) == []
    page.context.close()
