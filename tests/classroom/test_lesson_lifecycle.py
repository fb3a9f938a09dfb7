"""Issue 44, items 6 and 13: a lesson ends for real.

Item 6 (the attack): the teacher opens a new lesson for the class while a
tablet still has the old lesson's table open. The old session was only marked
ended: its tables stayed ``playing`` and the tablet's next move was accepted
(a ``Move`` written on a table the new monitor does not show). A new lesson
now ends the old one as "Terminer la séance" does.

Item 13: a forgotten lesson kept a live join code for days. A lesson idle for
``LESSON_IDLE_HOURS`` lets nobody in (``selectors.open_sessions``) and
``purge`` ends it, tables, tablets and sockets included.
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from cardgames import engines, revocation
from cardgames import services as cardgames_services
from cardgames.models import GameState, Move, Table
from classroom import services
from classroom.models import ClassSession, TabletLogin
from classroom.selectors.sessions import open_session_of_class, open_sessions
from tests.cardgames.factories import fresh_channel_layer  # noqa: F401
from tests.cardgames.wsclient import Tablet, play_form, table_state
from tests.classroom.test_consumers import _join, _setup
from tests.classroom.test_sessions import DEFAULT_FORM

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_channel_layer"),
]


def _lesson() -> tuple[ClassSession, Client, list[Client], Table]:
    """A lesson with two pupils joined through the real flow, at one table."""
    class_session, teacher, pupils = _setup()
    tablets = [_join(p) for p in pupils]
    services.groups_make(class_session=class_session, size=2)
    report = services.tables_start(class_session=class_session)
    return class_session, teacher, tablets, report.started[0]


def _mover(table_id: int, tablets: list[Client]) -> tuple[str, dict[str, Any], int]:
    """The session key of the tablet whose turn it is, a legal move for it,
    and the table's version: a move the server would accept."""
    table = Table.objects.get(pk=table_id)
    engine = engines.get(table.game)
    game_state = GameState.objects.get(table=table)
    state, version = engine.from_json(game_state.state), game_state.version
    for tablet in tablets:
        key = tablet.cookies["sessionid"].value
        pupil_key = tablet.session.get("player_key")
        seat = table.seats.filter(player_key=pupil_key).values_list("index", flat=True).first()
        actions = engine.legal_actions(state, seat) if seat is not None else []
        if actions:
            action = dict(actions[0])
            if action.get("announce") == "int":
                action["announce"] = 12
            return key, action, version
    raise AssertionError("nobody may move")


def _new_lesson(teacher: Client, class_session: ClassSession) -> ClassSession:
    """The teacher opens a new lesson through the real page."""
    response = teacher.post(
        f"/teacher/classes/{class_session.school_class_id}/sessions/new/", DEFAULT_FORM
    )
    assert response.status_code == 302, response.content[:500]
    return ClassSession.objects.exclude(pk=class_session.pk).get()


async def _closed(tablet: Tablet) -> tuple[str, int | None]:
    assert tablet.comm is not None
    text = ""
    for _ in range(20):
        out = await tablet.comm.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            return text, out.get("code")
        text = out.get("text", text)
    raise AssertionError("the socket stayed open")


async def test_a_new_lesson_ends_the_old_ones_tables_and_closes_its_tablets() -> None:
    old, teacher, tablets, table = await database_sync_to_async(_lesson)()
    key, _action, _version = await database_sync_to_async(_mover)(table.pk, tablets)
    tablet = Tablet(table.pk, key)
    assert await tablet.connect()
    new = await database_sync_to_async(_new_lesson)(teacher, old)
    text, _code = await _closed(tablet)
    assert "La séance est terminée" in text or "déconnectée" in text
    await database_sync_to_async(table.refresh_from_db)()
    await database_sync_to_async(old.refresh_from_db)()
    assert table.status == Table.Status.FINISHED
    assert old.ended_at is not None and old.join_code is None
    assert not await database_sync_to_async(TabletLogin.objects.filter(class_session=old).exists)()
    assert new.is_open and new.join_code


async def test_a_move_after_a_new_lesson_is_refused_even_if_the_close_was_missed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tablet never hears the goodbye (its worker missed it): its next
    move, one the old table would have taken, is refused in words and no
    ``Move`` is written."""
    old, teacher, tablets, table = await database_sync_to_async(_lesson)()
    key, action, version = await database_sync_to_async(_mover)(table.pk, tablets)
    tablet = Tablet(table.pk, key)
    assert await tablet.connect()
    monkeypatch.setattr(revocation, "_close_group", lambda group, reason: None)
    monkeypatch.setattr(cardgames_services, "tables_close_sockets", lambda **kwargs: None)
    moves = await database_sync_to_async(Move.objects.count)()
    await database_sync_to_async(_new_lesson)(teacher, old)
    await tablet.send(play_form(action, version))
    text, code = await _closed(tablet)
    assert code == 4002 and "déconnectée" in text
    assert await database_sync_to_async(Move.objects.count)() == moves
    assert (await table_state(table.pk))[2] == version


async def test_a_move_on_an_old_lessons_table_is_refused_in_words_for_a_still_seated_tablet() -> None:
    """Even a socket whose access still holds (the table's own check) cannot
    play on an ended lesson's table: the refusal says the game is over."""
    old, teacher, tablets, table = await database_sync_to_async(_lesson)()
    _key, action, version = await database_sync_to_async(_mover)(table.pk, tablets)
    await database_sync_to_async(_new_lesson)(teacher, old)
    status = (await table_state(table.pk))[3]
    assert status == Table.Status.FINISHED
    moves = await database_sync_to_async(Move.objects.count)()

    def play_directly() -> str:
        try:
            cardgames_services.action_submit(
                table=table, seat=0, action=action, version=version, nonce="n1",
                player_key=None,
            )
        except cardgames_services.ActionRefused as refused:
            return cardgames_services.refusal_message(code=refused.code, game=table.game)
        return ""

    assert await database_sync_to_async(play_directly)()
    assert await database_sync_to_async(Move.objects.count)() == moves


# ------------------------------------------------------------------ idle lessons
def _age(class_session: ClassSession, hours: float) -> None:
    """Make everything of the lesson ``hours`` old (its start, joins, logins, tables)."""
    then = timezone.now() - timedelta(hours=hours)
    ClassSession.objects.filter(pk=class_session.pk).update(started_at=then)
    class_session.attendances.update(joined_at=then)
    TabletLogin.objects.filter(class_session=class_session).update(last_seen_at=then)
    GameState.objects.filter(table__group_key=class_session.group_key).update(updated_at=then)


def test_an_idle_lesson_lets_nobody_in_but_a_busy_one_does(settings: Any) -> None:
    settings.LESSON_IDLE_HOURS = 4
    idle, _teacher, _tablets, _table = _lesson()
    _age(idle, 5)
    assert not open_sessions().filter(join_code=idle.join_code).exists()
    assert open_session_of_class(school_class=idle.school_class) is None
    # A move an hour ago keeps a lesson started five hours ago open.
    GameState.objects.filter(table__group_key=idle.group_key).update(
        updated_at=timezone.now() - timedelta(hours=1)
    )
    assert open_sessions().filter(join_code=idle.join_code).exists()
    assert open_session_of_class(school_class=idle.school_class) == idle


def test_the_class_link_does_not_lead_into_an_idle_lesson(settings: Any) -> None:
    """The printed QR (``/c/<token>``) leads to the keypad while the lesson is
    busy, and says "no lesson" once it is idle."""
    settings.LESSON_IDLE_HOURS = 4
    class_session, _teacher, _pupils = _setup()
    token = class_session.school_class.link_token
    assert Client().get(f"/c/{token}")["Location"] == "/join"
    _age(class_session, 5)
    assert Client().get(f"/c/{token}").status_code == 404


async def test_purge_ends_an_idle_lesson_like_the_teacher_would(settings: Any) -> None:
    settings.LESSON_IDLE_HOURS = 4
    idle, _teacher, tablets, table = await database_sync_to_async(_lesson)()
    key, _action, _version = await database_sync_to_async(_mover)(table.pk, tablets)
    tablet = Tablet(table.pk, key)
    assert await tablet.connect()
    await database_sync_to_async(_age)(idle, 5)
    out = StringIO()
    await database_sync_to_async(call_command)("purge", "--older-than", "30", stdout=out)
    assert "Purged 1 idle lessons (ended)" in out.getvalue()
    _text, _code = await _closed(tablet)
    await database_sync_to_async(idle.refresh_from_db)()
    await database_sync_to_async(table.refresh_from_db)()
    assert idle.ended_at is not None and idle.join_code is None
    assert table.status == Table.Status.FINISHED
    assert not await database_sync_to_async(TabletLogin.objects.filter(class_session=idle).exists)()


def test_purge_leaves_a_busy_lesson_open(settings: Any) -> None:
    settings.LESSON_IDLE_HOURS = 4
    busy, _teacher, _tablets, table = _lesson()
    ClassSession.objects.filter(pk=busy.pk).update(started_at=timezone.now() - timedelta(hours=6))
    call_command("purge", "--older-than", "30", stdout=StringIO())
    busy.refresh_from_db()
    table.refresh_from_db()
    assert busy.is_open and table.status == Table.Status.PLAYING


def test_a_dry_run_counts_idle_lessons_and_ends_none(settings: Any) -> None:
    settings.LESSON_IDLE_HOURS = 4
    idle, _teacher, _tablets, _table = _lesson()
    _age(idle, 5)
    out = StringIO()
    call_command("purge", "--older-than", "30", "--dry-run", stdout=out)
    assert "Would purge 1 idle lessons (ended)" in out.getvalue()
    idle.refresh_from_db()
    assert idle.is_open


def test_a_typed_code_of_an_idle_lesson_gets_nobody_in(settings: Any) -> None:
    """The join code of a lesson forgotten for hours kept working until
    ``purge`` ran; typed on the keypad it is now the same "ce code ne marche
    pas" as any wrong code, and a tablet half way through joining is sent back."""
    from django.test import Client

    settings.LESSON_IDLE_HOURS = 4
    idle, _teacher, _tablets, _table = _lesson()
    halfway = Client()
    assert halfway.post("/join", {"code": idle.join_code})["Location"] == "/join/names/"
    _age(idle, 5)
    response = Client().post("/join", {"code": idle.join_code})
    assert response.status_code == 200 and "ne marche pas" in response.content.decode()
    assert halfway.get("/join/names/").status_code in (302, 404)
