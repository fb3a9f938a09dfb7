"""The report selectors compute the right figures on small hand-made data."""

from __future__ import annotations

from datetime import timedelta

import pytest

from classroom import selectors
from classroom.insights import pupil_summary
from classroom.models import LearningRecord, PupilSessionSummary
from classroom.services.summaries import class_summaries_store
from tests.classroom.reportdata import T0, ended_session, record
from tests.factories import PupilFactory


@pytest.mark.django_db
def test_class_report_figures_by_hand() -> None:
    pupil = PupilFactory()
    s1 = ended_session(pupil.school_class, 0)
    rows = [
        record(pupil, s1, 1, compute_ms=1000),
        record(pupil, s1, 2, compute_ms=3000),
        # crossing, wrong, tens error
        record(
            pupil,
            s1,
            3,
            total_before=27,
            card_value=5,
            total_after=32,
            announced=22,
            correct=False,
            crossed_ten=True,
            error_kind="tens",
            compute_ms=5000,
        ),
        # crossing, right
        record(
            pupil,
            s1,
            4,
            total_before=28,
            card_value=4,
            total_after=32,
            announced=32,
            crossed_ten=True,
            compute_ms=7000,
        ),
        # avoidable multiple of ten, right
        record(
            pupil,
            s1,
            5,
            total_before=27,
            card_value=3,
            total_after=30,
            announced=30,
            multiple_of_ten=True,
            avoidable=True,
            compute_ms=9000,
        ),
        # timeout: neither an announcement nor a play
        record(pupil, s1, 6, announced=None, correct=None, compute_ms=None, timed_out=True),
    ]
    LearningRecord.objects.bulk_create(rows)
    report = selectors.class_report(school_class=pupil.school_class)
    (row,) = report.rows
    s = row.summary
    assert (s.plays, s.announcements, s.correct, s.timeouts) == (5, 5, 4, 1)
    assert s.accuracy == 80.0
    assert s.accuracy_crossing == 50.0  # 1 of 2
    assert s.accuracy_non_crossing == 100.0  # 3 of 3
    assert s.avoidable_mult10 == 1 and s.mult10_rate == 20.0
    assert s.median_compute_ms == 5000  # of correct answers: 1000, 3000, 7000, 9000
    # The same figures as the analytics core computes from the raw records.
    plays = selectors.records_as_plays(LearningRecord.objects.all())
    assert s == pupil_summary(plays=plays)
    # Stored (as the report's view stores an ended session), it reads the same.
    assert class_summaries_store(school_class=pupil.school_class) == 1
    assert PupilSessionSummary.objects.count() == 1
    again = selectors.class_report(school_class=pupil.school_class).rows[0].summary
    assert again == s


@pytest.mark.django_db
def test_period_filter_trend_and_sorting() -> None:
    a = PupilFactory(display_name="Anna")
    b = PupilFactory(display_name="Zoé", school_class=a.school_class)
    sessions = [ended_session(a.school_class, day) for day in range(3)]
    rows = []
    for i, session in enumerate(sessions):
        for n in range(10):
            # Anna: 50 % then 100 %; Zoé: always 90 %.
            a_ok = i == 2 or n % 2 == 0
            rows.append(
                record(
                    a,
                    session,
                    100 * i + n,
                    correct=a_ok,
                    announced=23 if a_ok else 24,
                    created_at=session.started_at + timedelta(minutes=n),
                )
            )
            b_ok = n != 0
            rows.append(
                record(
                    b,
                    session,
                    100 * i + n,
                    correct=b_ok,
                    announced=23 if b_ok else 24,
                    created_at=session.started_at + timedelta(minutes=n),
                )
            )
    LearningRecord.objects.bulk_create(rows)
    report = selectors.class_report(school_class=a.school_class, session_id=sessions[2].pk)
    by_name = {r.pupil.display_name: r for r in report.rows}
    assert by_name["Anna"].summary.accuracy == 100.0
    assert by_name["Anna"].trend.accuracy_delta == 50.0 and by_name["Anna"].trend.direction == "up"
    assert by_name["Zoé"].trend.direction == "flat"
    day0 = (T0 + timedelta(days=0)).date()
    first = selectors.class_report(school_class=a.school_class, date_from=day0, date_to=day0)
    assert {r.pupil.display_name: r.summary.announcements for r in first.rows} == {
        "Anna": 10,
        "Zoé": 10,
    }
    asc = selectors.class_report(school_class=a.school_class, sort="accuracy")
    assert [r.pupil.display_name for r in asc.rows] == ["Anna", "Zoé"]  # 66.7 % < 90 %
    desc = selectors.class_report(school_class=a.school_class, sort="accuracy", descending=True)
    assert [r.pupil.display_name for r in desc.rows] == ["Zoé", "Anna"]
