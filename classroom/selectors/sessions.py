"""Reads behind the teacher's session pages and the pupils' lobby: who joined,
which tablets, the grouping board, where a pupil sits. A fixed number of
queries per page."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import CharField, Count, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Cast, Coalesce, Concat, Greatest
from django.utils import timezone
from django.utils.translation import gettext

from cardgames import engines
from cardgames.models import GameState, Table
from cardgames.snapshot import snapshot, winner_names
from classroom.keys import SESSION
from classroom.models import Attendance, ClassSession, Pupil, SchoolClass, SessionGroup, TabletLogin
from classroom.names import by_name
from classroom.picture_limits import ATTACK_MEMORY


def teacher_classes(*, teacher: Any) -> QuerySet[SchoolClass]:
    return SchoolClass.objects.filter(teacher=teacher).annotate(pupil_count=Count("pupils"))


# ------------------------------------------------------------------ open lessons
# A lesson nobody touches for ``LESSON_IDLE_HOURS`` is over: a forgotten one
# must not keep a live join code for days. "Touched" is what costs no extra
# bookkeeping: the lesson's start, a pupil joining, a tablet signing in, and
# any move or change on one of its tables (``GameState.updated_at``).


def lesson_idle_cutoff(*, now: datetime | None = None) -> datetime:
    """A lesson last touched before this is idle past the limit."""
    hours = float(getattr(settings, "LESSON_IDLE_HOURS", 4))
    return (now or timezone.now()) - timedelta(hours=hours)


def _latest(queryset: QuerySet[Any], field_name: str) -> Coalesce:
    """The newest ``field_name`` of ``queryset`` (rows of the outer session),
    or the session's start when there is none (``Greatest`` is NULL on
    SQLite as soon as one argument is)."""
    newest = queryset.order_by(f"-{field_name}").values(field_name)[:1]
    return Coalesce(Subquery(newest), F("started_at"))


def with_last_activity(queryset: QuerySet[ClassSession]) -> QuerySet[ClassSession]:
    """``queryset`` with ``last_activity``: when each session was last touched.
    Four small subqueries per session row, each on an indexed column: cheap on
    the one row a join code finds, and on the few open lessons purge reads."""
    group_key = Concat(Value(f"{SESSION}:"), Cast(OuterRef("pk"), CharField()))
    return queryset.annotate(
        last_activity=Greatest(
            F("started_at"),
            _latest(Attendance.objects.filter(class_session=OuterRef("pk")), "joined_at"),
            _latest(TabletLogin.objects.filter(class_session=OuterRef("pk")), "last_seen_at"),
            _latest(GameState.objects.filter(table__group_key=group_key), "updated_at"),
        )
    )


def open_sessions(*, now: datetime | None = None) -> QuerySet[ClassSession]:
    """Sessions still open for real: not ended, and (a lesson) not idle past
    ``LESSON_IDLE_HOURS``. A join code or class link must look its session up
    here, never on ``ended_at`` alone: an idle lesson lets nobody in, even
    before ``purge`` ends it. (Practice sessions have their own, shorter
    rule: ``PRACTICE_LOGIN_IDLE_SECONDS`` and ``purge``.)"""
    return with_last_activity(ClassSession.objects.filter(ended_at__isnull=True)).filter(
        Q(practice=True) | Q(last_activity__gte=lesson_idle_cutoff(now=now))
    )


def idle_lessons(*, now: datetime | None = None) -> QuerySet[ClassSession]:
    """Lessons left open but idle past the limit: ``purge`` (and starting a
    new lesson) end them."""
    return with_last_activity(
        ClassSession.objects.filter(ended_at__isnull=True, practice=False)
    ).filter(last_activity__lt=lesson_idle_cutoff(now=now))


def teacher_open_sessions(*, teacher: Any) -> QuerySet[ClassSession]:
    return (
        open_sessions()
        .filter(school_class__teacher=teacher, practice=False)
        .select_related("school_class")
    )


def open_session_of_class(*, school_class: SchoolClass) -> ClassSession | None:
    """The class's current lesson (an idle one is over: the next is opened)."""
    return (
        open_sessions()
        .filter(school_class=school_class, practice=False)
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
    """Cards locked now: for a while, or until the teacher unlocks them."""
    return list(
        school_class.pupils.filter(Q(locked_until__gt=timezone.now()) | Q(needs_teacher=True))
    )


def attacked_pupils(*, school_class: SchoolClass) -> list[Pupil]:
    """Cards that got wrong picture codes in the last hour (locked or not): the
    teacher sees them, since a run of wrong codes may be someone guessing."""
    since = timezone.now() - ATTACK_MEMORY
    return list(
        school_class.pupils.filter(last_failed_at__gt=since).filter(
            Q(failed_attempts__gt=0) | Q(lock_level__gt=0)
        )
    )


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
    # Why this group cannot start yet ("" when it can, or is empty or started).
    problem: str = ""
    # A finished game's winners (names), for "Partie terminée".
    winners: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """Its game is over: the board says so and offers what comes next
        ("Rejouer", "Regrouper ces élèves") instead of "▶ lancée"."""
        return self.table is not None and self.table.status == Table.Status.FINISHED


def group_problem(*, seats: int, has_bots: bool, min_players: int, max_players: int) -> str:
    """The teacher's sentence for a group that cannot become a table."""
    if seats < min_players:
        if has_bots:
            return ""  # pragma: no cover - bots always fill up to the minimum
        return gettext(
            "Il faut au moins %(lo)s joueurs à cette table : ajoutez des robots ou des élèves."
        ) % {"lo": min_players}
    if seats > max_players:
        return gettext(
            "Au plus %(hi)s joueurs à cette table : déplacez des élèves vers une autre table."
        ) % {"hi": max_players}
    return ""


@dataclass
class Board:
    groups: list[BoardGroup]
    waiting: list[Pupil]
    min_players: int
    max_players: int
    sizes: list[int]
    ready: int

    @property
    def all_playing(self) -> bool:
        """Every table started and nobody waiting: grouping is over, so the
        board stops offering it (a late pupil joins with the code, then gets
        a place on an empty table)."""
        # A finished table whose pupils were sent back to be regrouped is
        # history; one still holding its pupils waits for the teacher.
        groups = [g for g in self.groups if not (g.finished and not g.pupils)]
        return (
            bool(groups)
            and not self.waiting
            and all(g.table is not None and not g.finished for g in groups)
        )

    @property
    def finished_held(self) -> list[BoardGroup]:
        """Finished tables still holding their pupils: what the teacher decides next."""
        return [g for g in self.groups if g.finished and g.pupils]


def _display_name(pupil: Pupil) -> str:
    return pupil.display_name


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
    # Each list in the reader's alphabetical order: the teacher looks a name up.
    members = {key: by_name(pupils, _display_name) for key, pupils in members.items()}
    board_groups = []
    ready = 0
    for group in groups:
        pupils = members.get(group.pk, [])
        seats = max(len(pupils), group.size) if group.bot_level else len(pupils)
        problem = ""
        if group.table_id is None and pupils:
            problem = group_problem(
                seats=seats,
                has_bots=bool(group.bot_level),
                min_players=engine.min_players,
                max_players=engine.max_players,
            )
            ready += not problem
        board_groups.append(
            BoardGroup(
                group=group,
                pupils=pupils,
                table=group.table,
                seats=seats,
                bots=seats - len(pupils),
                overridden=sorted(group.options_override),
                problem=problem,
                winners=_winners(group.table),
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


def _winners(table: Table | None) -> list[str]:
    """A finished table's winners (one read per finished table, none for the others)."""
    if table is None or table.status != Table.Status.FINISHED:
        return []
    snap = snapshot(table.pk)
    return winner_names(snap) if snap is not None else []


def pupil_table(*, class_session: ClassSession, pupil: Pupil) -> Table | None:
    """The table where ``pupil`` belongs now in this session, if any: a game
    they are seated at that is still on; else, when they were sent back to be
    regrouped and already sit in a new group not yet started, none (the lobby:
    "Tu seras à la table 3"); else their last game (its end screen)."""
    seated = Table.objects.filter(
        group_key=class_session.group_key, seats__player_key=pupil.player_key
    ).order_by("-id")
    live = seated.exclude(status=Table.Status.FINISHED).first()
    if live is not None:
        return live
    regrouped = Attendance.objects.filter(
        class_session=class_session, pupil=pupil, group__isnull=False, group__table__isnull=True
    ).exists()
    return None if regrouped else seated.first()


def pupil_group_number(*, class_session: ClassSession, pupil: Pupil) -> int | None:
    return (
        Attendance.objects.filter(class_session=class_session, pupil=pupil)
        .values_list("group__number", flat=True)
        .first()
    )
