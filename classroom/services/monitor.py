"""The teacher's commands from the live monitor: pause, resume or end a table,
hand a seat to a robot or to a late pupil, end the whole session; and the
push of each new learning record to the monitor ("needs help now")."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import receiver
from django.utils.translation import gettext as _

from cardgames import services as cardgames_services
from cardgames.engines.base import BOT_LEVELS
from cardgames.models import Table
from cardgames.parsing import whole_number
from cardgames.signals import table_finished
from classroom.keys import session_id_from_key
from classroom.live_help import RecentPlay
from classroom.models import ClassSession, LearningRecord, SessionGroup
from classroom.selectors.monitor import free_pupils
from classroom.services.events import monitor_group, notify_on_commit, projector_group
from classroom.services.sessions import session_close
from classroom.services.tables import group_release, pupil_seat, table_rematch, tablets_follow


def help_play_notify(*, record: LearningRecord) -> None:
    """Tell the session's monitor, after commit, that ``record`` was written:
    the monitor keeps each pupil's last few plays and decides "needs help
    now" itself (``classroom.live_help``). The record travels in the message,
    so this costs no query on the move path, only the channel layer's send;
    and it goes to the monitor's own group, never to the projector or to a
    pupil's screen."""
    notify_on_commit(
        monitor_group(record.class_session_id),
        {
            "type": "help.play",
            "pupil_id": record.pupil_id,
            "play": RecentPlay.of(record).as_payload(),
        },
    )


class MonitorRefused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _int(value: Any) -> int:
    """A number the monitor page sent, or a polite refusal."""
    number = whole_number(value, max_digits=11)
    if number is None:
        raise MonitorRefused(_("Cette demande n'est pas comprise."))
    return number


def monitor_act(*, class_session: ClassSession, data: dict[str, Any]) -> int | None:
    """Carry out one teacher command. Returns the table it touched (if any).
    The table must belong to this session: a table id from elsewhere is refused
    exactly like a missing one."""
    kind = data.get("kind")
    if kind == "end_session":
        session_close(class_session=class_session)
        return None
    if kind not in (
        "pause", "resume", "end_table", "seat_to_bot", "seat_to_pupil", "rematch", "release"
    ):
        raise MonitorRefused(_("Cette demande n'existe pas."))
    table = Table.objects.filter(
        pk=_int(data.get("table")), group_key=class_session.group_key
    ).first()
    if table is None:
        raise MonitorRefused(_("Cette table n'existe pas."))
    if kind == "pause":
        cardgames_services.table_pause(table=table)
    elif kind == "resume":
        cardgames_services.table_resume(table=table)
    elif kind == "end_table":
        cardgames_services.table_end(table=table)
    elif kind == "rematch":
        # "Rejouer": same seats, a new game; every screen of the old table follows.
        try:
            return table_rematch(table=table).pk
        except ValidationError as exc:
            raise MonitorRefused(exc.messages[0]) from exc
    elif kind == "release":
        group = SessionGroup.objects.filter(table=table, class_session=class_session).first()
        if group is None:
            raise MonitorRefused(_("Cette table n'existe pas."))
        try:
            group_release(group=group)
        except ValidationError as exc:
            raise MonitorRefused(exc.messages[0]) from exc
    else:
        index = _int(data.get("seat"))
        if not table.seats.filter(index=index).exists():
            raise MonitorRefused(_("Cette place n'existe pas."))
        if kind == "seat_to_bot":
            level = data.get("level") if data.get("level") in BOT_LEVELS else "medium"
            cardgames_services.seat_assign(
                table=table,
                index=index,
                spec=cardgames_services.bot_seat(level=str(level), number=index + 1),
            )
        else:
            pupil = next(
                (p for p in free_pupils(class_session) if p.pk == _int(data.get("pupil"))), None
            )
            if pupil is None:
                raise MonitorRefused(_("Choisis un élève connecté qui n'a pas encore de place."))
            with transaction.atomic():
                cardgames_services.seat_assign(
                    table=table,
                    index=index,
                    spec=pupil_seat(pupil),
                )
                # Their tablet (in the lobby, or left on "Cette place a été
                # donnée à quelqu'un d'autre.") comes to the seat by itself.
                tablets_follow(class_session=class_session, pupils=[pupil], table_id=table.pk)
    return table.pk


@receiver(table_finished, dispatch_uid="classroom_table_finished_pages")
def table_finished_tell(sender: Any, **kwargs: Any) -> None:
    """A session's table finished (its game over, or ended): the session
    page's board and the monitor redraw, so they say "Partie terminée" and
    offer what comes next. Without it the session page kept "▶ lancée" and
    "✅ Toutes les tables jouent" until reloaded. Connected when the app
    loads (``classroom.learning`` imports this module in ``ready``)."""
    table = kwargs.get("table")
    session_id = session_id_from_key(getattr(table, "group_key", None))
    if session_id is not None:
        notify_on_commit(projector_group(session_id), {"type": "pupils.changed"})
