"""Issue 48, the lesson's states: a finished table is said everywhere (session
page, monitor), and what comes next ("Rejouer", "Regrouper ces élèves", end
the lesson) works without any pupil typing a code again."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from cardgames import engines
from cardgames import services as cg
from cardgames.models import GameState, Table
from classroom import services
from classroom.models import Attendance, SessionGroup
from classroom.services.tables import group_release
from tests.cardgames.factories import fresh_channel_layer  # noqa: F401
from tests.cardgames.wsclient import Tablet
from tests.factories import ClassSessionFactory, PupilFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_channel_layer"),
]

CODE = "246810"


def _join(pupil: Any) -> Client:
    """A tablet going through the real join flow."""
    tablet = Client()
    tablet.post("/join", {"code": CODE})
    response = tablet.post(f"/join/pupil/{pupil.pk}/", {"pick": ["1", "2"]})
    assert response["Location"] == "/lobby/"
    return tablet


def _lesson(names: tuple[str, ...] = ("Léo", "Inès")) -> dict[str, Any]:
    """A short Chasse lesson: the pupils joined, one table of them started."""
    class_session = ClassSessionFactory(join_code=CODE, options={"tokens": 1, "target": 30})
    teacher = Client()
    teacher.force_login(class_session.school_class.teacher)
    pupils = [
        PupilFactory(school_class=class_session.school_class, display_name=n, picture_code=[1, 2])
        for n in names
    ]
    tablets = [_join(p) for p in pupils]
    services.groups_make(class_session=class_session, size=len(pupils))
    services.tables_start(class_session=class_session)
    table = Table.objects.get(group_key=class_session.group_key)
    return {
        "session": class_session,
        "teacher": teacher,
        "pupils": pupils,
        "tablets": tablets,
        "table": table,
    }


def _play_to_the_end(table: Table, seed: int = 3) -> None:
    """Everybody plays on, as robots would, until the game is over (the
    control, not what is tested)."""
    engine = engines.get(table.game)
    rng = random.Random(seed)
    for n in range(4000):
        game_state = GameState.objects.get(table=table)
        state = engine.from_json(game_state.state)
        if engine.is_over(state):
            table.refresh_from_db()
            return
        seat = rng.randrange(state.players)
        legal = engine.legal_actions(state, seat)
        action = engine.bot("medium")(engine.view(state, seat), legal, rng, engine.history(state, seat))
        if action is not None:
            with contextlib.suppress(cg.ActionRefused):
                cg.action_submit(
                    table=table, seat=seat, action=action, version=game_state.version, nonce=f"e{n}"
                )
    raise AssertionError("the game did not finish")


def _page(client: Client, url: str) -> str:
    return client.get(url).content.decode()


def _socket(path: str, client: Client) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def _until(comm: WebsocketCommunicator, needle: str, timeout: float = 5) -> str:
    for _ in range(50):
        html = await comm.receive_from(timeout=timeout)
        if needle in html:
            return html
    raise AssertionError(f"{needle!r} never came")


def test_the_session_page_says_a_table_has_finished_and_who_won() -> None:
    """Bug: after "Partie terminée" the session page still read "▶ lancée"
    and "✅ Toutes les tables jouent", and offered nothing to do next."""
    lesson = _lesson()
    _play_to_the_end(lesson["table"])
    board = _page(lesson["teacher"], f"/teacher/sessions/{lesson['session'].pk}/board/")
    assert "Partie terminée" in board and "lancée" not in board
    assert "Toutes les tables jouent" not in board
    assert "A gagné" in board or "Ont gagné" in board
    assert 'value="rematch"' in board and 'value="release"' in board


async def test_the_session_page_hears_at_once_that_a_table_finished() -> None:
    """Bug: nothing told the open session page that a table ended: it kept
    "▶ lancée" until the teacher reloaded it."""
    lesson = await database_sync_to_async(_lesson)()
    page = _socket(f"/ws/projector/{lesson['session'].pk}/?view=teacher", lesson["teacher"])
    assert (await page.connect())[0]
    await page.receive_from(timeout=5)
    await database_sync_to_async(cg.table_end)(table=lesson["table"])
    poke = await _until(page, 'id="board-poke"')
    assert f"/teacher/sessions/{lesson['session'].pk}/board/" in poke
    await page.disconnect()


async def test_rejouer_from_the_session_page_takes_the_tablets_along() -> None:
    """Bug: the session page offered no "Rejouer" for a finished table: the
    only way on was a new session, every pupil typing a code again."""
    lesson = await database_sync_to_async(_lesson)()
    old = lesson["table"]
    await database_sync_to_async(_play_to_the_end)(old)
    tablet = Tablet(old.pk, lesson["tablets"][0].cookies["sessionid"].value)
    assert await tablet.connect()
    group = await database_sync_to_async(lambda: SessionGroup.objects.get(table=old))()
    response = await database_sync_to_async(lesson["teacher"].post)(
        f"/teacher/sessions/{lesson['session'].pk}/board/",
        {"group": group.pk, "next": "rematch"},
        HTTP_HX_REQUEST="true",
    )
    board = response.content.decode()
    assert "lancée" in board and "Partie terminée" not in board
    moved = await tablet.receive()
    new = await database_sync_to_async(lambda: SessionGroup.objects.get(pk=group.pk).table)()
    assert new.pk != old.pk and f'data-moved="/table/{new.pk}/"' in moved
    await tablet.comm.disconnect()


async def test_regrouping_a_finished_table_sends_its_tablets_to_their_new_tables() -> None:
    """Bug: a finished table's pupils could not be regrouped ("groups_make"
    keeps started groups, "Cet élève joue déjà"), and their tablets sat on
    "Rejouer ? Ton enseignant peut lancer une nouvelle partie." for good."""
    lesson = await database_sync_to_async(lambda: _lesson(("Léo", "Inès", "Noé", "Lou")))()
    old = lesson["table"]
    await database_sync_to_async(_play_to_the_end)(old)
    tablet = Tablet(old.pk, lesson["tablets"][0].cookies["sessionid"].value)
    assert await tablet.connect()
    group = await database_sync_to_async(lambda: SessionGroup.objects.get(table=old))()
    await database_sync_to_async(lesson["teacher"].post)(
        f"/teacher/sessions/{lesson['session'].pk}/board/",
        {"group": group.pk, "next": "release"},
        HTTP_HX_REQUEST="true",
    )

    def regroup() -> tuple[int, str]:
        waiting = Attendance.objects.filter(class_session=lesson["session"], group=None).count()
        # The teacher's own taps: "Faire des groupes de 2", then "Lancer".
        lesson["teacher"].post(f"/teacher/sessions/{lesson['session'].pk}/groups/", {"size": "2"})
        lesson["teacher"].post(f"/teacher/sessions/{lesson['session'].pk}/start/")
        board = _page(lesson["teacher"], f"/teacher/sessions/{lesson['session'].pk}/board/")
        return waiting, board

    waiting, board = await database_sync_to_async(regroup)()
    assert waiting == 4
    moved = await tablet.receive()
    leo = lesson["pupils"][0]
    new = await database_sync_to_async(
        lambda: Table.objects.filter(seats__player_key=leo.player_key).order_by("-id").first()
    )()
    assert new.pk != old.pk and new.status == Table.Status.PLAYING
    assert f'data-moved="/table/{new.pk}/"' in moved
    # Its old table is history on the board; it does not offer "Rejouer" any more.
    assert "Ses élèves sont repartis dans les autres tables." in board
    assert board.count('value="rematch"') == 0
    await tablet.comm.disconnect()


def test_a_regrouped_pupil_waits_in_the_lobby_not_on_the_old_end_screen() -> None:
    """The lobby sent a regrouped pupil back to their finished table."""
    lesson = _lesson(("Léo", "Inès", "Noé", "Lou"))
    _play_to_the_end(lesson["table"])
    group_release(group=SessionGroup.objects.get(table=lesson["table"]))
    services.groups_make(class_session=lesson["session"], size=2)
    response = lesson["tablets"][0].get("/lobby/")
    assert response.status_code == 200 and "Tu seras à la table" in response.content.decode()


async def test_the_monitor_offers_rejouer_and_follows_the_new_game() -> None:
    """Bug: the monitor had no "Rejouer" for a finished table; after one from
    the table page it showed the finished and the new "Table 1" side by side."""
    lesson = await database_sync_to_async(_lesson)()
    old = lesson["table"]
    await database_sync_to_async(_play_to_the_end)(old)
    monitor = _socket(f"/ws/teacher/sessions/{lesson['session'].pk}/monitor/", lesson["teacher"])
    assert (await monitor.connect())[0]
    board = await monitor.receive_from(timeout=5)
    assert "Partie terminée" in board and 'value="rematch"' in board
    assert "A gagné" in board or "Ont gagné" in board
    await monitor.send_json_to({"kind": "rematch", "table": str(old.pk)})
    redrawn = await _until(monitor, 'id="monitor-board"')
    new = await database_sync_to_async(
        lambda: SessionGroup.objects.get(class_session=lesson["session"]).table
    )()
    assert f'id="monitor-table-{new.pk}"' in redrawn
    assert f'id="monitor-table-{old.pk}"' not in redrawn
    await monitor.disconnect()


async def test_the_monitor_after_the_end_offers_no_end_and_waits_for_nobody() -> None:
    """Bug: after "Terminer la séance" the monitor still offered "⏹ Terminer
    la séance" and showed ⏳ beside a seat nobody was waiting for."""
    lesson = await database_sync_to_async(_lesson)()
    monitor = _socket(f"/ws/teacher/sessions/{lesson['session'].pk}/monitor/", lesson["teacher"])
    assert (await monitor.connect())[0]
    assert "⏳" in await monitor.receive_from(timeout=5)
    await monitor.send_json_to({"kind": "end_session"})
    ended = await _until(monitor, "Cette séance est terminée")
    assert 'id="monitor-session-actions"' in ended
    assert 'value="end_session"' not in ended and "Séance terminée" in ended
    assert "⏳" not in ended and 'value="rematch"' not in ended
    await monitor.disconnect()
    page = await database_sync_to_async(_page)(
        lesson["teacher"], f"/teacher/sessions/{lesson['session'].pk}/monitor/"
    )
    assert 'value="end_session"' not in page and "⏳" not in page


def test_rejouer_on_the_table_page_after_a_regroup_says_why_instead_of_an_error() -> None:
    """"Rejouer" pressed on the teacher's table page after its pupils were
    regrouped raised a ValidationError: an error page. The teacher is now sent
    to the session page, which says why."""
    lesson = _lesson(("Léo", "Inès", "Noé", "Lou"))
    table = lesson["table"]
    _play_to_the_end(table)
    group_release(group=SessionGroup.objects.get(table=table))
    teacher = Client()
    teacher.force_login(lesson["session"].school_class.teacher)
    response = teacher.post(f"/tables/{table.pk}/rematch/", HTTP_HX_REQUEST="true")
    assert response.status_code in (200, 204)
    target = response["HX-Redirect"]
    assert target == f"/teacher/sessions/{lesson['session'].pk}/"
    assert "regroupés" in teacher.get(target).content.decode()
