"""The grouping board: share the joined pupils into tables, move one, add
robots or per-table options. Changes lock the session and tell the lobbies."""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from cardgames import engines
from cardgames.engines.base import BOT_LEVELS
from classroom.models import Attendance, ClassSession, Pupil, SessionGroup
from classroom.services.events import lobby_group, notify_on_commit, projector_group


@transaction.atomic
def groups_make(*, class_session: ClassSession, size: int) -> list[SessionGroup]:
    """ "Groupes de N": share the joined pupils who are not yet at a started
    table into ceil(n/N) groups whose sizes differ by at most one. Locks the
    session. Groups already started are kept as they are."""
    engine = engines.get(class_session.game)
    size = max(engine.min_players, min(engine.max_players, size))
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
    groups = [
        SessionGroup.objects.create(class_session=locked, number=first_number + i, size=size)
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
    """An empty table, to move pupils onto. Locks the session."""
    locked = ClassSession.objects.select_for_update().get(pk=class_session.pk)
    engine = engines.get(locked.game)
    number = (locked.groups.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    return SessionGroup.objects.create(class_session=locked, number=number, size=engine.min_players)


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
