"""Issue 44, item 14: ``report/?from=0001-01-01`` and the report's CSV files
answered 500 (``OverflowError`` turning the date into a moment of the day).
An absurd, impossible or unreadable date is now refused with a short
readable message: the HTML report shows the whole history and says so, a
CSV link answers 400 with the message instead of a file."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PupilFactory, SchoolClassFactory

pytestmark = pytest.mark.django_db

ABSURD = [
    "from=0001-01-01",
    "to=0001-01-01",
    "from=9999-12-31",
    "to=9999-12-31",
    "from=2024-13-45",
    "from=1999-12-31&to=2024-01-01",
    "to=" + "9" * 5000,
    "from=" + "2024-01-01" * 400,
    "from=%00%FF",
]
MESSAGE = "Date non valable"


def _teacher_client() -> tuple[Client, int]:
    school_class = SchoolClassFactory()
    PupilFactory(school_class=school_class)
    client = Client(raise_request_exception=False)
    client.force_login(school_class.teacher)
    return client, school_class.pk


@pytest.mark.parametrize("query", ABSURD)
def test_an_absurd_date_on_the_report_page_is_refused_kindly(query: str) -> None:
    client, class_id = _teacher_client()
    response = client.get(reverse("classroom:class_report", args=[class_id]) + "?" + query)
    assert response.status_code == 200
    html = response.content.decode()
    assert MESSAGE in html and "01/01/2000" in html


@pytest.mark.parametrize("name", ["class_report_csv", "records_csv"])
@pytest.mark.parametrize("query", ABSURD)
def test_an_absurd_date_on_a_csv_link_answers_a_readable_400(query: str, name: str) -> None:
    client, class_id = _teacher_client()
    response = client.get(reverse(f"classroom:{name}", args=[class_id]) + "?" + query)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
    assert MESSAGE in response.content.decode()


def test_a_reasonable_period_still_works() -> None:
    client, class_id = _teacher_client()
    query = "?from=2024-09-01&to=2025-06-30"
    page = client.get(reverse("classroom:class_report", args=[class_id]) + query)
    assert page.status_code == 200 and MESSAGE not in page.content.decode()
    csv = client.get(reverse("classroom:class_report_csv", args=[class_id]) + query)
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")


def test_a_stranger_with_an_absurd_date_still_gets_the_404() -> None:
    """A date error must not tell a stranger the class exists."""
    _client, class_id = _teacher_client()
    stranger = Client()
    stranger.force_login(SchoolClassFactory().teacher)
    url = reverse("classroom:class_report_csv", args=[class_id]) + "?from=0001-01-01"
    assert stranger.get(url).status_code == 404
