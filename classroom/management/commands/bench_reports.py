"""``python manage.py bench_reports --pupils 30 --sessions 120``

Fills a throw-away class with a realistic history (``classroom.demo_history``:
real Chasse games, ~84 records per pupil and session, so 30 x 120 ≈ 300,000
records), then renders the class report, a pupil report and the parent page
through the real URL stack and prints the median and p95 render times and the
query counts. Run it against a scratch database: it deletes its own bench
class first, nothing else.
"""

from __future__ import annotations

import os
import statistics
import time
from datetime import timedelta
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from classroom import services
from classroom.demo_history import (
    DEMO_GAME,
    DemoPupil,
    default_profiles,
    iter_session_plays,
    plan_sessions,
)
from classroom.models import ClassSession, LearningRecord, Pupil, PupilSessionSummary, SchoolClass
from classroom.selectors.summaries import summaries_aggregate
from classroom.services.parents import parent_link_create
from classroom.services.reports import summaries_wait

BENCH_EMAIL = "bench-reports@example.org"
BATCH = 5000


_RECORD_COLUMNS = (
    "pupil_id", "class_session_id", "table_id", "move_version", "round", "total_before",
    "card_kind", "card_a", "card_b", "card_value", "total_after", "announced", "correct",
    "think_ms", "compute_ms", "multiple_of_ten", "reached_target", "avoidable", "crossed_ten",
    "error_kind", "timed_out", "practice", "created_at",
)  # fmt: skip


def _row(i: int, p: Any) -> tuple[Any, ...]:
    return (
        p.pupil_id, p.session_id, p.table_id, i, p.round, p.total_before, p.card_kind,
        p.card_a, p.card_b, p.card_value, p.total_after, p.announced, p.correct, p.think_ms,
        p.compute_ms, p.multiple_of_ten, p.reached_target, p.avoidable, p.crossed_ten,
        p.error_kind or "", p.timed_out, p.practice, p.created_at,
    )  # fmt: skip


def _rows(plays: Any) -> list[tuple[Any, ...]]:
    return [_row(i, p) for i, p in enumerate(plays)]


def records_insert(plays: Any) -> int:
    """Insert demo plays as learning records with one ``executemany``.

    Why not ``bulk_create``: Django compiles every field of every row in
    Python (~20 µs each), which made 14,000 demo records take ~5 s and the
    benchmark's 300,000 over a minute. The values here are plain ints, bools,
    strings and aware datetimes, which both SQLite and PostgreSQL accept once
    the datetime is adapted the way the ORM would."""
    rows = _rows(plays)
    if not rows:
        return 0
    adapt = connection.ops.adapt_datetimefield_value
    when = len(_RECORD_COLUMNS) - 1
    params = [(*row[:when], adapt(row[when])) for row in rows]
    table = connection.ops.quote_name(LearningRecord._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in _RECORD_COLUMNS)
    marks = ", ".join(["%s"] * len(_RECORD_COLUMNS))
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", params)
    return len(rows)


def history_write(
    *,
    school_class: SchoolClass,
    pupils: list[Pupil],
    sessions: int,
    seed: int,
    first_table_id: int,
    profiles: list[Any] | None = None,
    end: Any = None,
    plays_per_session: int = 84,
) -> int:
    """Create ``sessions`` ended class sessions and their records, in batches.
    ``plays_per_session`` is per pupil (84 for the benchmark's ~300,000
    records; ``seed_demo`` uses fewer so ``make run`` stays quick).
    Returns the number of records written."""
    end = end or timezone.localdate() - timedelta(days=1)
    profiles = profiles or default_profiles(len(pupils))
    demo = [DemoPupil(p.pk, prof) for p, prof in zip(pupils, profiles, strict=True)]
    # Planned twice: once to know the sessions to create, once with their ids.
    plan_for = partial(plan_sessions, pupils=demo, sessions=sessions, end=end, seed=seed)
    plan = plan_for(session_ids=list(range(sessions)), first_table_id=first_table_id)
    rows = ClassSession.objects.bulk_create(
        [ClassSession(school_class=school_class, game=DEMO_GAME, join_code=None) for _ in plan]
    )
    ids = [s.pk for s in rows]
    if ids[0] is None:  # backends that do not return ids from bulk_create
        ids = list(
            ClassSession.objects.filter(school_class=school_class)
            .order_by("-id")
            .values_list("pk", flat=True)[: len(plan)]
        )[::-1]
    for session, pk in zip(plan, ids, strict=True):
        ClassSession.objects.filter(pk=pk).update(
            started_at=session.started_at, ended_at=session.started_at + timedelta(minutes=40)
        )
    plan = plan_for(session_ids=ids, first_table_id=first_table_id)
    written = 0
    pending: list[Any] = []
    for batch in iter_session_plays(
        pupils=demo, plan=plan, seed=seed, plays_per_session=plays_per_session
    ):
        pending.extend(batch)
        if len(pending) >= BATCH:
            written += records_insert(pending)
            pending = []
    written += records_insert(pending)
    return written


def _load() -> str:
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on this platform
        return "?"


def _history_summaries(school_class: SchoolClass) -> int:
    """Store the summaries of every ended session of the class, as
    ``services.reports`` stores each one when its session ends."""
    ids = list(
        ClassSession.objects.filter(school_class=school_class, ended_at__isnull=False)
        .exclude(summaries__isnull=False)
        .values_list("pk", flat=True)
    )
    rows = summaries_aggregate(ids)
    PupilSessionSummary.objects.bulk_create(rows, ignore_conflicts=True, batch_size=500)
    return len(rows)


def _lesson_played(school_class: SchoolClass, *, pupils: list[Pupil]) -> ClassSession:
    """One more lesson with every pupil's records, still open (as it is until
    the teacher ends it)."""
    last = ClassSession.objects.filter(school_class=school_class).order_by("-pk").first()
    history_write(
        school_class=school_class,
        pupils=pupils,
        sessions=1,
        seed=int(time.time()),
        first_table_id=20_000_000 + (last.pk if last else 0) * 100,
        end=timezone.localdate(),
    )
    lesson = ClassSession.objects.filter(school_class=school_class).order_by("-pk").first()
    assert lesson is not None
    ClassSession.objects.filter(pk=lesson.pk).update(ended_at=None)
    lesson.refresh_from_db()
    return lesson


def _measure(
    client: Client, url: str, runs: int, *, cold: bool = False
) -> tuple[float, float, int, int]:
    """Median and p95 of ``runs`` views; ``cold`` clears the cache before each
    (what a view costs when its figures must be computed)."""
    times = []
    queries = 0
    status = 0
    for _ in range(runs):
        if cold:
            cache.clear()
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            response = client.get(url)
            _ = response.content
            times.append((time.perf_counter() - start) * 1000)
        queries = len(ctx.captured_queries)
        status = response.status_code
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return statistics.median(times), p95, queries, status


class Command(BaseCommand):
    help = "Generate a big history and time the report pages (median, p95, queries)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--pupils", type=int, default=30)
        parser.add_argument("--sessions", type=int, default=120)
        parser.add_argument("--runs", type=int, default=15)
        parser.add_argument("--seed", type=int, default=2024)
        parser.add_argument(
            "--reuse", action="store_true", help="Keep the bench class if it has the data."
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        """Build (or reuse) the bench class, then time each report.

        Long on purpose: a benchmark script read top to bottom (set-up, then
        one timed block per report), whose printed lines follow its order."""
        user_model = get_user_model()
        teacher, _ = user_model.objects.get_or_create(
            username=BENCH_EMAIL, defaults={"email": BENCH_EMAIL}
        )
        name = f"Bench {opts['pupils']}x{opts['sessions']}"
        school_class = SchoolClass.objects.filter(teacher=teacher, name=name).first()
        count = (
            LearningRecord.objects.filter(pupil__school_class=school_class).count()
            if school_class
            else 0
        )
        if not (opts["reuse"] and count):
            SchoolClass.objects.filter(teacher=teacher).delete()
            start = time.perf_counter()
            with transaction.atomic():
                school_class = SchoolClass.objects.create(teacher=teacher, name=name)
                pupils = Pupil.objects.bulk_create(
                    [
                        Pupil(
                            school_class=school_class,
                            display_name=f"Élève {i + 1:02d}",
                            avatar="chat",
                            picture_code=[i % 9, (i + 1) % 9],
                        )
                        for i in range(opts["pupils"])
                    ]
                )
                pupils = list(school_class.pupils.order_by("pk"))
                count = history_write(
                    school_class=school_class,
                    pupils=pupils,
                    sessions=opts["sessions"],
                    seed=opts["seed"],
                    first_table_id=10_000_000,
                )
            self.stdout.write(
                f"generated {count:,} learning records in {time.perf_counter() - start:.1f} s"
            )
        assert school_class is not None
        pupil = school_class.pupils.order_by("pk").first()
        assert pupil is not None
        link, token = parent_link_create(pupil=pupil, expires_in_days=30)
        teacher_client = Client()
        teacher_client.force_login(teacher)
        parent_client = Client()
        parent_client.get(reverse("classroom:parent_open", args=[token]))
        class_url = reverse("classroom:class_report", args=[school_class.pk])
        self.stdout.write(f"load average (1, 5, 15 min) before: {_load()}  ({os.cpu_count()} cores)")
        # Each past session was summarised when it ended (as the app does now):
        # store those summaries the same way, for the whole history at once.
        start = time.perf_counter()
        stored = _history_summaries(school_class)
        self.stdout.write(
            f"summaries of the history ({stored:,} rows, as built at each session's end): "
            f"{time.perf_counter() - start:.1f} s"
        )
        # Then a lesson ends the way a teacher ends it: its summaries and the
        # report's default view are built after commit, in the background.
        lesson = _lesson_played(school_class, pupils=list(school_class.pupils.order_by("pk")))
        cache.clear()
        start = time.perf_counter()
        services.session_end(class_session=lesson)
        returned = (time.perf_counter() - start) * 1000
        summaries_wait()
        built = (time.perf_counter() - start) * 1000
        self.stdout.write(
            f"a lesson ends: the teacher's request returns in {returned:.0f} ms; "
            f"its summaries and the default report are ready {built:.0f} ms later (background)"
        )
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            response = teacher_client.get(class_url)
            first = (time.perf_counter() - start) * 1000
        self.stdout.write(
            f"first class report after that lesson: {first:.0f} ms, "
            f"{len(ctx.captured_queries)} queries (HTTP {response.status_code})"
        )
        self.stdout.write(f"{connection.vendor}, {count:,} records, {opts['runs']} runs each")
        self.stdout.write(f"{'page':<40}{'first':>8}{'median':>10}{'p95':>10}{'queries':>9}")
        month = (timezone.localdate() - timedelta(days=30)).isoformat()
        pages = [
            ("class report (whole history)", teacher_client, class_url, False),
            (
                "class report (sorted, 1 month)",
                teacher_client,
                class_url + f"?from={month}&sort=accuracy",
                False,
            ),
            ("class report, no cache (computed)", teacher_client, class_url, True),
            (
                "pupil report",
                teacher_client,
                reverse("classroom:pupil_report", args=[pupil.pk]),
                False,
            ),
            ("parent page", parent_client, reverse("classroom:parent_page"), False),
        ]
        for label, client, url, cold in pages:
            if cold:
                cache.clear()
            start = time.perf_counter()
            client.get(url)
            first = (time.perf_counter() - start) * 1000
            med, p95, queries, status = _measure(client, url, opts["runs"], cold=cold)
            flag = "" if status == 200 else f"  (HTTP {status}!)"
            self.stdout.write(
                f"{label:<40}{first:>6.0f}ms{med:>8.0f}ms{p95:>8.0f}ms{queries:>9}{flag}"
            )
        self.stdout.write(f"load average (1, 5, 15 min) after: {_load()}")
        link.delete()
