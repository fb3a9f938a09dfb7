"""The landing page: two clear paths, French by default, built for tablets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_home_offers_the_teacher_and_the_pupil_paths_in_french(client: Client) -> None:
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="fr">' in html
    assert "Je suis enseignant·e" in html
    assert "Je suis élève" in html
    assert 'href="/join"' in html


def test_home_sends_csrf_in_hx_headers_and_loads_htmx_with_the_ws_extension(client: Client) -> None:
    html = client.get("/").content.decode()
    assert re.search(r"hx-headers='\{\"X-CSRFToken\": \"[A-Za-z0-9]+\"\}'", html)
    assert "htmx-2.min.js" in html
    assert "ext/hx-ws-2.min.js" in html
    assert html.count('rel="stylesheet"') == 1


def test_home_is_translated_to_german_and_english(client: Client) -> None:
    de = client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    en = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ich bin Schüler·in" in de
    assert "I am a pupil" in en


def test_stylesheet_sets_touch_targets_of_at_least_48px() -> None:
    css = (Path(__file__).resolve().parent.parent / "static" / "css" / "app.css").read_text()
    assert "--touch: 48px" in css
    for selector in (".btn, button", "input, select, textarea"):
        block = css[css.index(selector) : css.index("}", css.index(selector))]
        assert "min-height: var(--touch)" in block
