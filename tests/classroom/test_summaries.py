"""The stored per-session summaries: counted by the pupil page's own rule, so a
stored row always equals a recount from the records; written by the service
only; dropped by a late record and stored again by the next report."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from classroom import selectors
from classroom.insights import Totals, pooled_summary, pupil_summary
from classroom.management.commands.bench_reports import history_write
from classroom.models import LearningRecord, Pupil, PupilSessionSummary
from classroom.selectors.summaries import class_summaries
from classroom.services.summaries import class_summaries_store, summaries_drop
from tests.classroom.reportdata import ended_session, record
from tests.factories import PupilFactory, SchoolClassFactory

pytestmark = pytest.mark.django_db


def _class_with_history(pupils: int = 4, sessions: int = 5) -> Any:
    school_class = SchoolClassFactory()
    Pupil.objects.bulk_create(
        Pupil(school_class=school_class, display_name=f"P{i}", avatar="chat", picture_code=[0, i])
        for i in range(pupils)
    )
    history_write(
        school_class=school_class,
        pupils=list(school_class.pupils.order_by("pk")),
        sessions=sessions,
        seed=11,
        first_table_id=70_000,
        end=date(2025, 3, 28),
        plays_per_session=30,
    )
    return school_class


def test_a_stored_summary_equals_a_recount_from_the_records() -> None:
    """Every stored (pupil, session) row gives exactly the figures the pupil
    page counts from that session's records, the mean think time included."""
    school_class = _class_with_history()
    assert class_summaries_store(school_class=school_class) > 0
    stored = class_summaries(school_class=school_class)
    assert len(stored) == PupilSessionSummary.objects.count() > 0
    plays = selectors.records_as_plays(LearningRecord.objects.all())
    for counts in stored:
        mine = [
            p
            for p in plays
            if p.pupil_id == counts.pupil_id and p.session_id == counts.class_session_id
        ]
        recount = pupil_summary(plays=mine)
        assert pooled_summary([counts]) == recount
        assert recount.mean_think_ms is not None
        assert counts.first_at == min(p.created_at for p in mine)
    # And pooled over a pupil's whole history.
    pupil = school_class.pupils.order_by("pk").first()
    whole = pooled_summary([c for c in stored if c.pupil_id == pupil.pk])
    assert whole == pupil_summary(plays=[p for p in plays if p.pupil_id == pupil.pk])


def test_the_mean_think_time_counts_the_timed_announcements_only() -> None:
    """A timeout (its time is the whole turn) and an announcement without a
    measured time (read as 0) leave the mean alone; wrong answers count."""
    pupil = PupilFactory()
    session = ended_session(pupil.school_class, 0)
    LearningRecord.objects.bulk_create(
        [
            record(pupil, session, 1, think_ms=1000),
            record(pupil, session, 2, think_ms=2500, announced=24, correct=False),
            record(pupil, session, 3, think_ms=None),
            record(pupil, session, 4, think_ms=30000, announced=None, correct=None, timed_out=True),
        ]
    )
    class_summaries_store(school_class=pupil.school_class)
    row = PupilSessionSummary.objects.get()
    assert (row.think_count, row.think_ms_sum) == (2, 3500)
    (counts,) = class_summaries(school_class=pupil.school_class)
    assert pooled_summary([counts]).mean_think_ms == 1750
    plays = selectors.records_as_plays(LearningRecord.objects.all())
    assert pupil_summary(plays=plays).mean_think_ms == 1750


def test_every_count_has_its_stored_column() -> None:
    """A new count of ``Totals`` needs its column in the stored summary: the
    reader and the writer go by these names."""
    columns = {f.name for f in PupilSessionSummary._meta.get_fields()}
    assert set(Totals._fields) <= columns


def test_reading_the_summaries_writes_nothing() -> None:
    """Selectors only read: the live count of unsummarised sessions is not
    stored by the read (the service stores it)."""
    school_class = _class_with_history(2, 2)
    with CaptureQueriesContext(connection) as queries:
        live = class_summaries(school_class=school_class)
    assert live and not PupilSessionSummary.objects.exists()
    writes = [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    assert writes == []
    # The service stores what the read counted, the same figures.
    class_summaries_store(school_class=school_class)
    assert class_summaries(school_class=school_class) == live


def test_a_late_record_drops_the_session_and_the_next_report_stores_it_again() -> None:
    school_class = _class_with_history(2, 2)
    client = Client()
    client.force_login(school_class.teacher)
    url = reverse("classroom:class_report", args=[school_class.pk])
    assert client.get(url).status_code == 200
    session = school_class.sessions.order_by("pk").first()
    before = PupilSessionSummary.objects.filter(class_session=session).count()
    assert before == 2
    pupil = school_class.pupils.order_by("pk").first()
    late = LearningRecord.objects.create(
        pupil=pupil,
        class_session=session,
        table_id=99_999,
        move_version=1,
        total_before=20,
        card_kind="add",
        card_a=1,
        card_b=2,
        card_value=3,
        total_after=23,
        announced=23,
        correct=True,
        think_ms=1234,
        compute_ms=900,
        created_at=session.ended_at,
    )
    summaries_drop(class_session_id=late.class_session_id)
    assert not PupilSessionSummary.objects.filter(class_session=session).exists()
    page = client.get(url)
    assert PupilSessionSummary.objects.filter(class_session=session).count() == before
    row = next(r for r in page.context["report"].rows if r.pupil == pupil)
    plays = selectors.records_as_plays(LearningRecord.objects.filter(pupil=pupil))
    assert row.summary == pupil_summary(plays=plays)
