"""Moves: the two-step card choice and ``action_submit``, the only way a game
changes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from cardgames import engines, statements
from cardgames.engines.base import IllegalAction
from cardgames.models import GameState, Move, Seat, Table
from cardgames.services.after_reply import receivers_dispatch
from cardgames.services.errors import ActionRefused
from cardgames.services.notify import TableAfter, table_changed
from cardgames.services.turns import events_record, turn_arm
from cardgames.signals import action_refused, actions_applied, table_finished
from cardgames.snapshot import Snapshot, snapshot, snapshot_of


@dataclass(frozen=True)
class ActionResult:
    """What an applied move did."""

    table_id: int
    seat: int
    version: int
    events: list[dict[str, Any]]
    think_ms: int | None
    compute_ms: int | None
    timed_out: bool
    by_bot: bool
    over: bool
    # The table as the move committed it: the screens of this change are drawn
    # from it instead of reading the table again...
    after: TableAfter
    # ...as this one snapshot, which the broadcast's sockets of this process
    # get too (``notify.move_after``), so all the change's screens share parts.
    snapshot: Snapshot


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refuse_unless_playing(status: str) -> None:
    """A move needs a table in play: say why not otherwise."""
    if status == Table.Status.PAUSED:
        raise ActionRefused("paused")
    if status == Table.Status.FINISHED:
        raise ActionRefused("finished")
    if status == Table.Status.WAITING:
        raise ActionRefused("not_started")


def card_choose(
    *, table: Table, seat: int, card: Any, version: Any, snap: Snapshot | None = None
) -> dict[str, Any]:
    """First half of a two-step move (the pupil taps a card, then says more).
    Remembers the card and when it was chosen, so ``action_submit`` can split the time into
    thinking (turn start → card) and computing (card → announcement).

    Nothing of the game changes, so no table lock: a choice on a stale version is
    simply refused, and the next render shows the fresh hand. ``snap`` is the
    table as the caller just read it to draw the tablet's next screen: the choice
    is judged on that read and then costs one UPDATE (a tap is the commonest
    message of all), and ``snap``'s seat is brought up to date to match."""
    if not _is_int(card) or not _is_int(version):
        raise ActionRefused("malformed")
    if snap is None:
        snap = snapshot(table.pk)
    if snap is None or snap.state is None:
        raise ActionRefused("not_started")
    _refuse_unless_playing(snap.table.status)
    engine = snap.engine
    if version != snap.version:
        raise ActionRefused("stale")
    view = engine.view(snap.state, seat)
    if view.get("current_seat") not in (None, seat) and not engine.simultaneous:
        raise ActionRefused("not_your_turn", game=table.game)
    if not any(isinstance(c, dict) and c.get("id") == card for c in view.get("hand") or []):
        raise ActionRefused("card_not_in_hand", game=table.game)
    choice = {"card": card, "version": version}
    now = timezone.now()
    Seat.objects.filter(table_id=table.pk, index=seat).update(pending_choice=choice, pending_since=now)
    for row in snap.seats:
        if row.index == seat:
            row.pending_choice, row.pending_since = choice, now
    return choice


def card_choice_clear(*, table: Table, seat: int) -> None:
    """The pupil changed their mind: forget the chosen card (the clock keeps
    running from the first choice of this turn only if they choose again).
    One UPDATE of the seat's own row: no lock."""
    Seat.objects.filter(table_id=table.pk, index=seat).update(pending_choice=None)


def action_submit(
    *,
    table: Table,
    seat: int,
    action: dict[str, Any],
    version: int | None,
    nonce: str,
    timed_out: bool = False,
    by_bot: bool = False,
    player_key: str | None = None,
) -> ActionResult:
    """Apply one move, the only way a game changes. Takes the table lock.

    In one transaction: refuse a paused or finished table, a nonce already seen
    (a double tap or a replayed message), a stale ``version`` (turn-based games:
    the child acted on a screen that was out of date), then ``engine.apply``, save
    the state with a compare-and-set on the version, append the events and the
    Move with the server-measured timings. On commit: ``table.changed`` to every
    consumer of the table and the next bot/timer scheduled, then
    ``actions_applied`` (the learning record), at once or, inside
    ``receivers_after_reply``, by the caller after its reply. ``player_key``,
    when given, must still own the seat (a teacher may have given it to
    someone else since the page was drawn)."""
    if not isinstance(nonce, str) or not 1 <= len(nonce) <= 64:
        raise ActionRefused("malformed")
    if version is not None and not _is_int(version):
        raise ActionRefused("malformed")
    move = _Move(
        table_id=table.pk,
        engine=engines.get(table.game),
        seat=seat,
        action=action,
        version=version,
        nonce=nonce,
        timed_out=timed_out,
        by_bot=by_bot,
        player_key=player_key,
    )
    try:
        with transaction.atomic():
            result, on_commit = _move_apply(move=move, game=table.game)
            transaction.on_commit(on_commit)
    except IntegrityError as exc:
        # Two submissions with one nonce raced past the existence check (only
        # possible without row locks): the unique constraint settles it.
        raise ActionRefused("duplicate") from exc
    except ActionRefused as refused:
        if isinstance(refused, _EngineRefused) and not by_bot:
            # Outside the rolled-back transaction: a receiver may write. The
            # row read under the lock, never the caller's ``table`` (a socket
            # builds one from its id and game only: no group, no options).
            action_refused.send_robust(
                sender=Table,
                table=refused.table,
                seat=seat,
                player_key=refused.player_key,
                action=action,
                code=refused.code,
            )
        raise
    if result.over:
        table.status = Table.Status.FINISHED
    return result


class _EngineRefused(ActionRefused):
    """The engine refused the move (``IllegalAction``): carries the table row
    as ``_move_apply`` read it, for the ``action_refused`` receivers."""

    by_engine = True

    def __init__(self, code: str, *, game: str, table: Table, player_key: str | None) -> None:
        super().__init__(code, game=game)
        self.table = table
        self.player_key = player_key


@dataclass(frozen=True)
class _Move:
    """One submitted move, as ``action_submit`` received it."""

    table_id: int
    engine: Any
    seat: int
    action: dict[str, Any]
    version: int | None
    nonce: str
    timed_out: bool
    by_bot: bool
    player_key: str | None


def _lock_table(table_id: int) -> tuple[Table, GameState]:
    """Lock the table row and its game state and read both in one statement
    (PostgreSQL ``FOR UPDATE OF`` both; SQLite's IMMEDIATE transactions already
    serialise writers). The game state must be locked too: a waiting writer then
    reads the state the previous writer saved (PostgreSQL re-fetches locked rows
    only), so a simultaneous game judges a move against the current state instead
    of refusing it as stale. The version compare-and-set still guards the save."""
    game_state = statements.game_state_read(table_id, lock=True)
    if game_state is None:
        # No game state: a table that never started, or none at all.
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise ActionRefused("finished")
        _refuse_unless_playing(table.status)
        raise ActionRefused("not_started")
    table = game_state.table
    _refuse_unless_playing(table.status)
    return table, game_state


def _acting_seat(*, move: _Move, seats: list[Seat]) -> Seat:
    """The seat's row, refused if it is not there or has changed hands."""
    row = next((row for row in seats if row.index == move.seat), None)
    if row is None:
        raise ActionRefused("malformed")
    if move.player_key is not None and row.player_key != move.player_key:
        raise ActionRefused("seat_changed")
    return row


def _check_fresh(*, move: _Move, current_version: int) -> None:
    """Refuse a replayed nonce, and (turn-based games) a move made on an old screen.
    Simultaneous games accept any version: every seat acts on its own.

    A turn-based move drawn on the current version cannot repeat an applied move
    (that one moved the version on), so the nonce is looked up only when the
    version is off: to tell a replay (a double tap: "already sent") from an
    out-of-date screen. A nonce forged onto the current version is stopped by the
    unique constraint on the Move row (``action_submit`` says "duplicate")."""
    replay_possible = move.engine.simultaneous or move.version != current_version
    if replay_possible and Move.objects.filter(table_id=move.table_id, nonce=move.nonce).exists():
        raise ActionRefused("duplicate")
    if move.engine.simultaneous:
        return
    if move.version is None:
        raise ActionRefused("malformed")
    if move.version != current_version:
        raise ActionRefused("stale")


def _ms(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() * 1000))


def _timings(
    *, move: _Move, seat_row: Seat, game_state: GameState, now: datetime
) -> tuple[int | None, int | None]:
    """Server-measured (think_ms, compute_ms) of a pupil's move: from the turn's
    start to the chosen card, then to the move; all thinking when no card of this
    turn was chosen first. Bots are not timed."""
    started = game_state.turn_started_at
    if move.by_bot or started is None:
        return None, None
    choice = seat_row.pending_choice if isinstance(seat_row.pending_choice, dict) else None
    since = seat_row.pending_since
    card = move.action.get("card") if isinstance(move.action, dict) else None
    if (
        choice is not None
        and since is not None
        and choice.get("version") == game_state.version
        and choice.get("card") == card
    ):
        return _ms(since - started), _ms(now - since)
    return _ms(now - started), None


def _move_apply(*, move: _Move, game: str) -> tuple[ActionResult, Callable[[], None]]:
    """``action_submit`` inside its transaction, step by step: lock and check,
    apply, record, re-arm the turn. Returns the result and what to send once
    committed.

    Longer than the house's 80 lines on purpose: it is the one critical
    section of a move, read top to bottom under the table's row lock, and
    each step uses the rows the one before read (one read of the seats for the
    check and the re-arming); split, the lock's extent would no longer show."""
    locked, game_state = _lock_table(move.table_id)
    engine = move.engine
    # All seats in one read: the acting seat is checked here, and the turn is
    # re-armed from the same rows below (one query instead of several).
    seats = statements.seats_read(move.table_id, lock=True)
    seat_row = _acting_seat(move=move, seats=seats)
    _check_fresh(move=move, current_version=game_state.version)

    state = engine.from_json(game_state.state)
    view_before = engine.view(state, move.seat)
    try:
        events = engine.apply(state, move.seat, move.action)
    except IllegalAction as exc:
        raise _EngineRefused(
            exc.code, game=game, table=locked, player_key=seat_row.player_key
        ) from exc

    now = timezone.now()
    think_ms, compute_ms = _move_record(
        move=move, state=state, game_state=game_state, seat_row=seat_row, events=events, now=now
    )
    # Everyone's half-made choice (a card tapped, not yet played) ends with this
    # move: it carries the version it was made on, which is now past, so the
    # screens and the timings ignore it. No UPDATE needed.
    over = engine.is_over(state)
    if over:
        locked.status = Table.Status.FINISHED
        locked.finished_at = now
        locked.save(update_fields=["status", "finished_at"])
    if engine.simultaneous and seat_row.is_bot and seat_row.next_think_at is not None:
        # The bot has just acted: its next move waits a fresh pause, or bots
        # would trade at machine speed in a game where nobody waits a turn.
        seat_row.next_think_at = None
        Seat.objects.filter(pk=seat_row.pk).update(next_think_at=None)
    next_due = turn_arm(table=locked, engine=engine, state=state, now=now, seats=seats)
    after = TableAfter(
        table=locked,
        seats=seats,
        version=game_state.version + 1,
        engine=engine,
        state=state,
        turn_started_at=now,
    )
    result = ActionResult(
        after=after,
        snapshot=snapshot_of(after),
        table_id=move.table_id,
        seat=move.seat,
        version=game_state.version + 1,
        events=events,
        think_ms=think_ms,
        compute_ms=compute_ms,
        timed_out=move.timed_out,
        by_bot=move.by_bot,
        over=over,
    )
    player = seat_row.player_key

    def receivers() -> None:
        actions_applied.send_robust(
            sender=Table,
            table=locked,
            seat=move.seat,
            player_key=player,
            action=move.action,
            events=events,
            version=result.version,
            view_before=view_before,
            timings={"think_ms": think_ms, "compute_ms": compute_ms},
            timed_out=move.timed_out,
            by_bot=move.by_bot,
        )
        if result.over:
            table_finished.send_robust(sender=Table, table=locked)

    def on_commit() -> None:
        # The table's screens first: the send is handed to the event loop and
        # the sockets start drawing the move. The receivers (a pupil's learning
        # record, in a lesson) run now, or after the mover's own screen is sent
        # when the mover's socket asked for that (``after_reply``).
        try:
            table_changed(
                table_id=move.table_id,
                version=result.version,
                next_due=next_due,
                after=result.snapshot,
                robot=move.by_bot,
            )
        finally:
            receivers_dispatch(receivers)

    return result, on_commit


def _move_record(
    *,
    move: _Move,
    state: Any,
    game_state: GameState,
    seat_row: Seat,
    events: list[dict[str, Any]],
    now: datetime,
) -> tuple[int | None, int | None]:
    """Write the applied move: the new state (compare-and-set), its events, and
    the Move row with its server-measured (think_ms, compute_ms), returned."""
    new_version = game_state.version + 1
    _state_save(move=move, state=state, game_state=game_state, now=now, events=len(events))
    events_record(
        table_id=move.table_id,
        first_seq=game_state.next_seq,
        version=new_version,
        events=events,
    )
    think_ms, compute_ms = _timings(move=move, seat_row=seat_row, game_state=game_state, now=now)
    statements.move_insert(
        table_id=move.table_id,
        seat=move.seat,
        version=new_version,
        nonce=move.nonce,
        action=move.action,
        by_bot=move.by_bot,
        timed_out=move.timed_out,
        think_ms=think_ms,
        compute_ms=compute_ms,
    )
    return think_ms, compute_ms


def _state_save(
    *, move: _Move, state: Any, game_state: GameState, now: datetime, events: int
) -> None:
    """The compare-and-set: whatever the database's locking, only one writer
    turns version v into v + 1 (and numbers the move's ``events`` from
    ``next_seq``); the loser is told its screen was stale."""
    updated = statements.game_state_save(
        table_id=move.table_id,
        version=game_state.version,
        state=move.engine.to_json(state),
        next_seq=game_state.next_seq + events,
        now=now,
    )
    if not updated:
        raise ActionRefused("stale")
