"""Reads behind the teacher's live monitor: the session's tables, each one's
public state (the engine's ``view(state, None)`` and public events, never a
hand), and the signed-in pupils who have no seat yet."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from cardgames import ui
from cardgames.models import GameEvent, Seat, Table
from cardgames.snapshot import shown_name, snapshot, winner_names
from classroom.keys import pupil_id_from_key
from classroom.live_help import KEEP, RecentPlay
from classroom.models import ClassSession, LearningRecord, Pupil, SessionGroup
from classroom.names import by_name
from classroom.selectors.sessions import attacked_pupils, locked_pupils

EVENTS_SHOWN = 5


def session_tables(class_session: ClassSession) -> list[Table]:
    return list(Table.objects.filter(group_key=class_session.group_key).order_by("number", "id"))


def current_tables(class_session: ClassSession) -> list[Table]:
    """The session's tables as they stand now: for each table number its
    latest game. After "Rejouer" the game it replaced (kept for replays and
    reports) is no longer shown beside the new one: the monitor and the
    projector showed both, a finished and a running "Table 1"."""
    latest: dict[int, Table] = {}
    for table in session_tables(class_session):
        latest[table.number] = table  # ordered by number, then id: the last wins
    return list(latest.values())


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
    return by_name(
        (pupil for pupil in logged if pupil.player_key not in seated), lambda p: p.display_name
    )


def finished_group(table_id: int) -> int | None:
    """The id of the group whose current table is ``table_id`` while its pupils
    are still attached to it (not yet sent back to be regrouped)."""
    return (
        SessionGroup.objects.filter(table_id=table_id, members__isnull=False)
        .values_list("pk", flat=True)
        .first()
    )


def table_card_context(table_id: int, class_session: ClassSession) -> dict[str, Any] | None:
    """One table's public state, last events and seats, for the monitor."""
    snap = snapshot(table_id, presence=True)
    if snap is None or snap.table.group_key != class_session.group_key:
        return None
    adapter = ui.get(snap.table.game)
    names = snap.seat_names
    summary: list[tuple[str, str]] = []
    current = None
    if snap.state is not None:
        view = snap.engine.view(snap.state, None)
        summary = adapter.public_summary(view, names)
        # Only a running game waits for someone: a finished or paused table
        # showed ⏳ beside a seat nobody was waiting for.
        if snap.table.status == Table.Status.PLAYING:
            current = view.get("current_seat")
    finished = snap.table.status == Table.Status.FINISHED
    held = finished_group(table_id) if finished else None
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
                "name": shown_name(seat),
                "is_bot": seat.is_bot,
                "bot_level": seat.bot_level,
                "connected": seat.connections > 0,
                "is_current": seat.index == current,
                "pupil_id": None if seat.is_bot else pupil_id_from_key(seat.player_key),
            }
            for seat in snap.seats
        ],
        "version": snap.version,
        "winners": winner_names(snap),
        # A finished table still holding its pupils offers "Rejouer" and
        # "Regrouper ces élèves"; once regrouped, its seats are history.
        "release_group": held,
        "released": finished
        and held is None
        and SessionGroup.objects.filter(table_id=table_id).exists(),
    }


def monitor_context(class_session: ClassSession) -> dict[str, Any]:
    free = free_pupils(class_session)
    cards = []
    for table in current_tables(class_session):
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
