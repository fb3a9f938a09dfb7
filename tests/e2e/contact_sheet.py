"""A contact sheet: a static HTML page of drawings from ``static/``, screenshot by chromium.

The page lives in a temporary directory and points at the SVG files through
``file://`` URLs, so no server is needed. The screenshot is for a reviewer's
eyes; :func:`broken_pictures` lets the test check that every picture loaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"

STYLE = """
body { font-family: sans-serif; margin: 12px; background: #f3f0ea; }
h2 { font-size: 16px; margin: 8px 0; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 10px; align-items: flex-start; }
figure { margin: 0; text-align: center; font-size: 11px; }
.card { width: 120px; height: 120px; background: #fff; border: 1px solid #999; border-radius: 8px;
        display: block; overflow: hidden; }
.grey { filter: grayscale(1); }
"""


def static_url(static_path: str) -> str:
    """``file://`` URL of a path as ``cardgames.ui.art`` returns it (fragment kept)."""
    path, _, fragment = static_path.partition("#")
    return (STATIC / path).as_uri() + (f"#{fragment}" if fragment else "")


def render(browser: Any, directory: Path, name: str, body: str, width: int, shot: Path) -> Any:
    html = directory / f"{name}.html"
    html.write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><style>{STYLE}</style></head><body>{body}</body></html>",
        encoding="utf-8",
    )
    page = browser.new_page(viewport={"width": width, "height": 600})
    page.goto(html.as_uri())
    page.wait_for_load_state("load")
    page.screenshot(path=str(shot), full_page=True)
    return page


def broken_pictures(page: Any) -> list[str]:
    """The sources of the pictures that did not load, ``<img>`` or SVG ``<image>``."""
    result: list[str] = page.evaluate(
        """async () => {
            const bad = [];
            for (const img of document.querySelectorAll('img')) {
                if (!img.complete || img.naturalWidth === 0) bad.push(img.src);
            }
            for (const image of document.querySelectorAll('svg image')) {
                const href = image.getAttribute('href');
                const probe = new Image();
                probe.src = href;
                try { await probe.decode(); } catch (e) { bad.push(href); continue; }
                if (probe.naturalWidth === 0) bad.push(href);
            }
            return bad;
        }"""
    )
    return result
