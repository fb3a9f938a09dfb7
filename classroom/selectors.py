"""Reads behind the classroom pages: a fixed number of queries per page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from statistics import median
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Count, Max, Min, Q, QuerySet
from django.utils import timezone

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
        school_class__teacher=teacher, ended_at__isnull=True
    ).select_related("school_class")


def open_session_of_class(*, school_class: SchoolClass) -> ClassSession | None:
    return (
        school_class.sessions.filter(ended_at__isnull=True).order_by("-started_at", "-id").first()
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
    cached summary of that pupil and session (if the session was already
    summarised), so the next report rebuilds it from the records."""
    PupilSessionSummary.objects.filter(
        pupil_id=record.pupil_id, class_session_id=record.class_session_id
    ).delete()


_NOT_TIMED_OUT = Q(timed_out=False)
_ANSWERED = Q(timed_out=False, correct__isnull=False)


def _aggregate_summaries(session_ids: list[int]) -> list[PupilSessionSummary]:
    """Per (pupil, session) figures in SQL (conditional aggregation), plus one
    compact query of the correct answers' times. Two queries; unsaved rows."""
    if not session_ids:
        return []
    records = LearningRecord.objects.filter(class_session_id__in=session_ids)
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


def class_summaries(*, school_class: SchoolClass) -> list[SummaryRow]:
    """Every (pupil, session) summary of the class, oldest first.

    Finished sessions come from the cache and are summarised (then stored)
    the first time they are read; open or just-ended sessions are aggregated
    live. At most six queries, whatever the number of records."""
    cutoff = timezone.now() - SUMMARY_SETTLE
    cached = [
        SummaryRow(*row)
        for row in PupilSessionSummary.objects.filter(
            class_session__school_class=school_class
        ).values_list(*SummaryRow._fields)
    ]
    summarised = {s.class_session_id for s in cached}
    candidates = list(
        ClassSession.objects.filter(school_class=school_class)
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=cutoff) | Q(summaries__isnull=True))
        .values_list("pk", "ended_at")
        .distinct()
    )
    live = [pk for pk, _ended in candidates if pk not in summarised]
    fresh = _aggregate_summaries(live)
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


def _pooled_median(lists: list[list[int]]) -> int | None:
    """The exact median of the union of sorted lists (as ``statistics.median``
    of the pooled values would give, truncated to whole ms). Sorting the
    concatenation is cheap: Timsort merges the already sorted runs."""
    n = sum(len(lst) for lst in lists)
    if not n:
        return None
    if len(lists) == 1:
        return _sorted_median(lists[0])
    merged = [v for lst in lists for v in lst]
    merged.sort()
    return _sorted_median(merged)


def _pooled(summaries: list[SummaryRow]) -> PupilSummary:
    """The figures of several sessions pooled, exactly as ``pupil_summary``
    would compute them from the records (medians included)."""
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
        median_compute_ms=_pooled_median([s.compute_ms for s in summaries]),
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
    s: SummaryRow,
    *,
    tz: tzinfo,
    date_from: date | None,
    date_to: date | None,
    session_id: int | None,
) -> bool:
    if session_id is not None:
        return s.class_session_id == session_id
    day = s.first_at.astimezone(tz).date()
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
    for pupil in pupils:
        mine = by_pupil.get(pupil.pk, [])
        chosen = [
            s
            for s in mine
            if _in_period(s, tz=tz, date_from=date_from, date_to=date_to, session_id=session_id)
        ]
        chosen_all.extend(chosen)
        points = [_point(s, tz) for s in mine]
        if chosen:
            start, end = chosen[0].first_at, chosen[-1].first_at
            before = [p for p in points if p.started_at < start]
            upto = [p for p in points if p.started_at <= end]
        else:
            before, upto = points, points
        summary = _pooled(chosen)
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
        total=_pooled(chosen_all),
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


@dataclass
class PupilReport:
    pupil: Pupil
    plays: list[Play]
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
    links: list[ParentLink]


def pupil_report(*, pupil: Pupil) -> PupilReport:
    """Everything the teacher's pupil page shows: two queries (the records in
    one compact ``values_list``, the parent links); the figures come from
    ``classroom.insights`` so every page agrees."""
    tz = timezone.get_current_timezone()
    plays = records_as_plays(LearningRecord.objects.filter(pupil=pupil))
    summary = pupil_summary(plays=plays)
    series = session_series(plays=plays, tz=tz)
    last = series[-1] if series else None
    return PupilReport(
        pupil=pupil,
        plays=plays,
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
        links=list(pupil.parent_links.all()),
    )


@dataclass
class ParentReport:
    pupil: Pupil
    summary: PupilSummary
    series: list[SessionPoint]
    fluency: FluencyGrid
    tips: list[str]
    first_day: date | None
    last_day: date | None
    kinds: dict[str, int]  # answered plays by kind of card


def parent_report(*, pupil: Pupil) -> ParentReport:
    """The parent page: this one child only, one query."""
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
        summary=summary,
        series=series,
        fluency=fluency_grid(plays=plays),
        tips=parent_tips(plays=plays, items=items, summary=summary)[:3],
        first_day=series[0].date if series else None,
        last_day=series[-1].date if series else None,
        kinds=kinds,
    )


@dataclass
class PupilOwnPage:
    pupil: Pupil
    stars: StarsAndStreak
    fluency: FluencyGrid


def pupil_own_page(*, pupil: Pupil) -> PupilOwnPage:
    """The child's page: their stars, streak and grid; nobody else's figures."""
    tz = timezone.get_current_timezone()
    plays = records_as_plays(LearningRecord.objects.filter(pupil=pupil))
    grid = fluency_grid(plays=plays)
    stars = stars_and_streak(plays=plays, today=timezone.localdate(), tz=tz, grid=grid)
    return PupilOwnPage(pupil=pupil, stars=stars, fluency=grid)
