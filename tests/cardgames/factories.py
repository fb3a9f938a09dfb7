"""Hand-made factories for tables, seats and game states (cardgames only).

``TableFactory``/``SeatFactory`` build rows; ``started_table`` goes through the
real services (``table_create`` + ``table_start``), which is what the runtime
tests want: a table exactly as the app would make it.
"""

from __future__ import annotations

from typing import Any

import factory
import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from cardgames import services
from cardgames.models import Seat, Table

SEAT_RESOLVER = "cardgames.access.default_table_access"


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    game = "chasse"
    seed = factory.Sequence(lambda n: 1000 + n)
    label = factory.Sequence(lambda n: f"Table {n}")
    group_key = factory.Sequence(lambda n: f"test:{n}")


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    index = factory.Sequence(lambda n: n)
    player_key = factory.LazyAttribute(lambda o: f"pupil:{9000 + o.index}")
    display_name = factory.Sequence(lambda n: f"Élève {n}")


def pupil_spec(number: int, name: str | None = None) -> services.SeatSpec:
    return services.SeatSpec(
        player_key=f"pupil:{number}", display_name=name or f"Élève {number}", avatar="fox"
    )


def started_table(
    *,
    pupils: int = 2,
    bots: int = 1,
    options: dict[str, Any] | None = None,
    seed: int = 7,
    game: str = "chasse",
    bot_level: str = "easy",
    bots_first: bool = False,
) -> Table:
    """A table dealt and playing: ``pupils`` pupils ``pupil:1..n`` then the bots."""
    names = ["Léa", "Tom", "Inès", "Noé", "Zoé", "Lou"]
    specs = [pupil_spec(i + 1, names[i]) for i in range(pupils)]
    bot_specs = [services.bot_seat(level=bot_level, number=i + 1) for i in range(bots)]
    seats = bot_specs + specs if bots_first else specs + bot_specs
    table = services.table_create(
        game=game, seats=seats, options=options or {}, seed=seed, group_key="test:1"
    )
    services.table_start(table=table)
    table.refresh_from_db()
    return table


def session_cookie(player_key: str | None = None) -> str:
    """A saved Django session (what the join flow leaves behind) → its cookie."""
    store = SessionStore()
    if player_key is not None:
        store["player_key"] = player_key
    store.save()
    assert store.session_key is not None
    return store.session_key


def communicator(table_id: int, session_key: str | None) -> WebsocketCommunicator:
    """A socket through the real ASGI stack: origin check, sessions, routing."""
    from config.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    return WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)


@pytest.fixture(autouse=False)
def seat_resolver(settings: Any) -> None:
    """cardgames tests never depend on classroom: seat by ``session["player_key"]``."""
    settings.CARDGAMES_TABLE_ACCESS = SEAT_RESOLVER


@pytest.fixture(autouse=False)
def fresh_channel_layer() -> Any:
    """Each async test runs on its own event loop; channels-redis keeps locks
    bound to the loop that first used it, so every test gets a new layer."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


async def pupil_tablets(table: Table, pupils: int = 2) -> list[Any]:
    """The tablets of pupils ``pupil:1..n`` at ``table``, connected and each
    showing its first screen."""
    from channels.db import database_sync_to_async

    from tests.cardgames.wsclient import Tablet

    tablets = [
        Tablet(table.pk, await database_sync_to_async(session_cookie)(f"pupil:{n}"))
        for n in range(1, pupils + 1)
    ]
    for tablet in tablets:
        assert await tablet.connect()
    return tablets
