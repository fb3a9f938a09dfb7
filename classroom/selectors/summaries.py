"""Per (pupil, session) counts: aggregated in SQL, stored once a session is
over, read back with the raw cursor. The class report reads these instead of
every record, so it runs a fixed number of queries over a whole year."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from django.db import connection
from django.db.models import Count, Max, Min, Q
from django.utils import timezone

from classroom.insights import SessionCounts
from classroom.models import ClassSession, LearningRecord, Pupil, PupilSessionSummary, SchoolClass

# A session is summarised once it has been over for this long, so the last
# records of a game that was still being written are not missed.
SUMMARY_SETTLE = timedelta(minutes=2)


def summary_record(record: LearningRecord) -> None:
    """Called by ``classroom.learning`` after it writes ``record``: drops the
    cached summaries of that session (if it was already summarised), so the
    next report rebuilds the whole session from the records. The whole
    session, not only this pupil's row: a session with some summaries counts
    as summarised, so a lone missing row would never be rebuilt.

    One statement written once: it runs on every move of a lesson, where the
    ORM's filtered delete cost more to build than to run. The summaries have
    no dependents and no signal receivers, so the ORM's delete did no more."""
    with connection.cursor() as cursor:
        cursor.execute(_summaries_drop_sql(connection.vendor), [record.class_session_id])


@lru_cache(maxsize=4)
def _summaries_drop_sql(vendor: str) -> str:
    meta = PupilSessionSummary._meta
    q = connection.ops.quote_name
    return (
        f"DELETE FROM {q(meta.db_table)}"
        f" WHERE {q(meta.get_field('class_session').column)} = %s"
    )


_NOT_TIMED_OUT = Q(timed_out=False)
_ANSWERED = Q(timed_out=False, correct__isnull=False)
# What each stored count counts, by the summary's field name (the same rules
# as ``classroom.insights.summary`` applies to the records one by one).
_COUNTED = {
    "plays": _NOT_TIMED_OUT,
    "announcements": _ANSWERED,
    "correct": _ANSWERED & Q(correct=True),
    "crossing_announcements": _ANSWERED & Q(crossed_ten=True),
    "crossing_correct": _ANSWERED & Q(crossed_ten=True, correct=True),
    "avoidable_mult10": _NOT_TIMED_OUT & Q(multiple_of_ten=True, avoidable=True),
    "timeouts": Q(timed_out=True),
    "add_crossing_announcements": _ANSWERED & Q(crossed_ten=True, card_kind="add"),
    "add_crossing_correct": _ANSWERED & Q(crossed_ten=True, card_kind="add", correct=True),
}


def _aggregate_summaries(
    session_ids: list[int], *, pupil: Pupil | None = None
) -> list[PupilSessionSummary]:
    """Per (pupil, session) figures in SQL (conditional aggregation), plus one
    compact query of the correct answers' times. Two queries; unsaved rows."""
    if not session_ids:
        return []
    records = LearningRecord.objects.filter(class_session_id__in=session_ids)
    if pupil is not None:
        records = records.filter(pupil=pupil)
    counts = {f"n_{field}": Count("id", filter=rule) for field, rule in _COUNTED.items()}
    rows = (
        records.values("pupil_id", "class_session_id")
        .annotate(first=Min("created_at"), last=Max("created_at"), **counts)
        .order_by()
    )
    times: dict[tuple[int, int], list[int]] = {}
    for pid, sid, ms in records.filter(
        _ANSWERED, correct=True, compute_ms__isnull=False
    ).values_list("pupil_id", "class_session_id", "compute_ms"):
        times.setdefault((pid, sid), []).append(ms)
    out = []
    for row in rows:
        key = (row["pupil_id"], row["class_session_id"])
        out.append(
            PupilSessionSummary(
                pupil_id=key[0],
                class_session_id=key[1],
                first_at=row["first"],
                last_at=row["last"],
                **{field: row[f"n_{field}"] for field in _COUNTED},
                compute_ms=sorted(times.get(key, [])),
            )
        )
    return out


def summaries_aggregate(session_ids: list[int]) -> list[PupilSessionSummary]:
    """The (unsaved) per-pupil summaries of these sessions, for
    ``services.reports`` to store when a session ends."""
    return _aggregate_summaries(session_ids)


def _row(s: PupilSessionSummary) -> SessionCounts:
    return SessionCounts.from_columns([getattr(s, f) for f in SessionCounts.COLUMNS])


def _read_summaries(
    *, school_class_id: int | None = None, pupil_id: int | None = None
) -> list[SessionCounts]:
    """The stored summaries of a class (or of one pupil) as plain tuples.

    Read with the raw cursor on purpose: through the ORM, the per-row
    converters (a regular expression per timestamp, a Python JSON field hook
    per row) cost three times the query on a class's 3,600 rows. Here the
    timestamp comes back as text on SQLite (``|| ''`` drops the declared type
    that would make sqlite3 parse it in Python) and is read with the C
    ``datetime.fromisoformat``; PostgreSQL returns aware datetimes itself."""
    table = connection.ops.quote_name(PupilSessionSummary._meta.db_table)
    sessions = connection.ops.quote_name(ClassSession._meta.db_table)
    sqlite = connection.vendor == "sqlite"
    first = "s.first_at || ''" if sqlite else "s.first_at"
    columns = ", ".join(
        first if f == "first_at" else f"s.{connection.ops.quote_name(f)}"
        for f in SessionCounts.COLUMNS
    )
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

    Finished sessions come from the cache and are summarised (then stored)
    the first time they are read; open or just-ended sessions are aggregated
    live. At most six queries, whatever the number of records."""
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
    candidates = list(candidates_qs.values_list("pk", "ended_at").distinct())
    live = [pk for pk, _ended in candidates if pk not in summarised]
    fresh = _aggregate_summaries(live, pupil=pupil)
    settled = {pk for pk, ended in candidates if ended is not None and ended <= cutoff}
    to_store = [s for s in fresh if s.class_session_id in settled]
    if to_store:
        # Two teachers' tabs may race to store the same rows: the unique
        # constraint keeps one, the other insert is ignored.
        PupilSessionSummary.objects.bulk_create(to_store, ignore_conflicts=True, batch_size=500)
    out = cached + [_row(s) for s in fresh]
    out.sort(key=lambda s: (s.first_at, s.class_session_id))
    return out
