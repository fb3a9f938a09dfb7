"""The landing page on a tablet, in portrait and landscape, looked at as a person would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import LiveServer


@pytest.mark.parametrize(("width", "height"), [(768, 1024), (1280, 800)])
def test_landing_page_paths_are_big_touch_targets(
    live_server_url: LiveServer, browser: Any, screenshots: Path, width: int, height: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": height}, has_touch=True)
    page.goto(live_server_url.url + "/")
    for name in (
        "Je suis élève",
        "Je m'entraîne seul",
        "Créer mon compte (gratuit)",
        "J'ai déjà un compte",
    ):
        link = page.get_by_role("link", name=name)
        box = link.bounding_box()
        assert box is not None and box["height"] >= 48 and box["width"] >= 48
        assert box["x"] >= 0 and box["x"] + box["width"] <= width  # nothing off-screen
    page.screenshot(path=str(screenshots / f"home-{width}x{height}.png"), full_page=True)
    page.close()


def test_csp_refuses_inline_handlers_and_the_fixture_sees_it(browser: Any, live_server_url: Any) -> None:
    """The strict CSP is served (development mode too) and enforced: an inline
    handler slipped into the page is refused, and the violation is what the
    autouse fixture collects (then cleared here, since it is expected)."""
    from tests.e2e.conftest import CSP_VIOLATIONS

    page = browser.new_page()
    response = page.goto(live_server_url.url + "/")
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "object-src 'none'" in policy
    page.evaluate(
        "document.body.insertAdjacentHTML('beforeend', "
        "'<img src=\"/static/img/mouse.svg\" onload=\"document.title=1\">')"
    )
    page.wait_for_timeout(500)
    assert page.title() != "1"
    assert any("script-src" in v for v in CSP_VIOLATIONS), CSP_VIOLATIONS
    CSP_VIOLATIONS.clear()
    page.close()
