"""Reads behind the classroom pages: a fixed number of queries per page."""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from statistics import median
from typing import Any, NamedTuple

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, Min, Q, QuerySet
from django.utils import timezone, translation

from cardgames import engines
from cardgames.models import Table
from classroom.insights import (
    CarryGrid,
    ErrorBreakdown,
    Flag,
    FluencyGrid,
    Play,
    PracticeItem,
    PupilSummary,
    SessionPoint,
    StarsAndStreak,
    Trend,
    _pct,
    _per100,
    carry_grid,
    error_breakdown,
    fluency_grid,
    parent_tips,
    practise_next,
    pupil_summary,
    session_series,
    stars_and_streak,
    trend,
    watch_flags,
)
from classroom.models import (
    Attendance,
    ClassSession,
    LearningRecord,
    ParentLink,
    Pupil,
    PupilSessionSummary,
    SchoolClass,
    SessionGroup,
    TabletLogin,
)


def teacher_classes(*, teacher: Any) -> QuerySet[SchoolClass]:
    return SchoolClass.objects.filter(teacher=teacher).annotate(pupil_count=Count("pupils"))


def teacher_open_sessions(*, teacher: Any) -> QuerySet[ClassSession]:
    return ClassSession.objects.filter(
        school_class__teacher=teacher, ended_at__isnull=True, practice=False
    ).select_related("school_class")


def open_session_of_class(*, school_class: SchoolClass) -> ClassSession | None:
    return (
        school_class.sessions.filter(ended_at__isnull=True, practice=False)
        .order_by("-started_at", "-id")
        .first()
    )


def joined_pupils(*, class_session: ClassSession) -> list[Pupil]:
    """Pupils who joined, in the order they arrived (the projector's list)."""
    return [
        a.pupil
        for a in Attendance.objects.filter(class_session=class_session)
        .select_related("pupil")
        .order_by("joined_at", "id")
    ]


def locked_pupils(*, school_class: SchoolClass) -> list[Pupil]:
    return list(school_class.pupils.filter(locked_until__gt=timezone.now()))


def session_tablets(*, class_session: ClassSession) -> list[TabletLogin]:
    return list(
        class_session.logins.select_related("pupil").order_by(
            "pupil__display_name", "-logged_in_at"
        )
    )


@dataclass
class BoardGroup:
    group: SessionGroup
    pupils: list[Pupil]
    table: Table | None
    seats: int
    bots: int
    overridden: list[str] = field(default_factory=list)


@dataclass
class Board:
    groups: list[BoardGroup]
    waiting: list[Pupil]
    min_players: int
    max_players: int
    sizes: list[int]
    ready: int


def session_board(*, class_session: ClassSession) -> Board:
    """The grouping board: the groups with their pupils, and who waits."""
    engine = engines.get(class_session.game)
    groups = list(class_session.groups.select_related("table").order_by("number"))
    members: dict[int | None, list[Pupil]] = {}
    for attendance in (
        Attendance.objects.filter(class_session=class_session)
        .select_related("pupil")
        .order_by("joined_at", "id")
    ):
        members.setdefault(attendance.group_id, []).append(attendance.pupil)
    board_groups = []
    ready = 0
    for group in groups:
        pupils = members.get(group.pk, [])
        seats = max(len(pupils), group.size) if group.bot_level else len(pupils)
        if group.table_id is None and pupils and engine.min_players <= seats <= engine.max_players:
            ready += 1
        board_groups.append(
            BoardGroup(
                group=group,
                pupils=pupils,
                table=group.table,
                seats=seats,
                bots=seats - len(pupils),
                overridden=sorted(group.options_override),
            )
        )
    return Board(
        groups=board_groups,
        waiting=members.get(None, []),
        min_players=engine.min_players,
        max_players=engine.max_players,
        sizes=list(range(engine.min_players, engine.max_players + 1)),
        ready=ready,
    )


def pupil_table(*, class_session: ClassSession, pupil: Pupil) -> Table | None:
    """The started table where ``pupil`` has a seat in this session, if any."""
    return (
        Table.objects.filter(group_key=class_session.group_key, seats__player_key=pupil.player_key)
        .order_by("-id")
        .first()
    )


def pupil_group_number(*, class_session: ClassSession, pupil: Pupil) -> int | None:
    return (
        Attendance.objects.filter(class_session=class_session, pupil=pupil)
        .values_list("group__number", flat=True)
        .first()
    )


# =========================================================================== #
# Reports (issue 6): the class report, the pupil report, the parent and pupil
# pages. Every function below runs a fixed number of queries whatever the
# amount of data: the class report reads per-session summaries (built in one
# aggregate query for sessions that have none yet), the pupil pages read one
# compact ``values_list`` of the pupil's records.
# =========================================================================== #

# A session is summarised once it has been over for this long, so the last
# records of a game that was still being written are not missed.
SUMMARY_SETTLE = timedelta(minutes=2)
PREVIOUS_SESSIONS_FOR_TREND = 5
RECENT_GAMES = 8

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


def summary_record(record: LearningRecord) -> None:
    """Called by ``classroom.learning`` after it writes ``record``: drops the
    cached summaries of that session (if it was already summarised), so the
    next report rebuilds the whole session from the records. The whole
    session, not only this pupil's row: a session with some summaries counts
    as summarised, so a lone missing row would never be rebuilt."""
    PupilSessionSummary.objects.filter(class_session_id=record.class_session_id).delete()


_NOT_TIMED_OUT = Q(timed_out=False)
_ANSWERED = Q(timed_out=False, correct__isnull=False)


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
    rows = (
        records.values("pupil_id", "class_session_id")
        .annotate(
            first=Min("created_at"),
            last=Max("created_at"),
            n_plays=Count("id", filter=_NOT_TIMED_OUT),
            n_ann=Count("id", filter=_ANSWERED),
            n_ok=Count("id", filter=_ANSWERED & Q(correct=True)),
            n_cross=Count("id", filter=_ANSWERED & Q(crossed_ten=True)),
            n_cross_ok=Count("id", filter=_ANSWERED & Q(crossed_ten=True, correct=True)),
            n_m10=Count("id", filter=_NOT_TIMED_OUT & Q(multiple_of_ten=True, avoidable=True)),
            n_timeouts=Count("id", filter=Q(timed_out=True)),
        )
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
                plays=row["n_plays"],
                announcements=row["n_ann"],
                correct=row["n_ok"],
                crossing_announcements=row["n_cross"],
                crossing_correct=row["n_cross_ok"],
                avoidable_mult10=row["n_m10"],
                timeouts=row["n_timeouts"],
                compute_ms=sorted(times.get(key, [])),
            )
        )
    return out


class SummaryRow(NamedTuple):
    """A :class:`PupilSessionSummary` read as a plain tuple (no model instance
    per row: thousands of them are read per class report)."""

    pupil_id: int
    class_session_id: int
    first_at: datetime
    plays: int
    announcements: int
    correct: int
    crossing_announcements: int
    crossing_correct: int
    avoidable_mult10: int
    timeouts: int
    compute_ms: list[int]  # sorted


def _row(s: PupilSessionSummary) -> SummaryRow:
    return SummaryRow(*(getattr(s, f) for f in SummaryRow._fields))


def _read_summaries(
    *, school_class_id: int | None = None, pupil_id: int | None = None
) -> list[SummaryRow]:
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
        for f in SummaryRow._fields
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
            times = row[10]
            out.append(
                SummaryRow(
                    *row[:2], when, *row[3:10], loads(times) if isinstance(times, str) else times
                )
            )
    return out


def class_summaries(*, school_class: SchoolClass, pupil: Pupil | None = None) -> list[SummaryRow]:
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


def _median(values: list[int]) -> int | None:
    return int(median(values)) if values else None


def _sorted_median(values: list[int]) -> int | None:
    """The median of an already sorted list, without sorting it again."""
    n = len(values)
    if not n:
        return None
    mid = n // 2
    return values[mid] if n % 2 else int((values[mid - 1] + values[mid]) / 2)


def _kth(lists: list[list[int]], k: int, low: int, high: int) -> int:
    """The ``k``-th smallest value (0-based) of the union of sorted integer
    lists, by bisection on the value: ~15 rounds of one ``bisect`` per list,
    instead of merging and sorting every value (a class's whole history is
    250,000 times)."""
    while low < high:
        mid = (low + high) // 2
        if sum(bisect_right(lst, mid) for lst in lists) > k:
            high = mid
        else:
            low = mid + 1
    return low


def _merged(lists: list[list[int]]) -> list[int]:
    """The union of sorted lists, sorted. Cheap: Timsort merges the runs."""
    if len(lists) == 1:
        return lists[0]
    merged = [v for lst in lists for v in lst]
    merged.sort()
    return merged


def _pooled_median(lists: list[list[int]]) -> int | None:
    """The exact median of the union of sorted lists (as ``statistics.median``
    of the pooled values would give, truncated to whole ms).

    A few lists (one pupil's sessions) are merged; many long ones (a whole
    class) are searched by bisection on the value instead of sorting a
    quarter of a million times."""
    lists = [lst for lst in lists if lst]
    n = sum(len(lst) for lst in lists)
    if not n:
        return None
    if len(lists) * 50 >= n:
        return _sorted_median(_merged(lists))
    low = min(lst[0] for lst in lists)
    high = max(lst[-1] for lst in lists)
    upper = _kth(lists, n // 2, low, high)
    if n % 2:
        return upper
    lower = _kth(lists, n // 2 - 1, low, upper)
    return int((lower + upper) / 2)


def _pooled(summaries: list[SummaryRow], times: list[list[int]] | None = None) -> PupilSummary:
    """The figures of several sessions pooled, exactly as ``pupil_summary``
    would compute them from the records (medians included). ``times``: the
    sorted correct-answer times to take the median of, when the caller has
    them merged already (default: the summaries' own)."""
    plays = sum(s.plays for s in summaries)
    ann = sum(s.announcements for s in summaries)
    ok = sum(s.correct for s in summaries)
    cross = sum(s.crossing_announcements for s in summaries)
    cross_ok = sum(s.crossing_correct for s in summaries)
    m10 = sum(s.avoidable_mult10 for s in summaries)
    return PupilSummary(
        plays=plays,
        announcements=ann,
        correct=ok,
        accuracy=_pct(ok, ann),
        crossing_announcements=cross,
        crossing_correct=cross_ok,
        accuracy_crossing=_pct(cross_ok, cross),
        non_crossing_announcements=ann - cross,
        non_crossing_correct=ok - cross_ok,
        accuracy_non_crossing=_pct(ok - cross_ok, ann - cross),
        avoidable_mult10=m10,
        mult10_rate=_per100(m10, plays),
        median_compute_ms=_pooled_median(
            times if times is not None else [s.compute_ms for s in summaries]
        ),
        timeouts=sum(s.timeouts for s in summaries),
        sessions=len({s.class_session_id for s in summaries}),
    )


def _point(summary: SummaryRow, tz: tzinfo) -> SessionPoint:
    return SessionPoint(
        session_id=summary.class_session_id,
        started_at=summary.first_at,
        date=summary.first_at.astimezone(tz).date(),
        plays=summary.plays,
        announcements=summary.announcements,
        correct=summary.correct,
        accuracy=_pct(summary.correct, summary.announcements),
        median_compute_ms=_sorted_median(summary.compute_ms),
        avoidable_mult10=summary.avoidable_mult10,
        mult10_rate=_per100(summary.avoidable_mult10, summary.plays),
        timeouts=summary.timeouts,
    )


SORT_KEYS: dict[str, Callable[[ClassReportRow], Any]] = {
    "name": lambda r: r.pupil.display_name.casefold(),
    "announcements": lambda r: r.summary.announcements,
    "accuracy": lambda r: r.summary.accuracy,
    "crossing": lambda r: r.summary.accuracy_crossing,
    "non_crossing": lambda r: r.summary.accuracy_non_crossing,
    "mult10": lambda r: r.summary.avoidable_mult10,
    "mult10_rate": lambda r: r.summary.mult10_rate,
    "median": lambda r: r.summary.median_compute_ms,
    "timeouts": lambda r: r.summary.timeouts,
    "trend": lambda r: r.trend.accuracy_delta,
    "watch": lambda r: len(r.flags),
}


@dataclass
class ClassReportRow:
    pupil: Pupil
    summary: PupilSummary
    trend: Trend
    flags: list[Flag]
    series: list[SessionPoint]

    @property
    def median_seconds(self) -> float | None:
        ms = self.summary.median_compute_ms
        return None if ms is None else ms / 1000


@dataclass
class ClassReport:
    school_class: SchoolClass
    rows: list[ClassReportRow]
    total: PupilSummary
    sessions: list[ClassSession]  # the sessions the teacher can filter on
    date_from: date | None
    date_to: date | None
    session: ClassSession | None
    sort: str
    descending: bool


def _in_period(
    point: SessionPoint,
    *,
    date_from: date | None,
    date_to: date | None,
    session_id: int | None,
) -> bool:
    """Whether a session point falls in the period (its ``date`` is already
    local: one time-zone conversion per summary, not two)."""
    if session_id is not None:
        return point.session_id == session_id
    day = point.date
    return (date_from is None or day >= date_from) and (date_to is None or day <= date_to)


def class_report(
    *,
    school_class: SchoolClass,
    date_from: date | None = None,
    date_to: date | None = None,
    session_id: int | None = None,
    sort: str = "name",
    descending: bool = False,
) -> ClassReport:
    """The class report's rows, one per pupil, over a date range or a session.

    The trend compares the period with the pupil's up to five sessions before
    it; the flags look at the pupil's sessions up to the end of the period."""
    tz = timezone.get_current_timezone()
    pupils = list(school_class.pupils.all())
    sessions = list(
        school_class.sessions.filter(practice=False).order_by("-started_at", "-id")[:200]
    )
    session = next((s for s in sessions if s.pk == session_id), None)
    if session_id is not None and session is None:
        session_id = None
    by_pupil: dict[int, list[SummaryRow]] = {}
    for s in class_summaries(school_class=school_class):
        by_pupil.setdefault(s.pupil_id, []).append(s)
    rows = []
    chosen_all: list[SummaryRow] = []
    pupil_times: list[list[int]] = []
    for pupil in pupils:
        mine = by_pupil.get(pupil.pk, [])
        points = [_point(s, tz) for s in mine]
        chosen = [
            s
            for s, point in zip(mine, points, strict=True)
            if _in_period(point, date_from=date_from, date_to=date_to, session_id=session_id)
        ]
        chosen_all.extend(chosen)
        if chosen:
            start, end = chosen[0].first_at, chosen[-1].first_at
            before = [p for p in points if p.started_at < start]
            upto = [p for p in points if p.started_at <= end]
        else:
            before, upto = points, points
        merged = _merged([s.compute_ms for s in chosen if s.compute_ms])
        pupil_times.append(merged)
        summary = _pooled(chosen, [merged])
        rows.append(
            ClassReportRow(
                pupil=pupil,
                summary=summary,
                trend=trend(current=summary, previous=before[-PREVIOUS_SESSIONS_FOR_TREND:]),
                flags=watch_flags(summary=summary, series=upto) if chosen else [],
                series=points,
            )
        )
    if sort not in SORT_KEYS:
        sort = "name"
    key = SORT_KEYS[sort]
    known = [r for r in rows if key(r) is not None]
    unknown = [r for r in rows if key(r) is None]
    known.sort(key=key, reverse=descending)
    return ClassReport(
        school_class=school_class,
        rows=known + unknown,  # "—" always last, whichever the direction
        total=_pooled(chosen_all, pupil_times),
        sessions=sessions,
        date_from=date_from,
        date_to=date_to,
        session=session,
        sort=sort,
        descending=descending,
    )


@dataclass
class RecentGame:
    table_id: int
    session_id: int
    played_at: datetime
    plays: int
    announcements: int
    correct: int

    @property
    def accuracy(self) -> float | None:
        return _pct(self.correct, self.announcements)


def recent_games(plays: list[Play], *, limit: int = RECENT_GAMES) -> list[RecentGame]:
    """The pupil's last games (tables), newest first, from plays already loaded."""
    games: dict[int, RecentGame] = {}
    for p in plays:
        if not p.table_id:
            continue
        g = games.get(p.table_id)
        if g is None:
            g = games[p.table_id] = RecentGame(p.table_id, p.session_id, p.created_at, 0, 0, 0)
        g.played_at = max(g.played_at, p.created_at)
        if not p.timed_out:
            g.plays += 1
            if p.correct is not None:
                g.announcements += 1
                g.correct += bool(p.correct)
    return sorted(games.values(), key=lambda g: g.played_at, reverse=True)[:limit]


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


@dataclass
class PupilFigures:
    """What the teacher's pupil page shows, minus the live parts (links, replays)."""

    summary: PupilSummary
    series: list[SessionPoint]
    trend: Trend
    flags: list[Flag]
    fluency: FluencyGrid
    carry_add: CarryGrid
    carry_sub: CarryGrid
    errors: ErrorBreakdown
    practise: list[PracticeItem]
    games: list[RecentGame]


@dataclass
class PupilReport:
    pupil: Pupil
    version: str  # of the records: the charts are cached with it
    summary: PupilSummary
    series: list[SessionPoint]
    trend: Trend
    flags: list[Flag]
    fluency: FluencyGrid
    carry_add: CarryGrid
    carry_sub: CarryGrid
    errors: ErrorBreakdown
    practise: list[PracticeItem]
    games: list[RecentGame]
    replayable: set[int]  # the recent games whose table still exists
    links: list[ParentLink]


def _pupil_figures(pupil: Pupil) -> PupilFigures:
    tz = timezone.get_current_timezone()
    plays = records_as_plays(LearningRecord.objects.filter(pupil=pupil))
    summary = pupil_summary(plays=plays)
    series = session_series(plays=plays, tz=tz)
    last = series[-1] if series else None
    return PupilFigures(
        summary=summary,
        series=series,
        trend=trend(
            current=last if last is not None else summary,
            previous=series[-1 - PREVIOUS_SESSIONS_FOR_TREND : -1],
        ),
        flags=watch_flags(summary=summary, series=series),
        fluency=fluency_grid(plays=plays),
        carry_add=carry_grid(plays=plays, kind="add"),
        carry_sub=carry_grid(plays=plays, kind="sub"),
        errors=error_breakdown(plays=plays),
        practise=practise_next(plays=plays, n=3),
        games=recent_games(plays),
    )


def pupil_report(*, pupil: Pupil) -> PupilReport:
    """Everything the teacher's pupil page shows. Four queries: the records'
    version, then (only when it changed) the records in one compact
    ``values_list``, the tables that still have a replay, the parent links.
    The figures come from ``classroom.insights`` so every page agrees."""
    version = pupil_records_version(pupil=pupil)
    figures: PupilFigures = pupil_cached(
        pupil=pupil, version=version, name="pupil", build=lambda: _pupil_figures(pupil)
    )
    replayable = set(
        Table.objects.filter(pk__in=[g.table_id for g in figures.games]).values_list(
            "pk", flat=True
        )
    )
    return PupilReport(
        pupil=pupil,
        version=version,
        summary=figures.summary,
        series=figures.series,
        trend=figures.trend,
        flags=figures.flags,
        fluency=figures.fluency,
        carry_add=figures.carry_add,
        carry_sub=figures.carry_sub,
        errors=figures.errors,
        practise=figures.practise,
        games=figures.games,
        replayable=replayable,
        links=list(pupil.parent_links.all()),
    )


@dataclass
class ParentReport:
    pupil: Pupil
    version: str
    summary: PupilSummary
    series: list[SessionPoint]
    fluency: FluencyGrid
    tips: list[str]
    first_day: date | None
    last_day: date | None
    kinds: dict[str, int]  # answered plays by kind of card


def _parent_report(pupil: Pupil, version: str) -> ParentReport:
    tz = timezone.get_current_timezone()
    plays = records_as_plays(LearningRecord.objects.filter(pupil=pupil))
    summary = pupil_summary(plays=plays)
    series = session_series(plays=plays, tz=tz)
    items = practise_next(plays=plays, n=3)
    kinds: dict[str, int] = {}
    for p in plays:
        if p.correct is not None and not p.timed_out:
            kinds[p.card_kind] = kinds.get(p.card_kind, 0) + 1
    return ParentReport(
        pupil=pupil,
        version=version,
        summary=summary,
        series=series,
        fluency=fluency_grid(plays=plays),
        tips=parent_tips(plays=plays, items=items, summary=summary)[:3],
        first_day=series[0].date if series else None,
        last_day=series[-1].date if series else None,
        kinds=kinds,
    )


def parent_report(*, pupil: Pupil) -> ParentReport:
    """The parent page: this one child only. Two queries at most (the
    records' version, then the records when they changed)."""
    version = pupil_records_version(pupil=pupil)
    return pupil_cached(
        pupil=pupil, version=version, name="parent", build=lambda: _parent_report(pupil, version)
    )


@dataclass
class PupilOwnPage:
    pupil: Pupil
    stars: StarsAndStreak
    fluency: FluencyGrid


def _pupil_own_page(pupil: Pupil, today: date) -> PupilOwnPage:
    tz = timezone.get_current_timezone()
    plays = records_as_plays(LearningRecord.objects.filter(pupil=pupil))
    grid = fluency_grid(plays=plays)
    stars = stars_and_streak(plays=plays, today=today, tz=tz, grid=grid)
    return PupilOwnPage(pupil=pupil, stars=stars, fluency=grid)


def pupil_own_page(*, pupil: Pupil) -> PupilOwnPage:
    """The child's page: their stars, streak and grid; nobody else's figures.
    The streak depends on today, so the day is part of the cache key."""
    today = timezone.localdate()
    version = f"{pupil_records_version(pupil=pupil)}-{today.isoformat()}"
    return pupil_cached(
        pupil=pupil, version=version, name="me", build=lambda: _pupil_own_page(pupil, today)
    )
