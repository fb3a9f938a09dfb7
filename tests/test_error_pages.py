"""Error pages a person can read, in their own language: a parent whose link
expired, a tablet that sent a form from a page opened long ago, a failure."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error

from classroom.services.parents import parent_link_create, parent_link_revoke
from tests.factories import PupilFactory

pytestmark = pytest.mark.django_db

NOT_FOUND = {
    "fr": ("Page introuvable", "demandez-en un nouveau"),
    "de": ("Seite nicht gefunden", "neuen"),
    "en": ("Page not found", "ask the teacher for a new one"),
}


@pytest.mark.parametrize("language", ["fr", "de", "en"])
def test_an_expired_parent_link_says_what_to_do_in_the_parents_language(language: str) -> None:
    link, token = parent_link_create(pupil=PupilFactory(display_name="Lina"), expires_in_days=30)
    parent_link_revoke(link=link)
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(
        reverse("classroom:parent_open", args=[token])
    )
    html = response.content.decode()
    assert response.status_code == 404
    assert f'<html lang="{language}">' in html
    title, advice = NOT_FOUND[language]
    assert title in html and advice in html
    assert "Lina" not in html


def test_every_not_found_is_the_same_page_whoever_asks() -> None:
    """Nothing per visitor (no CSRF token) on it: a missing page and a
    forbidden one cannot be told apart, even by two different visitors."""
    link, token = parent_link_create(pupil=PupilFactory(), expires_in_days=30)
    parent_link_revoke(link=link)
    revoked = Client().get(reverse("classroom:parent_open", args=[token]))
    missing = Client().get("/no-such-page/")
    assert revoked.status_code == missing.status_code == 404
    assert revoked.content == missing.content


def test_a_form_sent_from_a_stale_page_says_reload_not_csrf_jargon() -> None:
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="fr")
    response = client.post(reverse("classroom:join"), {"code": "123456"})
    html = response.content.decode()
    assert response.status_code == 403
    assert "Cette page a expiré" in html and "rechargez la page" in html
    assert "CSRF" not in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", "Un problème est survenu"),
        ("de", "Ein Problem ist aufgetreten"),
        ("en", "Something went wrong"),
    ],
)
def test_a_server_failure_page_is_drawn_without_the_request_in_the_readers_language(
    language: str, words: str
) -> None:
    with translation.override(language):
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert words in response.content.decode()
