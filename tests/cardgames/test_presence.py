"""Presence: a seat shows connected only while one of its sockets really is.

One expiring row per socket, pushed forward by its worker's heartbeat: a socket
that closes is forgotten at once, and one whose worker was killed (no close, no
heartbeat any more) is forgotten once its time-to-live has passed.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from cardgames import rendering, services
from cardgames.models import SeatConnection
from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    seat_resolver,
    session_cookie,
    started_table,
)
from tests.cardgames.wsclient import Tablet

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]


@database_sync_to_async
def connected(table_id: int) -> list[int]:
    """What the teacher's monitor reads: the sockets alive per seat."""
    snap = rendering.snapshot(table_id, presence=True)
    assert snap is not None
    return [seat.connections for seat in snap.seats]


async def _tablet(table_id: int, key: str) -> Tablet:
    tablet = Tablet(table_id, await database_sync_to_async(session_cookie)(key))
    assert await tablet.connect()
    return tablet


async def test_each_open_socket_counts_and_a_closed_one_stops_at_once() -> None:
    table = await database_sync_to_async(started_table)(seed=9)
    lea = await _tablet(table.pk, "pupil:1")
    lea_again = await _tablet(table.pk, "pupil:1")  # a second tab
    assert (await connected(table.pk))[0] == 2
    await lea.close()
    assert (await connected(table.pk))[0] == 1
    await lea_again.close()
    assert (await connected(table.pk))[0] == 0


async def test_a_socket_whose_worker_died_stops_counting_after_its_time_to_live(
    settings: Any, monkeypatch: Any
) -> None:
    settings.CARDGAMES_PRESENCE_TTL_SECONDS = 30
    table = await database_sync_to_async(started_table)(seed=9)
    lea = await _tablet(table.pk, "pupil:1")
    tom = await _tablet(table.pk, "pupil:2")
    assert (await connected(table.pk))[:2] == [1, 1]
    # Lea's worker is killed: her socket never closes and nobody refreshes it.
    # Tom's worker lives on and beats (a fake clock moves time forward).
    start = timezone.now()
    tom_channel = await database_sync_to_async(
        lambda: list(
            SeatConnection.objects.filter(seat__index=1).values_list(
                "channel_name", flat=True
            )
        )
    )()

    async def beat_at(seconds: float) -> None:
        monkeypatch.setattr(timezone, "now", lambda: start + timedelta(seconds=seconds))
        await database_sync_to_async(services.seat_connections_heartbeat)(
            channel_names=tom_channel, table_ids=[table.pk]
        )

    await beat_at(20)
    assert (await connected(table.pk))[:2] == [1, 1]  # within the time-to-live
    await beat_at(45)
    assert (await connected(table.pk))[:2] == [0, 1]  # Lea expired, Tom was refreshed
    await beat_at(70)
    assert (await connected(table.pk))[:2] == [0, 1]
    monkeypatch.undo()
    await lea.close()
    await tom.close()


async def test_a_socket_opening_is_told_to_the_teachers_monitor_not_to_every_tablet() -> None:
    """Only the monitor shows presence: the table's tablets are not sent it (a
    reconnecting school would otherwise send each tablet a message per tablet)."""
    table = await database_sync_to_async(started_table)(seed=9)
    layer = get_channel_layer()
    tablet_channel = await layer.new_channel()  # where a tablet of the table listens
    monitor_channel = await layer.new_channel()  # where the teacher's monitor listens
    await layer.group_add(services.table_group(table.pk), tablet_channel)
    await layer.group_add(services.presence_group(table.pk), monitor_channel)
    await layer.group_add(services.table_group(table.pk), monitor_channel)

    lea = await _tablet(table.pk, "pupil:1")
    told = await asyncio.wait_for(layer.receive(monitor_channel), 5)
    assert (told["type"], told["seat"], told["table_id"]) == ("table.presence", 0, table.pk)

    # Everything the table's group got so far reaches the tablet before this
    # mark: a stale change, which every socket of the table ignores.
    mark = {"type": "table.changed", "version": -1, "mark": True}
    await layer.group_send(services.table_group(table.pk), mark)
    seen = []
    while not (message := await asyncio.wait_for(layer.receive(tablet_channel), 5)).get("mark"):
        seen.append(message["type"])
    assert "table.presence" not in seen
    await lea.close()
