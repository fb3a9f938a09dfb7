"""Bots and turn timers: the moves a table owes, played when they fall due.

Nothing here sleeps or schedules: ``bot_turns`` plays what is due now and
returns when the table next needs a run; the runtime decides when to call it.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from cardgames.engines.base import BOT_LEVELS, DEFAULT_BOT_LEVEL
from cardgames.models import Seat, Table
from cardgames.services.errors import ActionRefused
from cardgames.services.moves import action_submit
from cardgames.services.notify import TableAfter
from cardgames.services.turns import bot_delay, due_moves, turn_plan
from cardgames.snapshot import Snapshot, snapshot

logger = logging.getLogger(__name__)

# How many bot moves one ``bot_turns`` call may play before handing back to the
# scheduler: a bot-only table with no delay still yields now and then.
MAX_BOT_MOVES_PER_CALL = 500


@dataclass
class _Pending:
    """One read of a playing table and the moves it owes now."""

    table: Table
    version: int
    engine: Any
    state: Any
    seats: list[Seat]
    now: datetime
    due: list[tuple[int, bool]]
    next_due: datetime | None


def _pending_moves(table_id: int) -> _Pending | None:
    """Read a playing table and the moves due now (bots, timeouts); ``None``
    when the table is gone, not playing, or over. Shared by ``bot_turns`` and
    ``table_next_due`` so both judge "due" from the same read: the screens'
    own read of a table (two plain queries, ``cardgames.snapshot``), which
    every robot move starts with (it was three, each with an ORDER BY to build)."""
    snap = snapshot(table_id)
    if snap is None:
        return None
    return _pending_at(snap)


def _pending_at(known: TableAfter | Snapshot) -> _Pending | None:
    """The moves due at a table already in hand, with no second read: as a bot's
    move has just committed it (three reads fewer per robot move; if another
    move slipped in meanwhile, the next bot move is refused as stale and the
    table is read again), or as a socket opening has just read it."""
    return _pending_of(
        table=known.table,
        version=known.version,
        engine=known.engine,
        state=known.state,
        seats=known.seats,
        started=known.turn_started_at,
    )


def _pending_of(
    *, table: Table, version: int, engine: Any, state: Any, seats: list[Seat], started: Any
) -> _Pending | None:
    """The moves due now at a table as given (``None``: not playing, or over)."""
    if state is None or table.status != Table.Status.PLAYING or engine.is_over(state):
        return None
    now = timezone.now()
    plan = turn_plan(table=table, engine=engine, state=state, seats=seats)
    due, next_due = due_moves(plan=plan, started=started, now=now)
    return _Pending(table, version, engine, state, seats, now, due, next_due)


def _bot_move(*, pending: _Pending, index: int, timed_out: bool) -> TableAfter | bool:
    """Let seat ``index``'s bot level play its move. Returns the table as the
    move committed it; ``True`` when the move was refused (another run, or the
    pupil at the last second, got there first); ``False`` when the bot had
    nothing to play (its think time is then pushed back)."""
    engine, state, version = pending.engine, pending.state, pending.version
    seat = pending.seats[index]
    legal = engine.legal_actions(state, index)
    if not legal:
        return False
    rng = random.Random(f"{pending.table.seed}:{index}:{version}")
    bot = engine.bot(seat.bot_level if seat.bot_level in BOT_LEVELS else DEFAULT_BOT_LEVEL)
    action = bot(engine.view(state, index), legal, rng, engine.history(state, index))
    if action is None:
        Seat.objects.filter(pk=seat.pk).update(next_think_at=pending.now + bot_delay())
        return False
    try:
        result = action_submit(
            table=pending.table,
            seat=index,
            action=action,
            version=version,
            nonce=f"bot-{version}-{index}",
            timed_out=timed_out,
            by_bot=True,
        )
    except ActionRefused as refused:
        logger.debug("bot move at table %s refused: %s", pending.table.pk, refused.code)
        return True
    return result.after


def bot_turns(*, table_id: int) -> datetime | None:
    """Play every bot move that is due at ``table_id``: a bot seat whose think
    time has come, or a pupil whose turn timer ran out (then the seat's bot level
    plays for them and the move is flagged ``timed_out``).

    Every move goes through ``action_submit`` (which takes the table lock) with a
    nonce derived from the version, so two runs racing each other (two workers,
    a reconnect) apply it once. Returns when the table next needs a run, or
    ``None``."""
    pending = _pending_moves(table_id)
    for _attempt in range(MAX_BOT_MOVES_PER_CALL):
        if pending is None:
            return None
        if not pending.due:
            return pending.next_due
        played: TableAfter | bool = False
        for index, timed_out in pending.due:
            played = _bot_move(pending=pending, index=index, timed_out=timed_out)
            if played:
                break
        if not played:
            return _earliest_think(table_id)
        # What is due next is judged from the table as the move committed it;
        # after a refusal, from a fresh read.
        if isinstance(played, TableAfter):
            pending = _pending_at(played)
        else:
            pending = _pending_moves(table_id)
    return timezone.now()


def _earliest_think(table_id: int) -> datetime | None:
    return (
        Seat.objects.filter(table_id=table_id, next_think_at__isnull=False)
        .order_by("next_think_at")
        .values_list("next_think_at", flat=True)
        .first()
    )


def table_next_due(*, table_id: int, snap: Snapshot | None = None) -> datetime | None:
    """When the table next needs the scheduler, read from the database only, so
    any connect after a restart can reschedule a table that waits on a bot.
    A read: no lock. ``snap``: the table as the caller has just read it (a
    socket opening draws its screen from it), judged without a second read:
    when a killed worker's tablets all reconnect at once, three queries fewer
    each."""
    pending = _pending_moves(table_id) if snap is None else _pending_at(snap)
    if pending is None:
        return None
    return pending.now if pending.due else pending.next_due
