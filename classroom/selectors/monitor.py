"""Reads behind the teacher's live monitor: the session's tables, each one's
public state (the engine's ``view(state, None)`` and public events, never a
hand), and the signed-in pupils who have no seat yet."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from cardgames import rendering, ui
from cardgames.models import GameEvent, Seat, Table
from classroom.keys import pupil_id_from_key
from classroom.live_help import KEEP, RecentPlay
from classroom.models import ClassSession, LearningRecord, Pupil
from classroom.selectors.sessions import attacked_pupils, locked_pupils

EVENTS_SHOWN = 5


def session_tables(class_session: ClassSession) -> list[Table]:
    return list(Table.objects.filter(group_key=class_session.group_key).order_by("number", "id"))


def free_pupils(class_session: ClassSession) -> list[Pupil]:
    """Pupils signed in to the session who have no seat at a live table: the
    late ones a teacher may seat in a bot's place."""
    seated = set(
        Seat.objects.filter(
            table__group_key=class_session.group_key,
            table__status__in=[Table.Status.PLAYING, Table.Status.PAUSED, Table.Status.WAITING],
            is_bot=False,
        ).values_list("player_key", flat=True)
    )
    logged = (
        Pupil.objects.filter(logins__class_session=class_session)
        .distinct()
        .order_by("display_name")
    )
    return [pupil for pupil in logged if pupil.player_key not in seated]


def table_card_context(table_id: int, class_session: ClassSession) -> dict[str, Any] | None:
    """One table's public state, last events and seats, for the monitor."""
    snap = rendering.snapshot(table_id, presence=True)
    if snap is None or snap.table.group_key != class_session.group_key:
        return None
    adapter = ui.get(snap.table.game)
    names = snap.seat_names
    summary: list[tuple[str, str]] = []
    current = None
    if snap.state is not None:
        view = snap.engine.view(snap.state, None)
        summary = adapter.public_summary(view, names)
        current = view.get("current_seat")
    events = list(
        GameEvent.objects.filter(table_id=table_id, visible_to__isnull=True).order_by("-seq")[
            :EVENTS_SHOWN
        ]
    )
    return {
        "table": snap.table,
        "summary": summary,
        "events": [
            adapter.describe_event(event.payload, names, snap.table.options) for event in events
        ],
        "seats": [
            {
                "index": seat.index,
                "name": rendering.shown_name(seat),
                "is_bot": seat.is_bot,
                "bot_level": seat.bot_level,
                "connected": seat.connections > 0,
                "is_current": seat.index == current,
                "pupil_id": None if seat.is_bot else pupil_id_from_key(seat.player_key),
            }
            for seat in snap.seats
        ],
        "version": snap.version,
    }


def monitor_context(class_session: ClassSession) -> dict[str, Any]:
    free = free_pupils(class_session)
    cards = []
    for table in session_tables(class_session):
        context = table_card_context(table.pk, class_session)
        if context is not None:
            context.update(oob=False, class_session=class_session, free=free)
            cards.append(context)
    school_class = class_session.school_class
    return {
        "class_session": class_session,
        "cards": cards,
        "free": free,
        "notice": "",
        # Locked and recently attacked picture cards (the teacher unlocks here too).
        "locked": locked_pupils(school_class=school_class),
        "attacked": attacked_pupils(school_class=school_class),
        "back_url": reverse("classroom:monitor", kwargs={"session_id": class_session.pk}),
    }


# At most this many of the session's latest records are read when a monitor
# connects: enough for ``KEEP`` plays of every pupil of a big class.
RECENT_RECORDS = KEEP * 40


def recent_plays(class_session: ClassSession) -> dict[int, list[RecentPlay]]:
    """Each pupil's last ``KEEP`` plays in this session, oldest first: what the
    monitor needs to decide "needs help now" when it (re)connects. One query;
    after that, new records are pushed to it."""
    fields = ("pupil_id", *RecentPlay.__dataclass_fields__)
    rows = (
        LearningRecord.objects.filter(class_session=class_session)
        .order_by("-id")
        .values_list(*fields)[:RECENT_RECORDS]
    )
    out: dict[int, list[RecentPlay]] = {}
    for row in reversed(list(rows)):
        plays = out.setdefault(row[0], [])
        plays.append(RecentPlay(*row[1:]))
        if len(plays) > KEEP:
            del plays[0]
    return out
