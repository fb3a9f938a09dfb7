"""Draws the home-screen icons (``static/pwa/icon-192.png``, ``icon-512.png``)
from ``static/pwa/icon.svg`` with Debian's chromium, the browser the tests use:
the PNGs are then exactly the SVG, with no image library to install.

Run after changing the SVG: ``.venv/bin/python scripts/pwa_icons.py``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

PWA = Path(__file__).resolve().parent.parent / "static" / "pwa"


def main() -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    svg = (PWA / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for size in (192, 512):
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<style>html,body{{margin:0}}svg{{display:block}}</style>{sized}")
            page.screenshot(path=str(PWA / f"icon-{size}.png"), omit_background=False)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
