"""A teacher picks the interface's language on any teacher page, and stays on
the page they were on."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import SchoolClassFactory

pytestmark = pytest.mark.django_db


def test_a_teacher_switches_to_german_and_the_page_follows() -> None:
    school_class = SchoolClassFactory()
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(school_class.teacher)
    page = reverse("classroom:class_detail", args=[school_class.pk])
    html = client.get(page).content.decode()
    assert 'name="language" value="de"' in html and 'aria-label="Deutsch"' in html
    assert (
        'value="fr" lang="fr" class="btn btn-secondary btn-lang" aria-label="Français" aria-pressed="true"'
        in html
    )
    switched = client.post(reverse("set_language"), {"language": "de", "next": page})
    assert switched.status_code == 302 and switched["Location"] == page
    german = client.get(page).content.decode()
    assert '<html lang="de">' in german and "Meine Klassen" in german
