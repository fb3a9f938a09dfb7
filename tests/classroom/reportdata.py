"""Hand-made and generated learning records for the report tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from classroom.models import ClassSession, LearningRecord, Pupil

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def record(pupil: Pupil, session: ClassSession, n: int, **kw: Any) -> LearningRecord:
    """A correct, non-crossing "+3" play at 20 → 23 unless told otherwise."""
    fields: dict[str, Any] = {
        "pupil": pupil,
        "class_session": session,
        "table_id": 1000 + session.pk,
        "move_version": n,
        "total_before": 20,
        "card_kind": "add",
        "card_a": 1,
        "card_b": 2,
        "card_value": 3,
        "total_after": 23,
        "announced": 23,
        "correct": True,
        "think_ms": 1000,
        "compute_ms": 2000,
        "created_at": T0 + timedelta(minutes=n),
    }
    fields.update(kw)
    return LearningRecord(**fields)


def ended_session(school_class: Any, day: int) -> ClassSession:
    s = ClassSession.objects.create(school_class=school_class, game="chasse")
    when = T0 + timedelta(days=day)
    ClassSession.objects.filter(pk=s.pk).update(started_at=when, ended_at=when + timedelta(hours=1))
    s.refresh_from_db()
    return s
