"""The fifteen attacks of the security review (issue 13), replayed.

Each test is the attack as the reviewer ran it; each failed before its fix.
The numbers in the names are the findings' numbers in the issue."""

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
from tests.factories import SchoolClassFactory

pytestmark = pytest.mark.django_db


def _teacher(school_class: Any) -> Client:
    client = Client()
    client.force_login(school_class.teacher)
    return client


def _csv(response: Any) -> list[list[str]]:
    raw = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(raw), delimiter=";"))


# ------------------------------------------------------------------ 6
@pytest.mark.parametrize("name", ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tx"])
def test_06_csv_exports_defuse_formulas_in_names(name: str) -> None:
    school_class = SchoolClassFactory()
    pupils = [
        Pupil.objects.create(
            school_class=school_class, display_name=n, avatar="chat", picture_code=[0, 1]
        )
        for n in (name, "Léa", "Nour")
    ]
    history_write(
        school_class=school_class, pupils=pupils, sessions=2, seed=3,
        first_table_id=70_000, end=date(2025, 3, 28),
    )
    client = _teacher(school_class)
    report = _csv(client.get(reverse("classroom:class_report_csv", args=[school_class.pk])))
    records = _csv(client.get(reverse("classroom:records_csv", args=[school_class.pk])))
    assert "'" + name in [row[0] for row in report[1:]]
    assert name not in [row[0] for row in report[1:]]
    names = {row[1] for row in records[1:]}
    assert "'" + name in names and name not in names
    # Numbers stay numbers (a negative value is not a formula to defuse).
    assert all(not cell.startswith("'") for row in records[1:] for cell in row[2:])


# ------------------------------------------------------------------ 13
def test_13_records_csv_with_a_huge_session_number_answers_cleanly() -> None:
    school_class = SchoolClassFactory()
    client = _teacher(school_class)
    for huge in ("999999999999999999999", "-99999999999999999999", "1e400", "9" * 200):
        response = client.get(
            reverse("classroom:records_csv", args=[school_class.pk]), {"session": huge}
        )
        assert response.status_code == 200
        rows = _csv(response)  # the whole stream, no crash halfway
        assert len(rows) == 1 and rows[0][0] == "Date"
        page = client.get(reverse("classroom:class_report", args=[school_class.pk]), {"session": huge})
        assert page.status_code == 200
    assert LearningRecord.objects.count() == 0
