"""Finding 12: the websocket origin check compares scheme, host and port."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    seat_resolver,
    session_cookie,
    started_table,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]


async def _connects(table_id: int, key: str, origin: bytes | None, host: bytes = b"testserver") -> bool:
    from config.asgi import application

    headers = [(b"host", host), (b"cookie", f"sessionid={key}".encode())]
    if origin is not None:
        headers.append((b"origin", origin))
    comm = WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)
    connected, _ = await comm.connect()
    await comm.disconnect()
    return bool(connected)


@pytest.mark.parametrize(
    "origin",
    [
        b"http://testserver:8081",  # another port of an allowed host
        b"https://testserver",  # another scheme
        b"http://testserver:443",
        b"http://evil.example",
        b"null",
        b"",
        None,
    ],
)
async def test_12_a_page_of_another_origin_cannot_open_a_table_socket(origin: bytes | None) -> None:
    table = await database_sync_to_async(started_table)(pupils=2, bots=0, seed=1)
    key = await database_sync_to_async(session_cookie)("pupil:1")
    assert await _connects(table.pk, key, b"http://testserver")  # the control: our own page
    assert await _connects(table.pk, key, b"http://testserver:80")
    assert not await _connects(table.pk, key, origin)


async def test_12_the_port_of_the_host_header_counts(settings) -> None:
    table = await database_sync_to_async(started_table)(pupils=2, bots=0, seed=1)
    key = await database_sync_to_async(session_cookie)("pupil:1")
    host = b"testserver:8081"
    assert await _connects(table.pk, key, b"http://testserver:8081", host=host)
    assert not await _connects(table.pk, key, b"http://testserver", host=host)
    assert not await _connects(table.pk, key, b"http://evil.example:8081", host=b"evil.example:8081")
