"""What a teacher reads after an action: whole words, in the right number."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tests.factories import SchoolClassFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("names", "said"), [("Léa", "1 élève ajouté."), ("Léa\nNoé", "2 élèves ajoutés.")]
)
def test_adding_pupils_says_how_many_in_plain_french(names: str, said: str) -> None:
    school_class = SchoolClassFactory()
    client = Client()
    client.force_login(school_class.teacher)
    response = client.post(
        reverse("classroom:pupils_add", args=[school_class.pk]), {"names": names}
    )
    assert said in [str(m) for m in get_messages(response.wsgi_request)]


def test_a_wrong_password_speaks_of_the_email_address_the_teacher_typed() -> None:
    school_class = SchoolClassFactory()
    response = Client(HTTP_ACCEPT_LANGUAGE="fr").post(
        reverse("classroom:login"),
        {"username": school_class.teacher.email, "password": "not-the-password"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Adresse e-mail ou mot de passe incorrect" in html
    assert "utilisateur" not in html  # Django's "nom d'utilisateur"


def test_a_name_too_long_is_shortened_and_the_teacher_is_told() -> None:
    school_class = SchoolClassFactory()
    client = Client()
    client.force_login(school_class.teacher)
    long_name = "Marie-Charlotte-Eugénie-Philippine-Rose"  # 39 characters
    response = client.post(
        reverse("classroom:pupils_add", args=[school_class.pk]), {"names": f"Léa\n{long_name}"}
    )
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("raccourcis à 36 caractères" in m and long_name[:36] in m for m in said), said
    assert school_class.pupils.filter(display_name=long_name[:36]).exists()
