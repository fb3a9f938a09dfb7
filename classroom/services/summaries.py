"""The stored per (pupil, session) summaries: written here only.

A cache of the learning records (``PupilSessionSummary``), counted by the
pupil page's own rule (``insights.summary.session_counts``, through
``selectors.summaries``). A session's rows are stored when it ends
(``services.reports``) or, for a session over without any (a late record
dropped them, a migration forgot them), on the next class report
(:func:`class_summaries_store`). A record written after its session was
summarised drops the session's rows (:func:`summaries_drop`)."""

from __future__ import annotations

from functools import lru_cache

from django.db import connection, transaction

from classroom.models import PupilSessionSummary, SchoolClass
from classroom.selectors.summaries import sessions_to_summarise, summaries_aggregate

# Rows per INSERT: a year of a class stays a few statements.
STORE_BATCH = 500


def summaries_drop(*, class_session_id: int) -> None:
    """Called after a learning record is written: drops the stored summaries
    of its session (if it was already summarised), so the next report counts
    the whole session again from the records. The whole session, not only
    this pupil's row: a session with some summaries counts as summarised, so
    a lone missing row would never be stored again.

    One statement written once: it runs on every move of a lesson, where the
    ORM's filtered delete cost more to build than to run. The summaries have
    no dependents and no signal receivers, so the ORM's delete did no more."""
    with connection.cursor() as cursor:
        cursor.execute(_summaries_drop_sql(connection.vendor), [class_session_id])


@lru_cache(maxsize=4)
def _summaries_drop_sql(vendor: str) -> str:
    q = connection.ops.quote_name
    table = PupilSessionSummary._meta.db_table
    column = PupilSessionSummary.class_session.field.column
    return f"DELETE FROM {q(table)} WHERE {q(column)} = %s"


def summaries_store(*, session_ids: list[int]) -> int:
    """Count these (ended) sessions from their records and store their rows,
    replacing any. Returns the number of rows."""
    if not session_ids:
        return 0
    rows = summaries_aggregate(session_ids)
    with transaction.atomic():
        PupilSessionSummary.objects.filter(class_session_id__in=session_ids).delete()
        # Two teachers' tabs may race to store the same rows: the unique
        # constraint keeps one, the other insert is ignored.
        PupilSessionSummary.objects.bulk_create(rows, ignore_conflicts=True, batch_size=STORE_BATCH)
    return len(rows)


def class_summaries_store(*, school_class: SchoolClass) -> int:
    """Store the summaries of the class's sessions that are over and have
    none yet; called before the class report is read, so a session is
    counted from its records once, not on every report. One query when
    there is nothing to store."""
    missing = sessions_to_summarise(school_class=school_class)
    if not missing:
        return 0
    rows = summaries_aggregate(missing)
    PupilSessionSummary.objects.bulk_create(rows, ignore_conflicts=True, batch_size=STORE_BATCH)
    return len(rows)
