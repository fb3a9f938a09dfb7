"""Finding 4: a tablet the teacher signed out, or whose session ended, stops
playing at once: its table socket closes, and any message still arriving finds
its access gone (a per-socket generation check)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from cardgames import revocation
from cardgames.models import Move, Table
from classroom import services
from classroom.models import LearningRecord, TabletLogin
from tests.classroom.test_consumers import _communicator, _join, _setup

pytestmark = pytest.mark.django_db(transaction=True)


def _table_for_two() -> tuple[Any, Client, list[Client], Table]:
    class_session, teacher, pupils = _setup()
    tablets = [_join(p) for p in pupils]
    services.groups_make(class_session=class_session, size=2)
    report = services.tables_start(class_session=class_session)
    return class_session, teacher, tablets, report.started[0]


async def _closed(comm: Any) -> tuple[str, int | None]:
    """Everything until the socket closes: (last text, close code)."""
    text = ""
    for _ in range(10):
        out = await comm.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            return text, out.get("code")
        text = out.get("text", text)
    raise AssertionError("the socket stayed open")


async def test_04_signing_a_tablet_out_closes_its_table_socket_at_once() -> None:
    _session, teacher, tablets, table = await database_sync_to_async(_table_for_two)()
    leo = _communicator(f"/ws/table/{table.pk}/", tablets[0])
    assert (await leo.connect())[0]
    await leo.receive_from(timeout=5)
    login = await database_sync_to_async(TabletLogin.objects.order_by("pk").first)()
    await database_sync_to_async(teacher.post)(f"/teacher/tablets/{login.pk}/sign-out/")
    text, code = await _closed(leo)
    assert code == 4000 and "déconnectée" in text


async def test_04_a_message_after_the_sign_out_is_refused_even_if_the_close_was_missed() -> None:
    _session, _teacher, tablets, table = await database_sync_to_async(_table_for_two)()
    leo = _communicator(f"/ws/table/{table.pk}/", tablets[0])
    assert (await leo.connect())[0]
    await leo.receive_from(timeout=5)
    key = tablets[0].cookies["sessionid"].value
    moves = await database_sync_to_async(Move.objects.count)()
    records = await database_sync_to_async(LearningRecord.objects.count)()

    def sign_out_quietly() -> None:
        # The session is deleted and its generation bumped, but this socket
        # never hears the close (say it lives in another worker that missed it).
        from django.contrib.sessions.models import Session
        from django.core.cache import cache

        Session.objects.filter(session_key=key).delete()
        cache.incr(revocation._generation_key(key))

    await database_sync_to_async(sign_out_quietly)()
    await leo.send_to(text_data=json.dumps({"kind": "act", "move": "play", "card": "1",
                                             "announce": "10", "version": "1", "nonce": "x1"}))
    text, code = await _closed(leo)
    assert code == 4002 and "déconnectée" in text
    assert await database_sync_to_async(Move.objects.count)() == moves
    assert await database_sync_to_async(LearningRecord.objects.count)() == records


async def test_04_ending_the_session_from_its_page_ends_tables_and_closes_sockets() -> None:
    class_session, teacher, tablets, table = await database_sync_to_async(_table_for_two)()
    socks = [_communicator(f"/ws/table/{table.pk}/", t) for t in tablets]
    for sock in socks:
        assert (await sock.connect())[0]
        await sock.receive_from(timeout=5)
    await database_sync_to_async(teacher.post)(f"/teacher/sessions/{class_session.pk}/end/")
    for sock in socks:
        _text, code = await _closed(sock)
        assert code == 4000
    await database_sync_to_async(table.refresh_from_db)()
    assert table.status == Table.Status.FINISHED
    assert not await database_sync_to_async(TabletLogin.objects.exists)()


async def test_signing_a_tablet_out_closes_its_lobby_too_in_the_tablets_language() -> None:
    """The teacher (reading German) signs out a tablet still waiting in the
    lobby (reading French): the waiting screen says goodbye in French at once
    and its socket closes, instead of waiting on for a table."""
    class_session, _teacher, pupils = await database_sync_to_async(_setup)()
    tablet = await database_sync_to_async(_join)(pupils[0])
    lobby = _communicator_speaking("/ws/lobby/", tablet, "fr-FR,fr")
    assert (await lobby.connect())[0]
    assert "Attends ta table" in await lobby.receive_from(timeout=5)
    login = await database_sync_to_async(TabletLogin.objects.get)(class_session=class_session)

    def sign_out_in_german() -> None:
        from django.utils import translation

        with translation.override("de"):
            services.tablet_sign_out(login=login)

    await database_sync_to_async(sign_out_in_german)()
    text, code = await _closed(lobby)
    assert code == 4002
    assert 'id="lobby"' in text and "Cette tablette a été déconnectée" in text
    assert "abgemeldet" not in text and "/lobby/where/" not in text


def _communicator_speaking(path: str, client: Client, accept_language: str) -> Any:
    comm = _communicator(path, client)
    comm.scope["headers"] = [*comm.scope["headers"], (b"accept-language", accept_language.encode())]
    return comm
