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
    for name in ("Je suis élève", "Je suis enseignant·e"):
        link = page.get_by_role("link", name=name)
        box = link.bounding_box()
        assert box is not None and box["height"] >= 48 and box["width"] >= 48
        assert box["x"] >= 0 and box["x"] + box["width"] <= width  # nothing off-screen
    page.screenshot(path=str(screenshots / f"home-{width}x{height}.png"), full_page=True)
    page.close()
