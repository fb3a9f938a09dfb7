"""The parent page on a phone (390x844): the chart shows every session the
summary counts (a cropped chart of the last 20 made a steady child look in
decline), its date labels never overlap and the y axis keeps a few labels.
"""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

from tests.e2e.test_play_chasse import CLASS_NAME

PHONE = {"width": 390, "height": 844}

PARENT_LINK = f"""
import json
from classroom.models import SchoolClass
from classroom.services.parents import parent_link_create
pupil = SchoolClass.objects.get(name='{CLASS_NAME}').pupils.get(display_name='Léo')
_link, token = parent_link_create(pupil=pupil, expires_in_days=None)
print(json.dumps(token))
"""

X_LABELS = """() => {
    const svg = document.querySelector('#pp-chart').closest('section').querySelector('svg');
    return [...svg.querySelectorAll('.axis.x text')]
        .filter(t => t.textContent.trim() && getComputedStyle(t).display !== 'none'
                     && t.getBoundingClientRect().width > 0)
        .map(t => { const r = t.getBoundingClientRect();
                    return {text: t.textContent.trim(), left: r.left, right: r.right}; });
}"""


def test_the_parent_chart_shows_every_session_the_summary_counts(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    server = live_server_url
    token = json.loads(server.shell(PARENT_LINK).splitlines()[-1])
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"{server.url}/p/{token}")
    page.wait_for_url("**/parent/")
    summary = page.locator("#pp-what").locator("xpath=..").inner_text()
    sessions = int(re.search(r"(\d+) séances", summary).group(1))  # type: ignore[union-attr]
    assert sessions >= 25  # the demo history: about 30 sessions
    chart = page.locator("#pp-chart").locator("xpath=..")
    # One point per session counted above (the data series is pygal's serie-0).
    points = chart.locator("svg .serie-0 .dot").count()
    assert points == sessions, (points, sessions)
    # And the chart says how many sessions it draws.
    assert f"{sessions} séances" in chart.locator(".rp-chart-desc").inner_text()
    # Date labels: a few, none overlapping the next one.
    labels = page.evaluate(X_LABELS)
    assert 2 <= len(labels) <= 6, labels
    for left, right in pairwise(labels):
        assert left["right"] + 2 <= right["left"], (left, right)
    # A handful of y labels (0, 25, 50, 75, 100), not one every 10 %.
    y_labels = chart.locator("svg .axis.y .guides text").count()
    assert 3 <= y_labels <= 6, y_labels
    chart.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "parent-chart-390x844.png"))
    page.screenshot(path=str(screenshots / "parent-page-390x844.png"), full_page=True)
    context.close()


SCROLL_BOXES = """() => [...document.querySelectorAll('.rp-scroll')]
    .filter(box => box.getClientRects().length > 0)
    .map(box => { const hint = box.previousElementSibling;
                  return {over: box.scrollWidth > box.clientWidth + 1,
                          hint: !!hint && hint.classList.contains('rp-scroll-hint')
                                && hint.getClientRects().length > 0,
                          text: hint ? hint.textContent.trim() : ''}; })"""


def test_a_table_wider_than_the_phone_says_it_scrolls_sideways(
    live_server_url: Any, browser: Any, screenshots: Path
) -> None:
    """At 360 px a parent's data table is wider than the screen and scrolls in
    its box, which nothing showed: a line above it now says so, only while
    part of it is out of view (turned sideways or on a laptop, it goes)."""
    server = live_server_url
    token = json.loads(server.shell(PARENT_LINK).splitlines()[-1])
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.goto(f"{server.url}/p/{token}")
    page.wait_for_url("**/parent/")
    page.locator(".rp-chart-data summary").first.click()  # "see the data as a table"
    boxes = page.evaluate(SCROLL_BOXES)
    assert any(box["over"] for box in boxes), boxes  # the phone is too narrow for one
    for box in boxes:
        assert box["hint"] == box["over"], box
        if box["hint"]:
            assert "glisser" in box["text"], box
    page.locator(".rp-scroll-hint:visible").first.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "parent-scroll-hint-360x740.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function(
        "() => [...document.querySelectorAll('.rp-scroll-hint')].every(h => h.hidden"
        " || h.nextElementSibling.scrollWidth > h.nextElementSibling.clientWidth + 1)"
    )
    for box in page.evaluate(SCROLL_BOXES):
        assert box["hint"] == box["over"], box
    context.close()
