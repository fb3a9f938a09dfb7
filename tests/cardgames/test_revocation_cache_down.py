"""The cache (Redis in production) away: sockets still open and play, and a
signed-out tablet is still refused.

Found by the fault benchmark (``benchmarks/faults.py``): each socket reads its
access generation from the cache when it opens and before every message, and
a Redis restart made that read raise: HTTP 500 for every new socket, "Oups"
and a traceback for every tap. A cache that cannot answer now counts as a
missing entry, and missing entries send the socket to the database."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from channels.db import database_sync_to_async

from cardgames.models import Move
from tests.classroom.test_consumers import _communicator
from tests.classroom.test_signout_sockets import _closed, _table_for_two

pytestmark = pytest.mark.django_db(transaction=True)


class _Unreachable(Exception):
    pass


def _take_the_cache_away(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every cache call raises, in every thread: the backend's class is
    patched (each thread and task has its own instance of it)."""
    from django.core.cache import cache

    backend = type(cache._connections[cache._alias])

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise _Unreachable("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    for name in ("get", "get_many", "add", "set", "incr", "touch", "delete"):
        monkeypatch.setattr(backend, name, refuse)


@pytest.fixture
def cache_down(monkeypatch: pytest.MonkeyPatch) -> None:
    _take_the_cache_away(monkeypatch)


@pytest.mark.usefixtures("cache_down")
async def test_a_tablet_opens_and_plays_while_the_cache_is_away(
    caplog: pytest.LogCaptureFixture,
) -> None:
    _session, _teacher, tablets, table = await database_sync_to_async(_table_for_two)()
    leo = _communicator(f"/ws/table/{table.pk}/", tablets[0])
    connected, _code = await leo.connect()
    assert connected
    first = await leo.receive_from(timeout=5)
    assert "table-state" in first
    with caplog.at_level(logging.ERROR):
        await leo.send_to(text_data=json.dumps({"kind": "sync"}))
        again = await leo.receive_from(timeout=5)
    assert "Oups" not in again
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await leo.disconnect()


async def test_a_signed_out_tablet_is_refused_while_the_cache_is_away(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _session, _teacher, tablets, table = await database_sync_to_async(_table_for_two)()
    leo = _communicator(f"/ws/table/{table.pk}/", tablets[0])
    assert (await leo.connect())[0]
    await leo.receive_from(timeout=5)
    key = tablets[0].cookies["sessionid"].value
    moves = await database_sync_to_async(Move.objects.count)()

    def sign_out_with_the_cache_away() -> None:
        from django.contrib.sessions.models import Session

        _take_the_cache_away(monkeypatch)
        Session.objects.filter(session_key=key).delete()

    await database_sync_to_async(sign_out_with_the_cache_away)()
    await leo.send_to(
        text_data=json.dumps(
            {
                "kind": "act",
                "move": "play",
                "card": "1",
                "announce": "10",
                "version": "1",
                "nonce": "x1",
            }
        )
    )
    _text, code = await _closed(leo)
    assert code == 4002
    assert await database_sync_to_async(Move.objects.count)() == moves
