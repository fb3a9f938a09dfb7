"""The pupils' home-screen app (config/pwa.py): manifest, worker, offline page.

The browser half (installable in chromium, offline reload, what the caches
hold) is tests/e2e/test_installable.py."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import TeacherFactory

ROOT = Path(__file__).resolve().parent.parent


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_makes_the_join_screen_an_app(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "La Chasse aux Souris"
    assert manifest["short_name"]
    assert manifest["start_url"] == "/join"
    assert manifest["display"] == "standalone"
    assert manifest["scope"] == "/"
    assert manifest["theme_color"] == "#3d5afe"
    assert manifest["background_color"] == "#fff9f0"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert icon["src"].startswith(settings.STATIC_URL)
        file = ROOT / "static" / icon["src"].removeprefix(settings.STATIC_URL)
        assert file.exists(), icon["src"]
        if icon["type"] == "image/png":
            side = int(icon["sizes"].split("x")[0])
            assert png_size(file) == (side, side)


def test_the_manifest_speaks_the_tablets_language(client: Client) -> None:
    manifest = json.loads(client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="de").content)
    assert manifest["lang"] == "de"


def test_the_worker_is_served_from_the_root_as_javascript(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Cache-Control"] == "no-cache"
    source = response.content.decode()
    for language, _name in settings.LANGUAGES:
        assert f'"/offline/?lang={language}"' in source


def test_the_worker_stores_static_files_and_offline_pages_only(client: Client) -> None:
    """Everything precached is a static file or the offline page, and the only
    ``cache.put`` calls are a static file and the remembered language: a page,
    which may hold a pupil's name, is never stored."""
    source = client.get("/sw.js").content.decode()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", source).group(1))  # type: ignore[union-attr]
    assert precache and all(url.startswith(settings.STATIC_URL) for url in precache)
    puts = re.findall(r"cache\.put\(([^,]+),", source)
    assert sorted(puts) == ["LANGUAGE_KEY", "request"]
    static_file = source[
        source.index("async function staticFile") : source.index('self.addEventListener("fetch"')
    ]
    assert "cache.put(request" in static_file
    navigate = source[
        source.index("async function navigate") : source.index("async function staticFile")
    ]
    assert "cache.put(request" not in navigate


@pytest.mark.parametrize(
    ("language", "title"),
    [("fr", "Pas de réseau"), ("de", None), ("en", None)],
)
def test_the_offline_page_comes_in_each_language(
    client: Client, language: str, title: str | None
) -> None:
    from django.utils import translation

    response = client.get(f"/offline/?lang={language}")
    assert response.status_code == 200
    assert response["Content-Language"] == language
    page = response.content.decode()
    assert f'<html lang="{language}">' in page
    with translation.override(language):
        expected = translation.gettext("Pas de réseau")
    assert f'<h1 id="offline-title">{title or expected}</h1>' in page


def test_the_offline_page_without_a_language_follows_the_browser(client: Client) -> None:
    response = client.get("/offline/", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Language"] == "en"


def test_the_csp_allows_our_own_worker_and_manifest(client: Client) -> None:
    policy = client.get("/offline/")["Content-Security-Policy"]
    assert "worker-src 'self'" in policy
    assert "manifest-src 'self'" in policy


@pytest.mark.django_db
def test_the_join_screen_links_the_manifest_and_registers_the_worker(client: Client) -> None:
    page = client.get("/join").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'data-worker="/sw.js"' in page


@pytest.mark.django_db
def test_a_teachers_page_stays_an_ordinary_page(client: Client) -> None:
    client.force_login(TeacherFactory())
    response = client.get("/teacher/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'rel="manifest"' not in page
    assert "register.js" not in page
