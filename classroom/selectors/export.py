"""Everything stored about one child, as one JSON document a teacher can hand
to a parent who asks (the GDPR right of access). Built from the models'
concrete fields, so a field added later is exported without touching this
file; only secrets that are not *about* the child are left out (the hash of a
parent link, the session keys of tablets)."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any

from django.db.models import Model
from django.utils import timezone

from cardgames.models import Seat
from classroom.models import (
    Attendance,
    LearningRecord,
    ParentLink,
    Pupil,
    PupilSessionSummary,
    TabletLogin,
)

# Not about the child: credentials of devices and links.
LEFT_OUT = {"token_hash", "session_key"}


def _value(value: Any) -> Any:
    if isinstance(value, datetime):
        return timezone.localtime(value).isoformat() if timezone.is_aware(value) else value.isoformat()
    if isinstance(value, (date, time)):
        return value.isoformat()
    return value


def _row(obj: Model, *, skip: set[str] | None = None) -> dict[str, Any]:
    skip = (skip or set()) | LEFT_OUT
    row: dict[str, Any] = {}
    for field in obj._meta.concrete_fields:
        if field.name in skip:
            continue
        key = field.attname if field.is_relation else field.name
        row[key] = _value(getattr(obj, field.attname))
    return row


def pupil_export(*, pupil: Pupil) -> dict[str, Any]:
    """One document: the pupil, their class's name, and every row that points
    at them (attendances, tablet logins, learning records, per-session
    summaries, parent links, game seats). A fixed number of queries."""
    return {
        "format": "chasse-aux-souris/pupil-export/1",
        "exported_at": _value(timezone.now()),
        "pupil": {**_row(pupil), "class_name": pupil.school_class.name},
        "attendances": [_row(a) for a in Attendance.objects.filter(pupil=pupil).order_by("pk")],
        "tablet_logins": [_row(t) for t in TabletLogin.objects.filter(pupil=pupil).order_by("pk")],
        "learning_records": [
            _row(r) for r in LearningRecord.objects.filter(pupil=pupil).order_by("created_at", "pk")
        ],
        "session_summaries": [
            _row(s) for s in PupilSessionSummary.objects.filter(pupil=pupil).order_by("pk")
        ],
        "parent_links": [_row(p) for p in ParentLink.objects.filter(pupil=pupil).order_by("pk")],
        "game_seats": [
            _row(s) for s in Seat.objects.filter(player_key=pupil.player_key).order_by("pk")
        ],
    }
