"""Reads behind the teacher's session pages and the pupils' lobby: who joined,
which tablets, the grouping board, where a pupil sits. A fixed number of
queries per page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from cardgames import engines
from cardgames.models import Table
from classroom.models import Attendance, ClassSession, Pupil, SchoolClass, SessionGroup, TabletLogin


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
    """Cards locked now: for a while, or until the teacher unlocks them."""
    return list(
        school_class.pupils.filter(Q(locked_until__gt=timezone.now()) | Q(needs_teacher=True))
    )


def attacked_pupils(*, school_class: SchoolClass) -> list[Pupil]:
    """Cards that got wrong picture codes in the last hour (locked or not): the
    teacher sees them, since a run of wrong codes may be someone guessing."""
    from classroom.services.pupils import ATTACK_MEMORY

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
        return (
            bool(self.groups)
            and not self.waiting
            and all(group.table is not None for group in self.groups)
        )


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
