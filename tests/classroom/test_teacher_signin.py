"""A teacher whose sign-in expired opens a saved link (a report, the live view):
they are asked to sign in, then land on that very page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, SchoolClassFactory

pytestmark = pytest.mark.django_db


def test_a_saved_report_link_leads_through_sign_in_back_to_the_report() -> None:
    school_class = SchoolClassFactory()
    report = reverse("classroom:class_report", args=[school_class.pk])
    client = Client()
    response = client.get(report)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('classroom:login')}?next={report}"
    signed_in = client.post(
        response["Location"],
        {"username": school_class.teacher.email, "password": PASSWORD},
    )
    assert signed_in.status_code == 302 and signed_in["Location"] == report
    assert client.get(report).status_code == 200


def test_a_missing_class_asks_for_sign_in_exactly_like_a_real_one() -> None:
    real = Client().get(reverse("classroom:class_detail", args=[SchoolClassFactory().pk]))
    missing = Client().get(reverse("classroom:class_detail", args=[987654]))
    assert real.status_code == missing.status_code == 302
    assert real["Location"].replace(str(real.wsgi_request.path), "") == missing["Location"].replace(
        str(missing.wsgi_request.path), ""
    )


def test_a_live_fragment_of_a_page_left_open_sends_the_whole_page_to_sign_in() -> None:
    school_class = SchoolClassFactory()
    page = f"http://testserver{reverse('classroom:class_detail', args=[school_class.pk])}"
    response = Client().post(
        reverse("classroom:class_edit", args=[school_class.pk]),
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL=page,
    )
    assert (
        response["HX-Redirect"]
        == f"{reverse('classroom:login')}?next={page[len('http://testserver') :]}"
    )


def test_the_sign_in_and_sign_up_pages_stay_open() -> None:
    assert Client().get(reverse("classroom:login")).status_code == 200
    assert Client().get(reverse("classroom:signup")).status_code == 200
