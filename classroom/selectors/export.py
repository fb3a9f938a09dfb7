"""Everything stored about one child, as one JSON document a teacher can hand
to a parent who asks (the GDPR right of access).

Built from the models' concrete fields, so a field added later is exported
without touching this file. Left out are only the secrets, which are not
*about* the child but keys to reach them: the picture code (the child's
login), the hash of a parent link, the session keys of tablets and the nonce
of a move. ``SECTIONS`` names the section of every model that points at a
pupil: a test walks every model of the project and fails when one that names
a pupil has no section here, so a new model cannot be forgotten."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any

from django.db.models import F, Model
from django.utils import timezone

from cardgames.models import GameEvent, Move, Seat
from classroom.models import (
    AssignedPractice,
    Attendance,
    LearningRecord,
    ParentLink,
    Pupil,
    PupilSessionSummary,
    ScoreSumRecord,
    SocialRecord,
    TabletLogin,
)

# Keys, never about the child: the login (picture code), link and device
# credentials, and a move's anti-replay nonce.
LEFT_OUT = {"picture_code", "token_hash", "session_key", "nonce"}

# Models with a ForeignKey to ``Pupil``: found by the test on their own.
# The indirect ones name a pupil without a ForeignKey (``cardgames`` never
# sees a pupil): a seat by its ``player_key`` (``"pupil:<id>"``), a move and a
# game event by the index of such a seat at their table. A new model that
# names a pupil that way must be added to ``INDIRECT_MODELS`` (and exported).
INDIRECT_MODELS: dict[type[Model], str] = {
    Seat: "player_key is the pupil's key (classroom.keys.pupil_key)",
    Move: "seat is the index of the pupil's seat at the move's table",
    GameEvent: "seat is the index of the pupil's seat at the event's table",
}

# Model → the section of the document that holds its rows.
SECTIONS: dict[type[Model], str] = {
    Pupil: "pupil",
    Attendance: "attendances",
    TabletLogin: "tablet_logins",
    LearningRecord: "learning_records",
    PupilSessionSummary: "session_summaries",
    SocialRecord: "social_records",
    ScoreSumRecord: "score_sums",
    AssignedPractice: "assigned_practices",
    ParentLink: "parent_links",
    Seat: "game_seats",
    Move: "game_moves",
    GameEvent: "game_events",
}


def _value(value: Any) -> Any:
    if isinstance(value, datetime):
        return (
            timezone.localtime(value).isoformat() if timezone.is_aware(value) else value.isoformat()
        )
    if isinstance(value, (date, time)):
        return value.isoformat()
    return value


def _row(obj: Model) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for field in obj._meta.concrete_fields:
        if field.name in LEFT_OUT:
            continue
        key = field.attname if field.is_relation else field.name
        row[key] = _value(getattr(obj, field.attname))
    return row


def _rows(model: type[Model], **lookups: Any) -> list[dict[str, Any]]:
    """Every row of ``model`` matching ``lookups``, oldest first: one query."""
    return [_row(obj) for obj in model._default_manager.filter(**lookups).order_by("pk")]


def pupil_export(*, pupil: Pupil) -> dict[str, Any]:
    """One document: the pupil, their class's name, and every row that points
    at them (see ``SECTIONS``). One query per section, whatever the amount of
    data: the moves and events of the child's seats are found by a join on
    the seat's table and index, not a query per table."""
    key = pupil.player_key
    # A move or an event at a table where this pupil sat, made from their seat
    # (one filter() call: the seat lookups name the same seat row).
    at_own_seat = {"table__seats__player_key": key, "table__seats__index": F("seat")}
    document: dict[str, Any] = {
        "format": "chasse-aux-souris/pupil-export/2",
        "exported_at": _value(timezone.now()),
        "pupil": {**_row(pupil), "class_name": pupil.school_class.name},
    }
    for model, section in SECTIONS.items():
        if model is Pupil:
            continue
        if model is Seat:
            document[section] = _rows(Seat, player_key=key)
        elif model in (Move, GameEvent):
            document[section] = _rows(model, **at_own_seat)
        else:
            document[section] = _rows(model, pupil=pupil)
    return document
