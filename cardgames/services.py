"""The only code that changes a game.

Every function takes keyword-only arguments. Functions that change a table's
state take the table's lock first (``select_for_update`` on PostgreSQL; SQLite
serialises writers with ``transaction_mode=IMMEDIATE``) and say so.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from cardgames import engines
from cardgames.models import GameEvent, GameState, Seat, Table


@dataclass(frozen=True)
class SeatSpec:
    """Who sits on a seat, in the only terms cardgames knows."""

    player_key: str
    display_name: str
    avatar: str = ""
    is_bot: bool = False
    bot_level: str = "medium"


def bot_seat(*, level: str, number: int) -> SeatSpec:
    names = {"easy": "Robot Pomme", "medium": "Robot Poire", "hard": "Robot Prune"}
    return SeatSpec(
        player_key=f"bot:{level}",
        display_name=f"{names.get(level, 'Robot')} {number}",
        avatar="robot",
        is_bot=True,
        bot_level=level,
    )


@transaction.atomic
def table_create(
    *,
    game: str,
    seats: list[SeatSpec],
    options: dict[str, object] | None = None,
    group_key: str = "",
    number: int = 1,
    label: str = "",
    seed: int | None = None,
) -> Table:
    """Create a table in the waiting state. Options are validated now, so a
    teacher learns about a bad option when setting up, not when starting."""
    engine = engines.get(game)
    engine.check_players(len(seats))
    valid = engine.validate_options(dict(options or {}))
    table = Table.objects.create(
        game=game,
        options=valid,
        seed=secrets.randbits(48) if seed is None else seed,
        group_key=group_key,
        number=number,
        label=label,
    )
    Seat.objects.bulk_create(
        Seat(
            table=table,
            index=index,
            player_key=spec.player_key,
            display_name=spec.display_name,
            avatar=spec.avatar,
            is_bot=spec.is_bot,
            bot_level=spec.bot_level,
        )
        for index, spec in enumerate(seats)
    )
    return table


@transaction.atomic
def seat_assign(*, table: Table, index: int, spec: SeatSpec) -> Seat:
    """Give a seat to someone else (a late pupil, or a bot for a dead tablet).

    The game state is untouched: whoever sits down picks up the seat's hand.
    Takes the table lock."""
    Table.objects.select_for_update().get(pk=table.pk)
    seat = Seat.objects.get(table=table, index=index)
    seat.player_key = spec.player_key
    seat.display_name = spec.display_name
    seat.avatar = spec.avatar
    seat.is_bot = spec.is_bot
    seat.bot_level = spec.bot_level
    seat.pending_choice = None
    seat.pending_since = None
    seat.save()
    return seat


@transaction.atomic
def table_start(*, table: Table) -> GameState:
    """Deal a new game with the table's own seed and options. Takes the table lock.

    Starting twice is harmless: a table that already has a state keeps it."""
    locked = Table.objects.select_for_update().get(pk=table.pk)
    existing = GameState.objects.filter(table=locked).first()
    if existing is not None:
        return existing
    engine = engines.get(locked.game)
    players = locked.seats.count()
    state = engine.new_game(players, locked.seed, locked.options)
    now = timezone.now()
    game_state = GameState.objects.create(
        table=locked, state=engine.to_json(state), version=0, turn_started_at=now
    )
    GameEvent.objects.bulk_create(
        GameEvent(
            table=locked,
            seq=seq,
            version=0,
            seat=event.get("seat"),
            kind=str(event["type"]),
            payload=event,
            visible_to=event.get("to"),
        )
        for seq, event in enumerate(state.log)
    )
    locked.status = Table.Status.PLAYING
    locked.started_at = now
    locked.save(update_fields=["status", "started_at"])
    table.status, table.started_at = locked.status, locked.started_at
    return game_state
