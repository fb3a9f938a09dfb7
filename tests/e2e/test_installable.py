"""The pupils' app installs in chromium and reads well offline (issue 50).

A tablet loads the join screen: the manifest is valid, its icons load at their
size, the service worker controls the page after a reload. Offline, a reload
shows the offline page in the tablet's language (French, German). After a
pupil has reached the lobby, no stored response holds the pupil's name. A
teacher's page links no manifest and registers no worker.
"""

from __future__ import annotations

import struct
from typing import Any

from django.utils import translation

from tests.e2e.test_classroom_screenshots import TABLET, _demo, _tablet_join

WAIT_FOR_WORKER = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return registration.active ? registration.active.scriptURL : null;
}"""

CACHED_BODIES = """async () => {
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      found.push({ url: request.url, body: await response.text() });
    }
  }
  return found;
}"""


def _installed(browser: Any, server: Any, locale: str) -> tuple[Any, Any]:
    context = browser.new_context(viewport=TABLET, has_touch=True, locale=locale)
    page = context.new_page()
    page.goto(f"{server.url}/join")
    assert page.evaluate(WAIT_FOR_WORKER) == f"{server.url}/sw.js"
    page.reload()
    assert page.evaluate("() => navigator.serviceWorker.controller !== null"), (
        "the worker does not control the page"
    )
    return context, page


def test_the_join_screen_is_an_installable_app(live_server_url: Any, browser: Any) -> None:
    server = live_server_url
    context, page = _installed(browser, server, "fr-FR")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    manifest = page.request.get(f"{server.url}{href}")
    assert manifest.ok and manifest.headers["content-type"] == "application/manifest+json"
    data = manifest.json()
    assert data["name"] and data["short_name"]
    assert data["start_url"] == "/join" and data["display"] == "standalone"
    sizes = set()
    for icon in data["icons"]:
        response = page.request.get(f"{server.url}{icon['src']}")
        assert response.ok, icon["src"]
        if icon["type"] == "image/png":
            width, height = struct.unpack(">II", response.body()[16:24])
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
    assert {192, 512} <= sizes
    # Chromium's own verdict on the manifest and on installability. Playwright's
    # contexts are incognito windows, which chromium never installs from: that
    # one reason is the test browser's, not the app's.
    session = context.new_cdp_session(page)
    assert session.send("Page.getAppManifest")["errors"] == []
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [error for error in errors if error["errorId"] != "in-incognito"] == [], errors
    context.close()


def _offline_reload(page: Any, context: Any, language: str) -> None:
    context.set_offline(True)
    page.reload()
    assert page.locator("html").get_attribute("lang") == language
    with translation.override(language):
        title = translation.gettext("Pas de réseau")
    assert page.locator("h1").inner_text() == title
    context.set_offline(False)


def test_offline_a_reload_shows_the_offline_page_in_the_tablets_language(
    live_server_url: Any, browser: Any
) -> None:
    server = live_server_url
    for locale, language in (("fr-FR", "fr"), ("de-DE", "de")):
        context, page = _installed(browser, server, locale)
        _offline_reload(page, context, language)
        context.close()


def test_no_stored_response_holds_a_pupils_name(live_server_url: Any, browser: Any) -> None:
    server = live_server_url
    demo = _demo(server)
    pupil = demo["pupils"][0]
    context = _tablet_join(browser, server, demo, pupil, None)
    page = context.pages[0]
    assert page.evaluate(WAIT_FOR_WORKER)
    page.reload()
    page.get_by_text(pupil["display_name"]).first.wait_for()
    stored = page.evaluate(CACHED_BODIES)
    assert any("/offline/" in entry["url"] for entry in stored)
    # Static files are the same for everyone (a CSS comment may cite the demo
    # class's names); every other stored response must not name the pupil.
    holding = [
        entry["url"]
        for entry in stored
        if "/static/" not in entry["url"] and pupil["display_name"] in entry["body"]
    ]
    assert holding == [], f"stored with {pupil['display_name']!r} in it: {holding}"
    assert all(
        "/static/" in entry["url"]
        or "/offline/" in entry["url"]
        or "__pupil-language__" in entry["url"]
        for entry in stored
    )
    # Offline, the lobby's address shows the offline page, not the stored lobby.
    context.set_offline(True)
    page.reload()
    assert pupil["display_name"] not in page.content()
    assert page.locator("#offline-title").count() == 1
    context.close()


def test_a_teachers_page_stays_an_ordinary_page(live_server_url: Any, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"{live_server_url.url}/teacher/")
    assert "/join" not in page.url
    assert page.locator('link[rel="manifest"]').count() == 0
    assert page.locator('script[src$="register.js"]').count() == 0
    assert (
        page.evaluate("() => navigator.serviceWorker.getRegistrations().then((r) => r.length)") == 0
    )
    page.close()
