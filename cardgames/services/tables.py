"""A table's life: created with its seats, started, paused, resumed, ended.

Each function that changes a table takes the table's lock first
(``select_for_update`` on PostgreSQL; SQLite serialises writers with
``transaction_mode=IMMEDIATE``) and sends its news after the commit.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from cardgames import engines, ui
from cardgames.engines.base import DEFAULT_BOT_LEVEL
from cardgames.models import GameState, Seat, Table
from cardgames.services.notify import table_changed, table_notify
from cardgames.services.turns import events_record, turn_arm
from cardgames.signals import table_finished


@dataclass(frozen=True)
class SeatSpec:
    """Who sits on a seat, in the only terms cardgames knows."""

    player_key: str
    display_name: str
    avatar: str = ""
    is_bot: bool = False
    bot_level: str = DEFAULT_BOT_LEVEL


def bot_seat(*, level: str, number: int) -> SeatSpec:
    """A bot's seat, named after its level so a child knows how strong it plays."""
    # Stored in the creator's language; screens rename it in theirs (ui.seat_name).
    name = ui.bot_name(level, number)
    return SeatSpec(
        player_key=f"bot:{level}",
        display_name=name,
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
    teacher learns about a bad option when setting up, not when starting.
    A new row: no lock needed."""
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
    A seat given to a bot on its turn gets a think time at once, so the table
    never stalls. On commit, every socket of the table re-checks who it is.
    Takes the table lock."""
    locked = Table.objects.select_for_update().get(pk=table.pk)
    seat = Seat.objects.get(table=locked, index=index)
    seat.player_key = spec.player_key
    seat.display_name = spec.display_name
    seat.avatar = spec.avatar
    seat.is_bot = spec.is_bot
    seat.bot_level = spec.bot_level
    seat.pending_choice = None
    seat.pending_since = None
    seat.next_think_at = None
    seat.save()
    game_state = GameState.objects.filter(table=locked).first()
    next_due: datetime | None = None
    version = 0
    if game_state is not None:
        version = game_state.version
        now = timezone.now()
        if not spec.is_bot:
            # A pupil taking over mid-turn gets a fresh turn timer.
            GameState.objects.filter(pk=game_state.pk).update(turn_started_at=now)
        engine = engines.get(locked.game)
        next_due = turn_arm(
            table=locked, engine=engine, state=engine.from_json(game_state.state), now=now
        )

    def after() -> None:
        table_notify(table_id=locked.pk, message={"type": "table.seats_changed"})
        table_changed(table_id=locked.pk, version=version, next_due=next_due)

    transaction.on_commit(after)
    return seat


def table_successor(*, table: Table) -> Table | None:
    """The game that replaced ``table`` ("Rejouer"): the next table of the same
    group and number. A tablet that slept through the move finds it here."""
    if not table.group_key:
        return None
    return (
        Table.objects.filter(group_key=table.group_key, number=table.number, pk__gt=table.pk)
        .order_by("pk")
        .first()
    )


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
        table=locked,
        state=engine.to_json(state),
        version=0,
        turn_started_at=now,
        next_seq=len(state.log),
    )
    events_record(table_id=locked.pk, first_seq=0, version=0, events=state.log)
    locked.status = Table.Status.PLAYING
    locked.started_at = now
    locked.save(update_fields=["status", "started_at"])
    table.status, table.started_at = locked.status, locked.started_at
    next_due = turn_arm(table=locked, engine=engine, state=state, now=now)
    transaction.on_commit(lambda: table_changed(table_id=locked.pk, version=0, next_due=next_due))
    return game_state


def _status_set(*, table: Table, status: str, allowed_from: tuple[str, ...]) -> Table:
    """Change a table's status. Takes the table lock; notifies on commit."""
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status not in allowed_from:
            return locked
        now = timezone.now()
        locked.status = status
        fields = ["status"]
        if status == Table.Status.FINISHED:
            locked.finished_at = now
            fields.append("finished_at")
        locked.save(update_fields=fields)
        next_due: datetime | None = None
        game_state = GameState.objects.select_for_update().filter(table=locked).first()
        if game_state is not None and status == Table.Status.PLAYING:
            # The timer starts again from the resume, not from before the pause.
            GameState.objects.filter(pk=game_state.pk).update(turn_started_at=now)
            engine = engines.get(locked.game)
            next_due = turn_arm(
                table=locked, engine=engine, state=engine.from_json(game_state.state), now=now
            )
        elif status != Table.Status.PLAYING:
            Seat.objects.filter(table=locked).update(next_think_at=None)
        version = game_state.version if game_state is not None else 0
        transaction.on_commit(
            lambda: table_changed(table_id=locked.pk, version=version, next_due=next_due)
        )
        if status == Table.Status.FINISHED and game_state is not None:
            transaction.on_commit(lambda: table_finished.send_robust(sender=Table, table=locked))
    table.status = locked.status
    table.finished_at = locked.finished_at
    return locked


def table_pause(*, table: Table) -> Table:
    """Pause a playing table: moves are refused with a message, bots and the turn
    timer stop. Takes the table lock."""
    return _status_set(
        table=table, status=Table.Status.PAUSED, allowed_from=(Table.Status.PLAYING,)
    )


def table_resume(*, table: Table) -> Table:
    """Resume a paused table; the turn timer starts again. Takes the table lock."""
    return _status_set(
        table=table, status=Table.Status.PLAYING, allowed_from=(Table.Status.PAUSED,)
    )


def table_end(*, table: Table) -> Table:
    """End a table early (the bell rang). Its log stays, so it can be replayed.
    Takes the table lock."""
    return _status_set(
        table=table,
        status=Table.Status.FINISHED,
        allowed_from=(Table.Status.WAITING, Table.Status.PLAYING, Table.Status.PAUSED),
    )
