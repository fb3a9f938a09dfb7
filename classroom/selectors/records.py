"""The pupil's learning records as :class:`~classroom.insights.Play` values,
and the per-pupil cache of the figures built from them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, QuerySet
from django.utils import timezone, translation

from classroom.insights import Play
from classroom.models import LearningRecord, Pupil

_PLAY_FIELDS = (
    "pupil_id",
    "class_session_id",
    "table_id",
    "round",
    "total_before",
    "card_kind",
    "card_a",
    "card_b",
    "card_value",
    "total_after",
    "announced",
    "correct",
    "think_ms",
    "compute_ms",
    "multiple_of_ten",
    "reached_target",
    "avoidable",
    "crossed_ten",
    "error_kind",
    "timed_out",
    "practice",
    "created_at",
)


def _play(row: tuple[Any, ...]) -> Play:
    """A record row (in ``_PLAY_FIELDS`` order) as the analytics core's Play."""
    (pid, sid, tid, rnd, before, kind, a, b, value, after, ann, ok, think, comp, m10, reached,
     avoid, crossed, err, timed, practice, created) = row  # fmt: skip
    return Play(
        pid, sid, tid or 0, rnd, before, kind, a, b, value, after, ann, ok, think or 0, comp,
        m10, reached, avoid, crossed, err or None, timed, practice, created,
    )  # fmt: skip


def records_as_plays(records: QuerySet[LearningRecord]) -> list[Play]:
    """One query: the records as :class:`Play` values, oldest first.

    On SQLite, Django's per-field converters (a regular expression per
    timestamp, a call per boolean) cost three times the query itself on a
    10,000-row history; there the ORM-compiled SQL is run on the cursor and
    the few conversions are done inline (``datetime.fromisoformat`` is C).
    Same values either way (tests run both backends)."""
    records = records.order_by("created_at", "id")
    if connection.vendor != "sqlite":
        return [_play(row) for row in records.values_list(*_PLAY_FIELDS)]
    sql, params = records.values_list(*_PLAY_FIELDS).query.sql_with_params()
    parse = datetime.fromisoformat
    utc = UTC
    out = []
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for (pid, sid, tid, rnd, before, kind, a, b, value, after, ann, ok, think, comp, m10,
             reached, avoid, crossed, err, timed, practice, created) in cursor.fetchall():  # fmt: skip
            out.append(
                Play(
                    pid,
                    sid,
                    tid or 0,
                    rnd,
                    before,
                    kind,
                    a,
                    b,
                    value,
                    after,
                    ann,
                    None if ok is None else bool(ok),
                    think or 0,
                    comp,
                    bool(m10),
                    bool(reached),
                    bool(avoid),
                    bool(crossed),
                    err or None,
                    bool(timed),
                    bool(practice),
                    (parse(created) if isinstance(created, str) else created).replace(tzinfo=utc),
                )
            )
    return out


# The pupil pages' figures are cached per pupil and version of their records
# (the last record id and the count: a new or deleted record changes it), so a
# teacher who reopens a report, or a parent who reloads the page, does not pay
# for walking 10,000 records again. One cheap query (an index range) decides.
REPORT_CACHE_SECONDS = 60 * 60 * 24


def pupil_records_version(*, pupil: Pupil) -> str:
    """What changes whenever the pupil's records change: one indexed query."""
    row = LearningRecord.objects.filter(pupil=pupil).aggregate(last=Max("id"), n=Count("id"))
    return f"{row['last'] or 0}-{row['n']}"


def pupil_cached(*, pupil: Pupil, version: str, name: str, build: Callable[[], Any]) -> Any:
    """``build()`` once per pupil, records version, language and time zone.
    Parent tips are translated when built, hence the language in the key."""
    key = ":".join(
        (
            "reports",
            name,
            str(pupil.pk),
            version,
            translation.get_language() or "",
            timezone.get_current_timezone_name(),
        )
    )
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, REPORT_CACHE_SECONDS)
    return value
