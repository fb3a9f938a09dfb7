"""A table's live updates speak the language of the socket's own page: its
session's chosen language first, then its cookie, then ``Accept-Language``.

Two tablets at one table, one German and one English: after a move each gets
its own language, never the other's, never French."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from cardgames.i18n import SESSION_LANGUAGE_KEY
from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    seat_resolver,
    started_table,
)
from tests.cardgames.wsclient import table_state

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

GERMAN_TURN = "ist dran."
ENGLISH_TURN = "turn."
FRENCH_TURN = "C'est au tour de"


def _session(player_key: str, language: str | None) -> str:
    store = SessionStore()
    store["player_key"] = player_key
    if language:
        store[SESSION_LANGUAGE_KEY] = language
    store.save()
    assert store.session_key is not None
    return store.session_key


def _socket(
    table_id: int, session_key: str, extra: list[tuple[bytes, bytes]]
) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    cookie = f"sessionid={session_key}"
    for name, value in extra:
        if name == b"cookie":
            cookie += "; " + value.decode()
        else:
            headers.append((name, value))
    headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)


@pytest.mark.parametrize(
    ("language", "extra", "expected"),
    [
        ("de", [(b"accept-language", b"fr-FR,fr")], GERMAN_TURN),  # the session wins
        (None, [(b"accept-language", b"de-DE,de;q=0.9")], GERMAN_TURN),
        (None, [(b"accept-language", b"en-GB,en;q=0.9")], ENGLISH_TURN),
        (None, [(b"cookie", b"django_language=en"), (b"accept-language", b"de")], ENGLISH_TURN),
        (None, [], FRENCH_TURN),  # nothing said: the default, French
    ],
)
async def test_first_screen_speaks_the_sockets_language(language, extra, expected) -> None:
    table = await database_sync_to_async(started_table)(pupils=2, bots=0, bots_first=False)
    _engine, _state, _version, _ = await table_state(table.pk)
    # Seat 2 ("pupil:2") is waiting: its screen says whose turn it is.
    key = await database_sync_to_async(_session)("pupil:2", language)
    socket = _socket(table.pk, key, extra)
    connected, _ = await socket.connect()
    assert connected
    html = await socket.receive_from(timeout=5)
    assert expected in html
    await socket.disconnect()


async def test_after_a_move_each_tablet_gets_its_own_language() -> None:
    """The German tablet plays; the English one hears about it in English,
    the German one in German: one change, two languages."""
    import random

    from tests.cardgames.test_consumer import _answer
    from tests.cardgames.wsclient import play_form

    table = await database_sync_to_async(started_table)(pupils=3, bots=0)
    sockets = {}
    for seat, lang in ((1, "de"), (2, "en"), (3, "de")):
        key = await database_sync_to_async(_session)(f"pupil:{seat}", lang)
        sockets[seat] = _socket(table.pk, key, [(b"accept-language", b"fr")])
        assert (await sockets[seat].connect())[0]
        await sockets[seat].receive_from(timeout=5)
    engine, state, version, _ = await table_state(table.pk)
    current = engine.view(state, None)["current_seat"]
    action = _answer(engine, state, current, random.Random(1))
    mover = sockets[current + 1]
    await mover.send_json_to(
        {"kind": "choose", "card": str(action["card"]), "version": str(version)}
    )
    await mover.receive_from(timeout=5)
    await mover.send_json_to(play_form(action, version))
    seen: dict[int, str] = {}
    for seat, socket in sockets.items():
        text = ""
        while 'data-version="' + str(version + 1) + '"' not in text:
            text = await socket.receive_from(timeout=5)
        seen[seat] = text
    # One German tablet has the turn, the other watches; the English one too.
    assert "ist dran" in seen[1] + seen[3]
    assert "turn" in seen[2].lower() and "ist dran" not in seen[2]
    assert "ist dran" not in seen[2] and "turn." not in seen[1] + seen[3]
    for text in seen.values():
        assert "C'est au tour" not in text and "Ce qui vient de se passer" not in text
    for socket in sockets.values():
        await socket.disconnect()
