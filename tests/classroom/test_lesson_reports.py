"""The class report after a real lesson (issue 17): the trend says something
without a range, absent pupils say they did not play, a known fact never
sits next to an all-time 50 %."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from classroom import selectors
from classroom.models import LearningRecord
from tests.classroom.reportdata import ended_session, record
from tests.factories import PupilFactory, SchoolClassFactory

pytestmark = pytest.mark.django_db


def _lessons(school_class: Any, pupil: Any, accuracies: list[bool]) -> list[Any]:
    """One session per entry: 10 announcements, all right or half right."""
    sessions = []
    for day, good in enumerate(accuracies):
        session = ended_session(school_class, day)
        LearningRecord.objects.bulk_create(
            record(
                pupil,
                session,
                100 * day + n,
                correct=good or n % 2 == 0,
                announced=23 if good or n % 2 == 0 else 24,
            )
            for n in range(10)
        )
        sessions.append(session)
    return sessions


def test_the_trend_compares_the_last_five_sessions_without_a_range() -> None:
    school_class = SchoolClassFactory()
    pupil = PupilFactory(school_class=school_class, display_name="Léa")
    _lessons(school_class, pupil, [False] * 5 + [True] * 5)
    row = selectors.class_report(school_class=school_class).rows[0]
    assert row.trend.direction == "up" and row.trend.accuracy_delta == 50.0
    assert row.summary.sessions == 10  # the figures still cover the whole history


def test_a_pupil_absent_from_the_session_says_so_not_ras(client: Client) -> None:
    school_class = SchoolClassFactory()
    client.force_login(school_class.teacher)
    lea = PupilFactory(school_class=school_class, display_name="Léa")
    PupilFactory(school_class=school_class, display_name="Tom")
    session = _lessons(school_class, lea, [True])[0]
    html = client.get(
        f"/teacher/classes/{school_class.pk}/report/?session={session.pk}"
    ).content.decode()
    tom_row = html[html.index(">Tom<") :].split("</tr>", 1)[0]
    assert "n'a pas joué à cette séance" in tom_row and "RAS" not in tom_row
    lea_row = html[html.index(">Léa<") :].split("</tr>", 1)[0]
    assert "RAS" in lea_row


def test_ending_a_session_builds_its_summaries_and_the_first_report(
    client: Client, django_capture_on_commit_callbacks: Any, django_assert_max_num_queries: Any
) -> None:
    """The first class report after a lesson used to aggregate that lesson on
    the teacher's request. Now the end of the session stores its summaries and
    draws the default view (after commit), so the first view reads the cache:
    no query groups the learning records."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from classroom import services
    from classroom.models import ClassSession, PupilSessionSummary

    school_class = SchoolClassFactory()
    client.force_login(school_class.teacher)
    lea = PupilFactory(school_class=school_class, display_name="Léa")
    tom = PupilFactory(school_class=school_class, display_name="Tom")
    _lessons(school_class, lea, [True, False])
    lesson = ClassSession.objects.create(school_class=school_class, game="chasse")
    LearningRecord.objects.bulk_create(
        [record(lea, lesson, 500 + n) for n in range(5)]
        + [record(tom, lesson, 600 + n) for n in range(5)]
    )
    client.get(f"/teacher/classes/{school_class.pk}/report/")  # during the lesson: live
    assert not PupilSessionSummary.objects.filter(class_session=lesson).exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.session_end(class_session=lesson)
    assert PupilSessionSummary.objects.filter(class_session=lesson).count() == 2
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/teacher/classes/{school_class.pk}/report/")
    assert page.status_code == 200 and "Tom" in page.content.decode()
    grouped = [q["sql"] for q in queries if "GROUP BY" in q["sql"].upper()]
    assert grouped == [], grouped
    row = next(r for r in page.context["report"].rows if r.pupil == tom)
    assert row.summary.announcements == 5
