"""Children's privacy: what a pupil is, and that deleting really deletes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from cardgames.models import GameEvent, GameState, Move, Seat, Table
from classroom import services
from classroom.models import ClassSession, Pupil, TabletLogin
from tests.factories import (
    AttendanceFactory,
    ClassSessionFactory,
    GameEventFactory,
    GameStateFactory,
    MoveFactory,
    SeatFactory,
    TabletLoginFactory,
    session_table,
)

pytestmark = pytest.mark.django_db


def test_a_pupil_stores_only_a_first_name_an_avatar_and_a_picture_code() -> None:
    personal = {
        f.name
        for f in Pupil._meta.get_fields()
        if f.concrete and not f.is_relation and f.name not in {"id", "created_at"}
    }
    # The other fields are the card's brute-force lock, not about the child.
    lock = {"failed_attempts", "locked_until", "lock_level", "needs_teacher", "last_failed_at"}
    assert personal == {"display_name", "avatar", "picture_code"} | lock
    for forbidden in ("surname", "last_name", "email", "birth", "birth_date", "address", "phone"):
        assert not any(forbidden in name for name in personal)


def _session_with_game() -> tuple[ClassSession, Table]:
    class_session = ClassSessionFactory()
    attendance = AttendanceFactory(class_session=class_session)
    TabletLoginFactory(class_session=class_session, pupil=attendance.pupil)
    table = session_table(class_session)
    SeatFactory(table=table, index=0, player_key=attendance.pupil.player_key, display_name="Léo")
    GameStateFactory(table=table)
    GameEventFactory(table=table)
    MoveFactory(table=table)
    return class_session, table


def _game_rows(table_id: int) -> list[int]:
    return [
        Table.objects.filter(pk=table_id).count(),
        Seat.objects.filter(table_id=table_id).count(),
        GameState.objects.filter(table_id=table_id).count(),
        GameEvent.objects.filter(table_id=table_id).count(),
        Move.objects.filter(table_id=table_id).count(),
    ]


def test_deleting_a_class_deletes_pupils_sessions_tablets_and_games() -> None:
    class_session, table = _session_with_game()
    _other_session, other_table = _session_with_game()
    services.class_delete(school_class=class_session.school_class)
    assert not ClassSession.objects.filter(pk=class_session.pk).exists()
    assert not TabletLogin.objects.filter(class_session_id=class_session.pk).exists()
    assert _game_rows(table.pk) == [0, 0, 0, 0, 0]
    assert _game_rows(other_table.pk) == [1, 1, 1, 1, 1]


def test_deleting_a_pupil_removes_their_name_from_past_games() -> None:
    class_session, table = _session_with_game()
    pupil = Pupil.objects.get(school_class=class_session.school_class)
    services.pupil_delete(pupil=pupil)
    seat = Seat.objects.get(table=table)
    assert seat.player_key == "" and seat.display_name != "Léo"
    assert not TabletLogin.objects.filter(pupil_id=pupil.pk).exists()


def test_purge_removes_only_finished_sessions_older_than_days(
    capsys: pytest.CaptureFixture[str],
) -> None:
    old, old_table = _session_with_game()
    recent, recent_table = _session_with_game()
    _still_open, open_table = _session_with_game()
    ClassSession.objects.filter(pk=old.pk).update(
        ended_at=timezone.now() - timedelta(days=400), join_code=None
    )
    ClassSession.objects.filter(pk=recent.pk).update(
        ended_at=timezone.now() - timedelta(days=3), join_code=None
    )

    call_command("purge", "--older-than", "365", "--dry-run")
    out = capsys.readouterr().out
    assert "Would delete 1 classroom.ClassSession" in out
    assert "Would delete 1 cardgames.Table" in out
    assert _game_rows(old_table.pk) == [1, 1, 1, 1, 1]  # the dry run deleted nothing

    call_command("purge", "--older-than", "365")
    assert "Deleted 1 cardgames.Move" in capsys.readouterr().out
    assert not ClassSession.objects.filter(pk=old.pk).exists()
    assert _game_rows(old_table.pk) == [0, 0, 0, 0, 0]
    assert _game_rows(recent_table.pk) == [1, 1, 1, 1, 1]
    assert _game_rows(open_table.pk) == [1, 1, 1, 1, 1]
    # The class and its pupils stay: only old learning data goes.
    assert Pupil.objects.filter(school_class=old.school_class).exists()
