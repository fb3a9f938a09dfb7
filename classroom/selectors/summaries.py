"""Per (pupil, session) counts, read: the stored ones with the raw cursor, the
sessions not stored yet counted live from their records. The class report
reads these instead of every record, so it runs a fixed number of queries over
a whole year.

Only reads. Storing and dropping the rows is ``classroom.services.summaries``;
both count with the pupil page's own rule (``insights.summary.session_counts``),
so a stored row and a live count of the same session never differ."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from django.db import connection
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from classroom.insights import SessionCounts
from classroom.insights.summary import SESSION_COUNTS_COLUMNS, SessionTally, session_counts
from classroom.models import ClassSession, LearningRecord, Pupil, PupilSessionSummary, SchoolClass
from classroom.selectors.records import records_as_plays

# A session is summarised once it has been over for this long, so the last
# records of a game that was still being written are not missed.
SUMMARY_SETTLE = timedelta(minutes=2)


def session_tallies(session_ids: list[int], *, pupil: Pupil | None = None) -> list[SessionTally]:
    """The per (pupil, session) counts of these sessions (of one pupil), from
    their records: one query, counted by the pupil page's own rule
    (``insights.summary.session_counts``)."""
    if not session_ids:
        return []
    records = LearningRecord.objects.filter(class_session_id__in=session_ids)
    if pupil is not None:
        records = records.filter(pupil=pupil)
    return session_counts(records_as_plays(records))


def summaries_aggregate(session_ids: list[int]) -> list[PupilSessionSummary]:
    """The (unsaved) per-pupil summary rows of these sessions."""
    return [
        PupilSessionSummary.from_counts(t.counts, last_at=t.last_at)
        for t in session_tallies(session_ids)
    ]


def sessions_to_summarise(*, school_class: SchoolClass) -> list[int]:
    """The class's sessions over (for ``SUMMARY_SETTLE``) that have records
    but no stored summary: a late record dropped them, or they were never
    stored. One query."""
    cutoff = timezone.now() - SUMMARY_SETTLE
    return list(
        ClassSession.objects.filter(
            school_class=school_class, ended_at__isnull=False, ended_at__lte=cutoff
        )
        .filter(Exists(LearningRecord.objects.filter(class_session=OuterRef("pk"))))
        .exclude(Exists(PupilSessionSummary.objects.filter(class_session=OuterRef("pk"))))
        .values_list("pk", flat=True)
    )


def _read_summaries(
    *, school_class_id: int | None = None, pupil_id: int | None = None
) -> list[SessionCounts]:
    """The stored summaries of a class (or of one pupil) as plain tuples.

    Read with the raw cursor on purpose: through the ORM, the per-row
    converters (a regular expression per timestamp, a Python JSON field hook
    per row) cost three times the query on a class's 3,600 rows. Here the
    timestamp comes back as text on SQLite (``|| ''`` drops the declared type
    that would make sqlite3 parse it in Python) and is read with the C
    ``datetime.fromisoformat``; PostgreSQL returns aware datetimes itself.
    The columns are ``SESSION_COUNTS_COLUMNS``, by name: a new count of
    ``Totals`` is read with no change here."""
    table = connection.ops.quote_name(PupilSessionSummary._meta.db_table)
    sessions = connection.ops.quote_name(ClassSession._meta.db_table)
    sqlite = connection.vendor == "sqlite"
    first = "s.first_at || ''" if sqlite else "s.first_at"
    columns = ", ".join(
        first if f == "first_at" else f"s.{connection.ops.quote_name(f)}"
        for f in SESSION_COUNTS_COLUMNS
    )
    param: int | None
    if pupil_id is not None:
        where, param = "s.pupil_id = %s", pupil_id
        sql = f"SELECT {columns} FROM {table} s WHERE {where}"
    else:
        where, param = "c.school_class_id = %s", school_class_id
        sql = f"SELECT {columns} FROM {table} s JOIN {sessions} c ON c.id = s.class_session_id WHERE {where}"
    loads = json.loads
    parse = datetime.fromisoformat
    out = []
    with connection.cursor() as cursor:
        cursor.execute(sql, [param])
        for row in cursor.fetchall():
            when = row[2]
            if isinstance(when, str):
                when = parse(when)
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
            times = row[-1]
            out.append(
                SessionCounts.from_columns(
                    (*row[:2], when, *row[3:-1], loads(times) if isinstance(times, str) else times)
                )
            )
    return out


def class_summaries(
    *, school_class: SchoolClass, pupil: Pupil | None = None
) -> list[SessionCounts]:
    """Every (pupil, session) summary of the class (or of one of its pupils),
    oldest first.

    Stored sessions are read from the table; the others (open, just ended,
    or not stored yet: ``services.summaries`` stores them) are counted live
    from their records. At most four queries, whatever the number of records."""
    cutoff = timezone.now() - SUMMARY_SETTLE
    if pupil is not None:
        cached = _read_summaries(pupil_id=pupil.pk)
        candidates_qs = ClassSession.objects.filter(
            school_class=school_class, records__pupil=pupil
        ).filter(Q(ended_at__isnull=True) | Q(ended_at__gt=cutoff) | ~Q(summaries__pupil=pupil))
    else:
        cached = _read_summaries(school_class_id=school_class.pk)
        candidates_qs = ClassSession.objects.filter(school_class=school_class).filter(
            Q(ended_at__isnull=True) | Q(ended_at__gt=cutoff) | Q(summaries__isnull=True)
        )
    summarised = {s.class_session_id for s in cached}
    candidates = candidates_qs.values_list("pk", flat=True).distinct()
    live = [pk for pk in candidates if pk not in summarised]
    out = cached + [t.counts for t in session_tallies(live, pupil=pupil)]
    out.sort(key=lambda s: (s.first_at, s.class_session_id))
    return out
