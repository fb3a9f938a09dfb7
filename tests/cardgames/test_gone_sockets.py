"""A tablet that has gone (asleep, signed out, session ended) while the server
was about to send it something: the consumer's task ends quietly, with no
traceback in the server log."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from autobahn.exception import Disconnected
from uvicorn.protocols.utils import ClientDisconnected

from cardgames import revocation
from cardgames.consumers import TableConsumer
from classroom.consumers import LobbyConsumer

# What uvicorn (production: the tablet went, or our close was already sent) and
# Daphne (runserver) raise for a send on a socket already closed.
GONE_ERRORS = [
    ClientDisconnected(),
    Disconnected("Attempt to send on a closed protocol"),
    RuntimeError("Unexpected ASGI message 'websocket.send', after sending 'websocket.close'."),
]


def _gone_consumer(
    consumer_class: type[Any], error: BaseException
) -> tuple[Any, list[dict[str, Any]]]:
    consumer = consumer_class()
    consumer.scope = {"type": "websocket", "query_string": b""}
    consumer.table_id = 1
    tried: list[dict[str, Any]] = []

    async def base_send(message: dict[str, Any]) -> None:
        tried.append(message)
        raise error

    consumer.base_send = base_send
    return consumer, tried


@pytest.mark.parametrize("error", GONE_ERRORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("reason", [revocation.SIGNED_OUT, "ended"])
async def test_a_table_socket_closed_by_the_session_end_or_a_sign_out_ends_quietly(
    error: BaseException, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    consumer, tried = _gone_consumer(TableConsumer, error)
    with caplog.at_level(logging.DEBUG):
        await consumer.table_close({"type": "table.close", "reason": reason})
    # It tried to say goodbye, then to close; neither raised.
    assert [message["type"] for message in tried] == ["websocket.send", "websocket.close"]
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


@pytest.mark.parametrize("error", GONE_ERRORS, ids=lambda e: type(e).__name__)
async def test_a_lobby_socket_signed_out_after_it_went_ends_quietly(error: BaseException) -> None:
    consumer, tried = _gone_consumer(LobbyConsumer, error)
    await consumer.table_close({"type": "table.close", "reason": revocation.SIGNED_OUT})
    assert [message["type"] for message in tried] == ["websocket.send", "websocket.close"]


@pytest.mark.parametrize(
    "bug",
    [
        ValueError("a bug"),
        RuntimeError(
            "Expected ASGI message 'websocket.accept', 'websocket.close' or"
            " 'websocket.http.response.start' but got 'websocket.send'."
        ),
    ],
    ids=["ValueError", "send-before-accept"],
)
async def test_a_send_that_fails_for_another_reason_still_raises(bug: BaseException) -> None:
    """Only a gone socket is quiet: a bug in what is sent is not hidden."""
    consumer, _tried = _gone_consumer(TableConsumer, bug)
    with pytest.raises(type(bug)):
        await consumer.table_close({"type": "table.close", "reason": "ended"})
