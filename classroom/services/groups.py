"""The grouping board: share the joined pupils into tables, move one, add
robots or per-table options. Changes lock the session and tell the lobbies.

Robots fill short tables by default (issue 48): a pupil alone, or the three
tables of 3 when 25 pupils sit by 4, used to show "sans robot" and "Lancer 0
tables" until the teacher found a robot menu labelled 🤖 on each table. Every
table a grouping makes now carries the session's robot level (one control on
the board, ``ROBOTS_DEFAULT`` until the teacher changes it) and asks for as many
seats as the fullest table, at least the game's minimum; "" means no robot.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from cardgames import engines
from cardgames.engines.base import BOT_LEVELS
from classroom.models import Attendance, ClassSession, Pupil, SessionGroup
from classroom.services.events import lobby_group, notify_on_commit, projector_group

#: The robots that fill short tables until the teacher chooses another level:
#: the weakest, so a robot keeps a pupil's table going without winning it.
ROBOTS_DEFAULT = "easy"

#: The group size of "Grouper par 4 et lancer" (clipped to the game's range).
QUICK_SIZE = 4


def quick_size(game: str) -> int:
    """The size "Grouper et lancer" uses for ``game``: 4, or the nearest the
    game allows."""
    engine = engines.get(game)
    return max(engine.min_players, min(engine.max_players, QUICK_SIZE))


def session_robots(class_session: ClassSession) -> str:
    """The session's robot level: the one most of its tables carry (every
    grouping gives all its tables the same, see ``groups_make``), or
    ``ROBOTS_DEFAULT`` before the first grouping. Read from the tables, so the
    choice needs no column of its own."""
    levels = Counter(class_session.groups.values_list("bot_level", flat=True))
    return levels.most_common(1)[0][0] if levels else ROBOTS_DEFAULT


def _robots_clean(robots: str) -> str:
    if robots and robots not in BOT_LEVELS:
        raise ValidationError(_("Niveau de robot inconnu."))
    return robots


@transaction.atomic
def groups_make(
    *, class_session: ClassSession, size: int, robots: str | None = None
) -> list[SessionGroup]:
    """ "Groupes de N": share the joined pupils who are not yet at a started
    table into ceil(n/N) groups whose sizes differ by at most one. Locks the
    session. Groups already started are kept as they are.

    Each new table asks for as many seats as the fullest one (at least the
    game's minimum) and fills the rest with robots of ``robots`` (``None``:
    the session's level, ``session_robots``; "": none). So 25 pupils by 4 give
    seven tables of 4, three of them with one robot, and a pupil alone plays
    with robots rather than waiting on a table that cannot start."""
    engine = engines.get(class_session.game)
    size = max(engine.min_players, min(engine.max_players, size))
    robots = _robots_clean(session_robots(class_session) if robots is None else robots)
    locked = ClassSession.objects.select_for_update().get(pk=class_session.pk)
    started = list(locked.groups.filter(table__isnull=False))
    locked.groups.filter(table__isnull=True).delete()
    free = list(
        Attendance.objects.filter(class_session=locked)
        .exclude(group__in=started)
        .order_by("joined_at", "id")
    )
    count = max(1, math.ceil(len(free) / size)) if free else 0
    first_number = max((g.number for g in started), default=0) + 1
    # The fullest table's pupils (ceil), never fewer than the game needs.
    seats = max(engine.min_players, math.ceil(len(free) / count)) if count else size
    groups = [
        SessionGroup.objects.create(
            class_session=locked, number=first_number + i, size=seats, bot_level=robots
        )
        for i in range(count)
    ]
    for i, attendance in enumerate(free):
        attendance.group = groups[i % count]
        attendance.save(update_fields=["group"])
    notify_on_commit(projector_group(locked.pk), {"type": "pupils.changed"})
    notify_on_commit(lobby_group(locked.pk), {"type": "groups.changed"})
    return groups


@transaction.atomic
def group_add(*, class_session: ClassSession) -> SessionGroup:
    """An empty table, to move pupils onto, with the session's robots (a late
    pupil put there alone still gets a game). Locks the session."""
    locked = ClassSession.objects.select_for_update().get(pk=class_session.pk)
    engine = engines.get(locked.game)
    robots = session_robots(locked)
    number = (locked.groups.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    return SessionGroup.objects.create(
        class_session=locked, number=number, size=engine.min_players, bot_level=robots
    )


@transaction.atomic
def session_set_robots(*, class_session: ClassSession, robots: str) -> int:
    """The board's one robot control: every table not yet started takes
    ``robots`` ("" = none), and the next groupings keep it. Returns how many
    tables changed. Locks the session."""
    robots = _robots_clean(robots)
    locked = ClassSession.objects.select_for_update().get(pk=class_session.pk)
    changed = locked.groups.filter(table__isnull=True).update(bot_level=robots)
    notify_on_commit(lobby_group(locked.pk), {"type": "groups.changed"})
    return changed


@transaction.atomic
def pupil_move(*, class_session: ClassSession, pupil: Pupil, group: SessionGroup | None) -> None:
    """Move a joined pupil to another table (or back to the waiting list).
    Locks the session. Pupils already playing stay where they are."""
    ClassSession.objects.select_for_update().get(pk=class_session.pk)
    attendance = Attendance.objects.select_related("group").get(
        class_session=class_session, pupil=pupil
    )
    if attendance.group is not None and attendance.group.table_id is not None:
        raise ValidationError(_("Cet élève joue déjà : sa table est lancée."))
    if group is not None and (
        group.class_session_id != class_session.pk or group.table_id is not None
    ):
        raise ValidationError(_("Cette table est déjà lancée."))
    attendance.group = group
    attendance.save(update_fields=["group"])
    notify_on_commit(lobby_group(class_session.pk), {"type": "groups.changed"})


def group_set_bots(*, group: SessionGroup, level: str, size: int) -> SessionGroup:
    """Fill the empty seats up to ``size`` with bots of ``level`` ("" = none)."""
    engine = engines.get(group.class_session.game)
    if level and level not in BOT_LEVELS:
        raise ValidationError(_("Niveau de robot inconnu."))
    group.bot_level = level
    group.size = max(engine.min_players, min(engine.max_players, size))
    group.save(update_fields=["bot_level", "size"])
    return group


def group_set_options(*, group: SessionGroup, options: dict[str, Any]) -> SessionGroup:
    """Keep only the options that differ from the session's: change the session
    later and tables without an override follow."""
    base = engines.get(group.class_session.game).validate_options(group.class_session.options)
    group.options_override = {k: v for k, v in options.items() if base.get(k) != v}
    group.save(update_fields=["options_override"])
    return group


def group_options(group: SessionGroup) -> dict[str, Any]:
    return {**group.class_session.options, **group.options_override}


def group_seat_count(group: SessionGroup, pupils: int) -> int:
    return max(pupils, group.size) if group.bot_level else pupils
