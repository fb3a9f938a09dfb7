"""One reader for every websocket message (``cardgames/wire.py``).

The attack: ``"[" * 5000`` (or ``{"":`` nested 4000 deep) fits in the 16 KB
limit, and ``json.loads`` raised ``RecursionError`` on it, which no consumer
expected: each such message logged a whole traceback at ERROR, and the table
answered "Oups" as if it were a bug of ours."""

from __future__ import annotations

import json
import logging

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from cardgames.models import GameState
from cardgames.wire import WireRefused, message_parse, too_deep
from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    seat_resolver,
    session_cookie,
    started_table,
)
from tests.cardgames.wsclient import Tablet, notice_of, table_state
from tests.factories import ClassSessionFactory

DEEP_ARRAY = "[" * 5000
DEEP_OBJECT = '{"":' * 4000
CLOSED_OBJECT = '{"":' * 3000 + "1" + "}" * 3000


def test_the_deep_messages_really_broke_json_loads() -> None:
    """What the reader guards against: without it, json.loads itself fails."""
    for text in (DEEP_ARRAY, DEEP_OBJECT, CLOSED_OBJECT):
        assert len(text.encode()) < 16 * 1024
        with pytest.raises(RecursionError):
            json.loads(text)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (DEEP_ARRAY, "malformed"),
        (DEEP_OBJECT, "malformed"),
        (CLOSED_OBJECT, "malformed"),
        ("[" * 9 + "]" * 9, "malformed"),
        ("{not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('"just a string"', "malformed"),
        ('{"n": NaN}', "malformed"),
        ('{"n": -Infinity}', "malformed"),
        ('{"n": ' + "9" * 5000 + "}", "malformed"),
        ("x" * (16 * 1024 + 1), "too_big"),
        ('{"a": "' + "é" * 9000 + '"}', "too_big"),
        (None, "malformed"),
    ],
)
def test_bad_messages_are_refused_with_a_code(text: str | None, code: str) -> None:
    with pytest.raises(WireRefused) as refused:
        message_parse(text)
    assert refused.value.code == code


def test_good_messages_are_read() -> None:
    form = {
        "kind": "act",
        "card": "3",
        "version": "7",
        "nonce": "n-1",
        "HEADERS": {"HX-Request": "true"},
    }
    assert message_parse(json.dumps(form)) == form
    # Brackets inside strings are text, not nesting (the generic game's
    # "action" field is JSON inside a string).
    inside = {"kind": "act", "action": "[" * 100 + '{"x": "\\"[[["}', "q": 'a"b'}
    assert message_parse(json.dumps(inside)) == inside
    # Exactly at the depth limit is fine; one more is not.
    assert message_parse('{"a":' * 6 + '{"b": [1]}' + "}" * 6)["a"]
    assert too_deep("[" * 9, 8) and not too_deep("[" * 8, 8)
    # An unterminated string still scans in one pass, and is then not JSON.
    with pytest.raises(WireRefused):
        message_parse('{"a": "' + "[" * 5000)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer")
@pytest.mark.parametrize("text", [DEEP_ARRAY, DEEP_OBJECT, CLOSED_OBJECT])
async def test_deep_json_at_a_table_is_refused_politely_without_a_traceback(
    text: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Attack: deep JSON at a table. Before: "Oups…" and a traceback at ERROR per
    message. Now: "pas compris", nothing logged, the game unchanged, the socket
    still open and the next message served."""
    table = await database_sync_to_async(started_table)(seed=5)
    lea = Tablet(table.pk, await database_sync_to_async(session_cookie)("pupil:1"))
    assert await lea.connect()
    _, _, version, _ = await table_state(table.pk)
    before = await database_sync_to_async(lambda: GameState.objects.get(table=table).state)()
    with caplog.at_level(logging.WARNING):
        await lea.send(text)
        html = await lea.receive()
    assert "pas compris" in notice_of(html)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    after = await database_sync_to_async(lambda: GameState.objects.get(table=table))()
    assert after.version == version and after.state == before
    await lea.send({"kind": "sync"})
    assert 'id="table-main"' in await lea.receive()
    await lea.close()


def _monitor(class_session_id: int, cookie: str) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [
        (b"origin", b"http://testserver"),
        (b"host", b"testserver"),
        (b"cookie", f"sessionid={cookie}".encode()),
    ]
    return WebsocketCommunicator(
        application, f"/ws/teacher/sessions/{class_session_id}/monitor/", headers=headers
    )


def _teacher_session() -> tuple[int, str]:
    class_session = ClassSessionFactory()
    client = Client()
    client.force_login(class_session.school_class.teacher)
    return class_session.pk, client.cookies["sessionid"].value


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_channel_layer")
@pytest.mark.parametrize("text", [DEEP_ARRAY, DEEP_OBJECT])
async def test_deep_json_at_the_monitor_is_refused_politely_without_a_traceback(
    text: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Attack: deep JSON at the teacher's monitor. Before: "Oups, cela n'a pas
    marché" and a traceback per message. Now: the usual "not understood"."""
    session_id, cookie = await database_sync_to_async(_teacher_session)()
    monitor = _monitor(session_id, cookie)
    assert (await monitor.connect())[0]
    await monitor.receive_from(timeout=5)
    with caplog.at_level(logging.WARNING):
        await monitor.send_to(text_data=text)
        html = await monitor.receive_from(timeout=5)
    assert "pas comprise" in html
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # Still open, and the next message is read (and refused for what it says).
    await monitor.send_json_to({"kind": "dance"})
    assert "existe pas" in await monitor.receive_from(timeout=5)
    await monitor.disconnect()
