"""A move reaches every screen of its table: across channel-layer connections
(as across workers), and even when the channel layer loses the message."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.urls import path

from cardgames.consumers import TableConsumer
from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    seat_resolver,
    session_cookie,
    started_table,
)
from tests.cardgames.wsclient import Tablet, play_form, table_state

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

SHOWN = {"announce": "shown"}


class OtherWorkerConsumer(TableConsumer):
    """A table socket held by "another worker": its own channel-layer instance,
    so its own Redis connection pool and its own receive loop."""

    channel_layer_alias = "other-worker"


def _other_worker_communicator(table_id: int, session_key: str) -> WebsocketCommunicator:
    app = AuthMiddlewareStack(
        URLRouter([path("ws/table/<int:table_id>/", OtherWorkerConsumer.as_asgi())])
    )
    return WebsocketCommunicator(
        app,
        f"/ws/table/{table_id}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={session_key}".encode())],
    )


def _pupil_move(engine: Any, state: Any, seat: int, version: int) -> dict[str, Any]:
    return play_form(engine.legal_actions(state, seat)[0], version)


async def test_two_sockets_on_two_layer_connections_both_see_a_move_made_through_a_third(
    settings: Any,
) -> None:
    default = django_settings.CHANNEL_LAYERS["default"]
    # With Redis (the PostgreSQL + Redis pass) the second alias is a second,
    # independent connection to the same Redis, as another worker would hold.
    # The in-memory layer only reaches its own instance, so there both aliases
    # share it (one process serves everything in the embedded default).
    settings.CHANNEL_LAYERS = {**django_settings.CHANNEL_LAYERS, "other-worker": default}
    if "Redis" not in default["BACKEND"]:
        OtherWorkerConsumer.channel_layer_alias = "default"
    table = await database_sync_to_async(started_table)(pupils=3, bots=0, options=SHOWN, seed=4)
    lea = Tablet(table.pk, await database_sync_to_async(session_cookie)("pupil:1"))
    tom = Tablet(table.pk, await database_sync_to_async(session_cookie)("pupil:2"))
    assert await lea.connect() and await tom.connect()
    ines = Tablet(table.pk, await database_sync_to_async(session_cookie)("pupil:3"))
    ines.comm = _other_worker_communicator(table.pk, ines.session_key or "")
    connected, _ = await ines.comm.connect()
    assert connected
    await ines.receive()
    try:
        engine, state, version, _ = await table_state(table.pk)
        mover = {0: lea, 1: tom, 2: ines}[engine.view(state, None)["current_seat"]]
        watchers = [t for t in (lea, tom, ines) if t is not mover]
        await mover.send(_pupil_move(engine, state, mover_seat(mover, lea, tom), version))
        for tablet in (mover, *watchers):
            await tablet.wait_version(version + 1, timeout=5)
            assert tablet.version == version + 1
    finally:
        OtherWorkerConsumer.channel_layer_alias = "other-worker"
        for tablet in (lea, tom, ines):
            await tablet.close()


def mover_seat(mover: Tablet, lea: Tablet, tom: Tablet) -> int:
    return 0 if mover is lea else 1 if mover is tom else 2


async def test_a_lost_broadcast_is_logged_and_every_seat_still_reaches_the_new_version(
    settings: Any, monkeypatch: Any, caplog: Any
) -> None:
    settings.CARDGAMES_HEARTBEAT_SECONDS = 0.2
    table = await database_sync_to_async(started_table)(pupils=3, bots=0, options=SHOWN, seed=4)
    tablets = [
        Tablet(table.pk, await database_sync_to_async(session_cookie)(f"pupil:{n}"))
        for n in (1, 2, 3)
    ]
    for tablet in tablets:
        assert await tablet.connect()
    layer = get_channel_layer()
    real_group_send = layer.group_send
    lost: list[dict[str, Any]] = []

    async def broken_group_send(group: str, message: dict[str, Any]) -> None:
        if message.get("type") == "table.changed":
            lost.append(message)
            raise ConnectionError("Redis is restarting")
        await real_group_send(group, message)

    monkeypatch.setattr(layer, "group_send", broken_group_send)
    try:
        engine, state, version, _ = await table_state(table.pk)
        current = engine.view(state, None)["current_seat"]
        with caplog.at_level(logging.WARNING):
            await tablets[current].send(_pupil_move(engine, state, current, version))
            # The mover's own screen comes with the reply, not the broadcast.
            await tablets[current].wait_version(version + 1, timeout=3)
            # The others missed the broadcast; their worker's heartbeat finds the
            # screens behind the table and sends them again.
            for tablet in tablets:
                await tablet.wait_version(version + 1, timeout=5)
                assert tablet.version == version + 1
        assert lost, "the broadcast was not even attempted"
        assert any("table.changed" in r.getMessage() or "group_send" in r.getMessage() for r in caplog.records)
    finally:
        for tablet in tablets:
            await tablet.close()


async def test_a_broadcast_that_fails_once_is_sent_again_at_once(
    settings: Any, monkeypatch: Any
) -> None:
    settings.CARDGAMES_HEARTBEAT_SECONDS = 3600  # no heartbeat to the rescue here
    table = await database_sync_to_async(started_table)(pupils=3, bots=0, options=SHOWN, seed=4)
    tablets = [
        Tablet(table.pk, await database_sync_to_async(session_cookie)(f"pupil:{n}"))
        for n in (1, 2, 3)
    ]
    for tablet in tablets:
        assert await tablet.connect()
    layer = get_channel_layer()
    real_group_send = layer.group_send
    failures: list[str] = []

    async def flaky_group_send(group: str, message: dict[str, Any]) -> None:
        if message.get("type") == "table.changed" and not failures:
            failures.append(group)
            raise ConnectionError("connection reset by peer")
        await real_group_send(group, message)

    monkeypatch.setattr(layer, "group_send", flaky_group_send)
    try:
        engine, state, version, _ = await table_state(table.pk)
        current = engine.view(state, None)["current_seat"]
        await tablets[current].send(_pupil_move(engine, state, current, version))
        for tablet in tablets:
            await tablet.wait_version(version + 1, timeout=3)
            assert tablet.version == version + 1
        assert failures
    finally:
        for tablet in tablets:
            await tablet.close()
