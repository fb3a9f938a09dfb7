"""PostgreSQL failing under a move, and a tablet gone before its reply (issue 49).

A move whose database connection is killed mid-transaction is applied whole
or not at all, and the child reads a plain "un instant" (no traceback, the
socket stays open); a move whose sender closes before the reply is applied
once and shown when the tablet comes back. Runs in the PostgreSQL + Redis pass
(``DATABASE_URL`` set); it only ends its own database connection.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

import pytest

from tests.cardgames.factories import (  # noqa: F401
    fresh_channel_layer,
    pupil_tablets,
    seat_resolver,
    session_cookie,
    started_table,
)
from tests.cardgames.wsclient import Tablet, notice_of, play_form, table_state

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        "postgres" not in os.environ.get("DATABASE_URL", ""), reason="needs the PostgreSQL pass"
    ),
    pytest.mark.usefixtures("seat_resolver", "fresh_channel_layer"),
]

SHOWN = {"announce": "shown"}


def _stored(table_id: int) -> tuple[int, int, int]:
    from cardgames.models import GameEvent, GameState, Move

    return (
        GameState.objects.get(table_id=table_id).version,
        Move.objects.filter(table_id=table_id).count(),
        GameEvent.objects.filter(table_id=table_id).count(),
    )


async def _turn(tablets: list[Tablet]) -> tuple[Tablet, int, dict[str, Any]]:
    engine, state, version, _status = await table_state(tablets[0].table_id)
    seat = engine.view(state, None)["current_seat"]
    return tablets[seat], version, play_form(engine.legal_actions(state, seat)[0], version)


async def test_a_connection_killed_during_action_submit_applies_nothing_and_says_so(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import psycopg
    from channels.db import database_sync_to_async
    from django.db import connection

    from cardgames import engines

    table = await database_sync_to_async(started_table)(pupils=3, bots=0, options=SHOWN, seed=4)
    tablets = await pupil_tablets(table, 3)
    mover, version, move = await _turn(tablets)
    before = await database_sync_to_async(_stored)(table.pk)
    engine = engines.get("chasse")
    apply = engine.apply
    killed: list[int] = []

    def apply_then_lose_the_connection(state: Any, seat: int, action: Any) -> Any:
        """Inside the move's transaction: PostgreSQL ends this backend (as a
        restart does), after the engine applied the move in memory."""
        result = apply(state, seat, action)
        if not killed:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pid = cursor.fetchone()[0]
            params = connection.get_connection_params()
            dsn = {k: v for k, v in params.items() if k in ("host", "port", "user", "password", "dbname")}
            with psycopg.connect(**dsn, autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(%s)", [pid])
            killed.append(pid)
        return result

    monkeypatch.setattr(engine, "apply", apply_then_lose_the_connection)
    with caplog.at_level(logging.INFO):
        await mover.send(move)
        screen = await mover.receive(timeout=10)
    assert killed, "the move never reached the engine"
    assert "le serveur se reconnecte" in notice_of(screen), notice_of(screen)
    # Nothing of the move was stored: no version, no move, no event.
    assert await database_sync_to_async(_stored)(table.pk) == before
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    # The child taps again: applied, once, and every screen shows it.
    monkeypatch.setattr(engine, "apply", apply)
    move = {**move, "nonce": move["nonce"] + "-again"}
    await mover.send(move)
    for tablet in tablets:
        await tablet.wait_version(version + 1, timeout=10)
    after = await database_sync_to_async(_stored)(table.pk)
    assert after[0] == before[0] + 1 and after[1] == before[1] + 1
    for tablet in tablets:
        await tablet.close()


async def test_a_move_whose_sender_leaves_before_the_reply_is_applied_once_and_shown() -> None:
    from channels.db import database_sync_to_async

    table = await database_sync_to_async(started_table)(pupils=3, bots=0, options=SHOWN, seed=4)
    tablets = await pupil_tablets(table, 3)
    mover, version, move = await _turn(tablets)
    seat = tablets.index(mover)
    await mover.send(move)
    await mover.close()  # Wi-Fi gone before the reply
    for tablet in tablets:
        if tablet is not mover:
            await tablet.wait_version(version + 1, timeout=10)
    back = Tablet(table.pk, mover.session_key)
    assert await back.connect()
    assert back.version == version + 1
    # The tablet resends the move it never saw answered: refused, not applied twice.
    await back.send(move)
    screen = await back.receive(timeout=10)
    assert "déjà été envoyé" in notice_of(screen) or back.version == version + 1
    await asyncio.sleep(0.3)
    from cardgames.models import Move

    nonces = await database_sync_to_async(
        lambda: list(Move.objects.filter(table_id=table.pk, seat=seat).values_list("nonce", flat=True))
    )()
    assert nonces.count(move["nonce"]) == 1
    for tablet in tablets:
        if tablet is not mover:
            await tablet.close()
    await back.close()
