"""Report pages: fixed query counts, planted weaknesses found, CSV a teacher can open."""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from classroom.management.commands.bench_reports import history_write
from classroom.models import LearningRecord, Pupil
from classroom.services.parents import parent_link_create
from tests.classroom.test_social import assert_scroll_boxes_take_focus
from tests.factories import SchoolClassFactory

MAX_QUERIES = 14  # sessions + auth + the report's own queries; independent of size


def _class_with_history(pupils: int, sessions: int, profiles: list[Any] | None = None) -> Any:
    school_class = SchoolClassFactory()
    made = Pupil.objects.bulk_create(
        [
            Pupil(
                school_class=school_class, display_name=f"P{i}", avatar="chat", picture_code=[0, 1]
            )
            for i in range(pupils)
        ]
    )
    made = list(school_class.pupils.order_by("pk"))
    history_write(
        school_class=school_class,
        pupils=made,
        sessions=sessions,
        seed=7,
        first_table_id=50_000,
        profiles=profiles,
        end=date(2025, 3, 28),
    )
    return school_class


def _teacher(school_class: Any) -> Client:
    client = Client()
    client.force_login(school_class.teacher)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(("pupils", "sessions"), [(2, 2), (8, 12)])
def test_report_pages_make_a_fixed_number_of_queries(
    pupils: int, sessions: int, django_assert_max_num_queries: Any
) -> None:
    school_class = _class_with_history(pupils, sessions)
    client = _teacher(school_class)
    pupil = school_class.pupils.first()
    class_url = reverse("classroom:class_report", args=[school_class.pk])
    client.get(class_url)  # the first read stores the session summaries
    for url in (
        class_url,
        class_url + "?sort=median&dir=desc",
        reverse("classroom:pupil_report", args=[pupil.pk]),
    ):
        with django_assert_max_num_queries(MAX_QUERIES):
            assert client.get(url).status_code == 200
    # Even the first read (that builds the cache) has a fixed cost.
    LearningRecord.objects.none()
    from classroom.models import PupilSessionSummary

    PupilSessionSummary.objects.all().delete()
    with django_assert_max_num_queries(MAX_QUERIES + 2):
        assert client.get(class_url).status_code == 200


@pytest.mark.django_db
def test_report_finds_planted_weaknesses() -> None:
    """A pupil who fails carries with 8 and 9, one who lands on tens: the report
    puts the carry with 9 (or 8) and the tens first, and flags the tens pupil."""
    school_class = _class_with_history(4, 16, profiles=["carries", "tens", "steady", "steady"])
    carries, tens, steady, _ = list(school_class.pupils.order_by("pk"))
    client = _teacher(school_class)
    page = client.get(reverse("classroom:pupil_report", args=[carries.pk]))
    first = page.context["report"].figures.practise[0]
    assert (
        first.code in {"carry_add", "borrow_sub", "carry_digit"}
        or "9" in first.label
        or "8" in first.label
    ), first.label
    tens_report = client.get(reverse("classroom:pupil_report", args=[tens.pk])).context["report"]
    assert tens_report.figures.practise[0].code == "avoid_tens"
    report = client.get(
        reverse("classroom:class_report", args=[school_class.pk]) + "?sort=mult10_rate&dir=desc"
    ).context["report"]
    assert report.rows[0].pupil == tens
    assert any(f.code.startswith("mult10") for f in report.rows[0].flags)
    by_pupil = {r.pupil: r for r in report.rows}
    assert by_pupil[carries].summary.accuracy_crossing < by_pupil[steady].summary.accuracy_crossing


@pytest.mark.django_db
def test_csv_exports_open_in_a_french_spreadsheet() -> None:
    school_class = _class_with_history(3, 2)
    client = _teacher(school_class)
    response = client.get(reverse("classroom:class_report_csv", args=[school_class.pk]))
    raw = b"".join(response.streaming_content)
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM Excel needs for UTF-8
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][0] == "Élève" and len(rows) == 4
    assert all(len(r) == len(rows[0]) for r in rows)
    assert "," in rows[1][2] or rows[1][2].isdigit()  # decimal comma
    response = client.get(reverse("classroom:records_csv", args=[school_class.pk]))
    raw = b"".join(response.streaming_content)
    records = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert len(records) == 1 + LearningRecord.objects.count()
    assert records[1][1].startswith("P")


@pytest.mark.django_db
def test_bad_filter_input_loses_nothing() -> None:
    school_class = _class_with_history(2, 2)
    client = _teacher(school_class)
    url = reverse("classroom:class_report", args=[school_class.pk])
    for query in (
        "?from=2025-02-31",
        "?session=abc",
        "?sort=%3Cscript%3E",
        "?from=zz&to=2025-01-01",
    ):
        assert client.get(url + query).status_code == 200


@pytest.mark.django_db
def test_every_scrolling_table_of_a_report_takes_focus_and_says_what_it_holds() -> None:
    """On a phone the wide tables scroll sideways inside their box: a keyboard
    user reaches each box, and a screen reader names the region it enters
    (the teacher's class and pupil reports, and a parent's page)."""
    school_class = _class_with_history(3, 4)
    client = _teacher(school_class)
    pupil = school_class.pupils.first()
    parent = Client()
    _link, token = parent_link_create(pupil=pupil, expires_in_days=30)
    parent.get(reverse("classroom:parent_open", args=[token]))
    pages = {
        "class": client.get(reverse("classroom:class_report", args=[school_class.pk])),
        "pupil": client.get(reverse("classroom:pupil_report", args=[pupil.pk])),
        "parent": parent.get(reverse("classroom:parent_page")),
    }
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert_scroll_boxes_take_focus(response.content.decode())
