"""The reports: the class report, the teacher's pupil page, the parent page
and the child's own page. Each reads with a fixed number of queries
(``selectors.summaries`` for the class, ``selectors.records`` for one pupil)
and takes its figures from ``classroom.insights``, so every page agrees.

A new report is one function here, its figures in ``classroom.insights``, one
view in ``classroom.views.reports`` and one template. The class report's
columns (and so its sort keys) are declared in ``classroom.report_columns``."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q
from django.utils import timezone, translation

from cardgames.models import Table
from classroom.charts import Chart, ClassRow, class_accuracy_chart
from classroom.insights import (
    CarryGrid,
    ErrorBreakdown,
    Flag,
    FluencyGrid,
    PracticeItem,
    PupilFocus,
    PupilSummary,
    RecentGame,
    SessionCounts,
    SessionPoint,
    StarsAndStreak,
    Trend,
    carry_grid,
    error_breakdown,
    fluency_grid,
    parent_tips,
    pooled_summary,
    practise_next,
    pupil_focus,
    pupil_summary,
    recent_games,
    session_point,
    session_series,
    stars_and_streak,
    trend,
    watch_flags,
    weaknesses,
)
from classroom.insights.numbers import merged
from classroom.models import (
    ClassSession,
    LearningRecord,
    ParentLink,
    Pupil,
    PupilSessionSummary,
    SchoolClass,
    SocialRecord,
)
from classroom.report_columns import SORT_KEYS
from classroom.selectors.records import (
    REPORT_CACHE_SECONDS,
    pupil_cached,
    pupil_records_version,
    records_as_plays,
)
from classroom.selectors.social import (
    ClassSocialTables,
    SocialGameTable,
    class_social_tables,
    pupil_social_tables,
)
from classroom.selectors.summaries import class_summaries

PREVIOUS_SESSIONS_FOR_TREND = 5
# "Nouveau : 7 + 8 est su !": a fact that became fluent within this many days.
NEW_FACT_DAYS = 7
NEW_FACTS_SHOWN = 3


def _new_facts(grid: FluencyGrid, today: date) -> list[tuple[int, int]]:
    """The facts newly mastered: fluent since ``NEW_FACT_DAYS`` days at most."""
    start = datetime.combine(
        today - timedelta(days=NEW_FACT_DAYS - 1), time.min, tzinfo=timezone.get_current_timezone()
    )
    return grid.newly_fluent(since=start)[:NEW_FACTS_SHOWN]


def _point(summary: SessionCounts, tz: tzinfo) -> SessionPoint:
    return session_point(
        session_id=summary.class_session_id,
        started_at=summary.first_at,
        day=summary.first_at.astimezone(tz).date(),
        summary=pooled_summary([summary]),
    )


@dataclass
class ClassReportRow:
    pupil: Pupil
    summary: PupilSummary
    trend: Trend
    flags: list[Flag]
    series: list[SessionPoint]
    # Social-game tables played, one number per column of ``ClassReport.social``.
    social: list[int] = field(default_factory=list)

    @property
    def played(self) -> bool:
        """Whether the pupil played at all in the period: a move, a missed
        turn, or a social game's table (a Purrfect lesson has no sums)."""
        return bool(self.summary.plays or self.summary.timeouts or any(self.social))


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
    # Social-game tables per pupil and game (never mixed into the Chasse figures).
    social: ClassSocialTables | None = None
    # Set by ``class_report_cached``: what the report was read at, so the
    # chart drawn from it is cached under the same key.
    cache_key: str = ""


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
    pupils: list[Pupil] | None = None,
) -> ClassReport:
    """The class report's rows, one per pupil, over a date range or a session.

    The trend compares the period with the pupil's up to five sessions before
    it. With no period chosen (the whole history, nothing comes before it) it
    compares the pupil's last five sessions with the five before them, so the
    column says something on the report's first view. The flags look at the
    pupil's sessions up to the end of the period.

    Longer than the house's 80 lines on purpose: it is the report's fixed
    query budget (pupils, sessions, summaries, flags: a handful of queries
    whatever the class's size), and keeping the reads in one place is what
    lets a reader count them against ``django_assert_max_num_queries``."""
    whole = date_from is None and date_to is None and session_id is None
    tz = timezone.get_current_timezone()
    if pupils is None:
        pupils = list(school_class.pupils.all())
    sessions = list(
        school_class.sessions.filter(practice=False).order_by("-started_at", "-id")[:200]
    )
    session = next((s for s in sessions if s.pk == session_id), None)
    if session_id is not None and session is None:
        session_id = None
    by_pupil: dict[int, list[SessionCounts]] = {}
    for s in class_summaries(school_class=school_class):
        by_pupil.setdefault(s.pupil_id, []).append(s)
    rows = []
    chosen_all: list[SessionCounts] = []
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
        times = merged([s.compute_ms for s in chosen if s.compute_ms])
        pupil_times.append(times)
        summary = pooled_summary(chosen, [times])
        if whole or (session_id is None and not before):
            recent = chosen[-PREVIOUS_SESSIONS_FOR_TREND:]
            current = pooled_summary(
                recent, [merged([s.compute_ms for s in recent if s.compute_ms])]
            )
            earlier = [p for p in points if recent and p.started_at < recent[0].first_at]
        else:
            current, earlier = summary, before
        rows.append(
            ClassReportRow(
                pupil=pupil,
                summary=summary,
                trend=trend(current=current, previous=earlier[-PREVIOUS_SESSIONS_FOR_TREND:]),
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
    social = class_social_tables(
        school_class=school_class,
        date_from=None if session_id is not None else date_from,
        date_to=None if session_id is not None else date_to,
        session_id=session_id,
    )
    for row in rows:
        row.social = social.row(row.pupil.pk)
    return ClassReport(
        school_class=school_class,
        rows=known + unknown,  # "—" always last, whichever the direction
        total=pooled_summary(chosen_all, pupil_times),
        sessions=sessions,
        date_from=date_from,
        date_to=date_to,
        session=session,
        sort=sort,
        descending=descending,
        social=social,
    )


def class_reports_version(*, school_class: SchoolClass, pupils: list[Pupil]) -> str:
    """What changes whenever the class report may change: the class's
    sessions (one starts, one ends), its stored summaries (a session summarised,
    or dropped by a late record), the records of the sessions not summarised
    yet (a lesson being played) and the social games' finished tables. Four
    small indexed queries, whatever the size of the history; ``pupils`` (read
    anyway) add their names."""
    sessions = ClassSession.objects.filter(school_class=school_class).aggregate(
        n=Count("id"), last=Max("id"), ended=Max("ended_at")
    )
    stored = PupilSessionSummary.objects.filter(
        class_session__school_class=school_class
    ).aggregate(n=Count("id"), last=Max("id"))
    unsummarised = ClassSession.objects.filter(school_class=school_class).filter(
        Q(ended_at__isnull=True) | Q(summaries__isnull=True)
    )
    live = LearningRecord.objects.filter(
        class_session_id__in=unsummarised.values("pk")
    ).aggregate(n=Count("id"), last=Max("id"))
    # The social games' tables (a column each): a table finishing, or a
    # record completed, changes these.
    social = SocialRecord.objects.filter(pupil__school_class=school_class).aggregate(
        n=Count("id", filter=Q(finished_at__isnull=False)), last=Max("finished_at")
    )
    names = zlib.crc32(repr([(p.pk, p.display_name) for p in pupils]).encode())
    ended = sessions["ended"].timestamp() if sessions["ended"] else 0
    social_last = social["last"].timestamp() if social["last"] else 0
    return (
        f"{sessions['n']}.{sessions['last']}.{ended:.0f}-{stored['n']}.{stored['last']}"
        f"-{live['n']}.{live['last']}-{social['n']}.{social_last:.3f}-{names:x}"
    )


def _class_cached(key: str, build: Callable[[], Any]) -> Any:
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, REPORT_CACHE_SECONDS)
    return value


# The shape of a cached class report: its figures and its columns. A new
# figure or column makes new cache keys, so a report cached before a release
# is never read back without it (the cache outlives a deploy).
_REPORT_SHAPE = format(
    zlib.crc32(repr(([f.name for f in fields(PupilSummary)], list(SORT_KEYS))).encode()), "x"
)


def class_report_cached(
    *,
    school_class: SchoolClass,
    date_from: date | None = None,
    date_to: date | None = None,
    session_id: int | None = None,
    sort: str = "name",
    descending: bool = False,
) -> ClassReport:
    """``class_report``, computed once per state of the class's data (see
    :func:`class_reports_version`), period, sort, language and time zone. The
    default view is drawn in the background when a session ends
    (``services.reports``), so the first view after a lesson is a cache read."""
    pupils = list(school_class.pupils.all())
    version = class_reports_version(school_class=school_class, pupils=pupils)
    key = ":".join(
        (
            "reports",
            "class",
            _REPORT_SHAPE,
            str(school_class.pk),
            version,
            str(date_from or ""),
            str(date_to or ""),
            str(session_id or ""),
            sort,
            "desc" if descending else "asc",
            translation.get_language() or "",
            timezone.get_current_timezone_name(),
        )
    )

    def build() -> ClassReport:
        report = class_report(
            school_class=school_class,
            date_from=date_from,
            date_to=date_to,
            session_id=session_id,
            sort=sort,
            descending=descending,
            pupils=pupils,
        )
        report.cache_key = key
        # The page never reads a row's whole series (it has the trend and the
        # flags): not caching it keeps a cache read to a few milliseconds.
        for row in report.rows:
            row.series = []
        return report

    report: ClassReport = _class_cached(key, build)
    return report


def class_report_chart(*, report: ClassReport) -> Chart:
    """The class chart of ``report`` (pygal takes a good part of the page's
    time with 30 pupils): drawn once per cached report."""

    def build() -> Chart:
        return class_accuracy_chart(
            rows=[
                ClassRow(name=r.pupil.display_name, summary=r.summary)
                for r in report.rows
                if r.summary.announcements
            ]
        )

    if not report.cache_key:
        return build()
    chart: Chart = _class_cached(f"{report.cache_key}:chart", build)
    return chart


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
    focus: PupilFocus  # what a targeted practice would target (same diagnosis)


@dataclass
class PupilReport:
    """The teacher's pupil page: the cached figures plus the live parts."""

    pupil: Pupil
    version: str  # of the records: the charts are cached with it
    figures: PupilFigures
    replayable: set[int]  # the recent games whose table still exists
    links: list[ParentLink]
    # The social games (Purrfect…): a table per game, its own columns, a row
    # per session.
    social: list[SocialGameTable] = field(default_factory=list)


def _pupil_figures(pupil: Pupil) -> PupilFigures:
    tz = timezone.get_current_timezone()
    plays = records_as_plays(LearningRecord.objects.filter(pupil=pupil))
    summary = pupil_summary(plays=plays)
    series = session_series(plays=plays, tz=tz)
    last = series[-1] if series else None
    weak = weaknesses(plays=plays)
    grid = fluency_grid(plays=plays)
    return PupilFigures(
        summary=summary,
        series=series,
        trend=trend(
            current=last if last is not None else summary,
            previous=series[-1 - PREVIOUS_SESSIONS_FOR_TREND : -1],
        ),
        flags=watch_flags(summary=summary, series=series),
        fluency=grid,
        carry_add=carry_grid(plays=plays, kind="add"),
        carry_sub=carry_grid(plays=plays, kind="sub"),
        errors=error_breakdown(plays=plays),
        practise=list(weak.items[:3]),
        games=recent_games(plays),
        focus=pupil_focus(weaknesses=weak, grid=grid),
    )


def pupil_report(*, pupil: Pupil) -> PupilReport:
    """Everything the teacher's pupil page shows. Six queries: the records'
    version, then (only when it changed) the records in one compact
    ``values_list``, the tables that still have a replay, the parent links,
    the social games' participation.
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
        figures=figures,
        replayable=replayable,
        links=list(pupil.parent_links.all()),
        social=pupil_social_tables(pupil=pupil),
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
    new_facts: list[tuple[int, int]]  # newly mastered, most recent first


def _parent_report(pupil: Pupil, version: str, today: date) -> ParentReport:
    tz = timezone.get_current_timezone()
    plays = records_as_plays(LearningRecord.objects.filter(pupil=pupil))
    summary = pupil_summary(plays=plays)
    series = session_series(plays=plays, tz=tz)
    items = practise_next(plays=plays, n=3)
    kinds: dict[str, int] = {}
    for p in plays:
        if p.correct is not None and not p.timed_out:
            kinds[p.card_kind] = kinds.get(p.card_kind, 0) + 1
    grid = fluency_grid(plays=plays)
    return ParentReport(
        pupil=pupil,
        version=version,
        summary=summary,
        series=series,
        fluency=grid,
        new_facts=_new_facts(grid, today),
        tips=parent_tips(plays=plays, items=items, summary=summary)[:3],
        first_day=series[0].date if series else None,
        last_day=series[-1].date if series else None,
        kinds=kinds,
    )


def parent_report(*, pupil: Pupil) -> ParentReport:
    """The parent page: this one child only. Two queries at most (the
    records' version, then the records when they changed)."""
    today = timezone.localdate()
    version = pupil_records_version(pupil=pupil)
    return pupil_cached(
        pupil=pupil,
        version=f"{version}-{today.isoformat()}",
        name="parent",
        build=lambda: _parent_report(pupil, version, today),
    )


@dataclass
class PupilOwnPage:
    pupil: Pupil
    stars: StarsAndStreak
    fluency: FluencyGrid
    new_facts: list[tuple[int, int]]  # newly mastered, most recent first


def _pupil_own_page(pupil: Pupil, today: date) -> PupilOwnPage:
    tz = timezone.get_current_timezone()
    plays = records_as_plays(LearningRecord.objects.filter(pupil=pupil))
    grid = fluency_grid(plays=plays)
    stars = stars_and_streak(plays=plays, today=today, tz=tz, grid=grid)
    return PupilOwnPage(pupil=pupil, stars=stars, fluency=grid, new_facts=_new_facts(grid, today))


def pupil_own_page(*, pupil: Pupil) -> PupilOwnPage:
    """The child's page: their stars, streak and grid; nobody else's figures.
    The streak depends on today, so the day is part of the cache key."""
    today = timezone.localdate()
    version = f"{pupil_records_version(pupil=pupil)}-{today.isoformat()}"
    return pupil_cached(
        pupil=pupil, version=version, name="me", build=lambda: _pupil_own_page(pupil, today)
    )
