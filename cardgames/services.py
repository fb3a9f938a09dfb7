"""The only code that changes a game.

Every function takes keyword-only arguments. Functions that change a table's
state take the table's lock first (``select_for_update`` on PostgreSQL; SQLite
serialises writers with ``transaction_mode=IMMEDIATE``) and say so.
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Value
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cardgames import engines
from cardgames.engines.base import BOT_LEVELS, IllegalAction
from cardgames.models import GameEvent, GameState, Move, Seat, Table
from cardgames.signals import action_refused, actions_applied


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
        next_due = _arm_turn(
            table=locked, engine=engine, state=engine.from_json(game_state.state), now=now
        )

    def after() -> None:
        _notify(locked.pk, {"type": "table.seats_changed"})
        _after_change(locked.pk, version, next_due)

    transaction.on_commit(after)
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
    next_due = _arm_turn(table=locked, engine=engine, state=state, now=now)
    transaction.on_commit(lambda: _after_change(locked.pk, 0, next_due))
    return game_state


# =========================================================================== #
# The live runtime: moves, two-step choices, bots, timers, pause and presence.
# =========================================================================== #

logger = logging.getLogger(__name__)

# How many bot moves one ``bot_turns`` call may play before handing back to the
# scheduler: a bot-only table with no delay still yields now and then.
MAX_BOT_MOVES_PER_CALL = 500


def table_group(table_id: int) -> str:
    """The channel-layer group of a table: every seat, the projector and the monitor."""
    return f"table-{table_id}"


# Engine codes (and the runtime's own) mapped to a short French sentence, in one
# place. An unknown code falls back to ``_DEFAULT_REFUSAL``: the engine's English
# message is for developers, never shown to a child.
REFUSAL_MESSAGES: dict[str, Any] = {
    "malformed": _("Ce message n'est pas compris."),
    "too_big": _("Ce message est beaucoup trop long."),
    "unknown_kind": _("Cette demande n'existe pas."),
    "not_your_turn": _("Ce n'est pas ton tour : attends ton tour."),
    "card_not_in_hand": _("Cette carte n'est pas dans ta main."),
    "card_not_playable": _("Une carte somme doit être plus petite que le total."),
    "discard_not_allowed": _("Tu peux jouer une carte : tu ne peux pas la défausser."),
    "announce_required": _("Annonce le nouveau total."),
    "announce_invalid": _("Écris le nouveau total avec des chiffres."),
    "game_over": _("La partie est terminée."),
    "stale": _("Le jeu a changé entre-temps : regarde bien, puis rejoue."),
    "duplicate": _("Ce coup a déjà été envoyé."),
    "paused": _("La partie est en pause : attends le signal de ton enseignant."),
    "finished": _("La partie est terminée."),
    "not_started": _("La partie n'a pas encore commencé."),
    "spectator": _("Tu regardes cette table : tu ne peux pas jouer."),
    "seat_changed": _("Cette place a été donnée à quelqu'un d'autre."),
    "no_choice": _("Choisis d'abord une carte."),
    "offer_taken": _("Quelqu'un a été plus rapide que toi."),
    "not_same_cat": _("Ces cartes ne vont pas ensemble."),
}
_DEFAULT_REFUSAL = _("Ce coup n'est pas possible.")


def refusal_message(code: str) -> str:
    return str(REFUSAL_MESSAGES.get(code, _DEFAULT_REFUSAL))


class ActionRefused(Exception):
    """A refused move or message: nothing changed. ``code`` is stable (tests and
    templates rely on it), ``message`` is the French sentence shown to the child."""

    by_engine = False  # the engine refused it (not the runtime): see ``action_refused``
    player_key: str | None = None

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        self.message = message if message is not None else refusal_message(code)
        super().__init__(f"{code}: {self.message}")


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


def _bot_delay(simultaneous: bool = False) -> timedelta:
    """A bot's human-like pause. In a game where everyone acts at once (no
    turns) bots wait longer, so children can follow and trade too."""
    low, high = settings.SIMULTANEOUS_BOT_DELAY_RANGE if simultaneous else settings.BOT_DELAY_RANGE
    return timedelta(seconds=random.uniform(float(low), float(max(low, high))))


def _ms(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() * 1000))


def _lock_table(table_id: int) -> Table:
    """Lock the table row (PostgreSQL); SQLite's IMMEDIATE transactions already
    serialise writers, and the version compare-and-set guards both."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist as exc:
        raise ActionRefused("finished") from exc


def _arm_turn(
    *, table: Table, engine: Any, state: Any, now: datetime, seats: list[Seat] | None = None
) -> datetime | None:
    """After a change of turn: give the bot to act its think time (kept in the
    database, so a restarted server carries on) and return when the table next
    needs the scheduler (a bot's move or the turn timer), or ``None``.

    ``seats``, when the caller already holds them locked, saves a read."""
    if seats is None:
        seats = list(Seat.objects.filter(table=table).order_by("index"))
    if table.status != Table.Status.PLAYING or engine.is_over(state):
        Seat.objects.filter(table=table, next_think_at__isnull=False).update(next_think_at=None)
        return None
    due: list[datetime] = []
    if engine.simultaneous:
        for seat in seats:
            if not seat.is_bot:
                continue
            acting = bool(engine.legal_actions(state, seat.index))
            if acting and seat.next_think_at is None:
                seat.next_think_at = now + _bot_delay(simultaneous=True)
                seat.save(update_fields=["next_think_at"])
            elif not acting and seat.next_think_at is not None:
                seat.next_think_at = None
                seat.save(update_fields=["next_think_at"])
            if seat.next_think_at is not None:
                due.append(seat.next_think_at)
        return min(due) if due else None
    current = engine.view(state, None).get("current_seat")
    for seat in seats:
        if seat.index == current and seat.is_bot:
            seat.next_think_at = now + _bot_delay()
            seat.save(update_fields=["next_think_at"])
            due.append(seat.next_think_at)
        elif seat.next_think_at is not None:
            seat.next_think_at = None
            seat.save(update_fields=["next_think_at"])
    turn_seconds = table.options.get("turn_seconds") if isinstance(table.options, dict) else None
    if current is not None and not due and turn_seconds:
        due.append(now + timedelta(seconds=int(turn_seconds)))
    return min(due) if due else None


def _notify(table_id: int, message: dict[str, Any]) -> None:
    """Send to the table's group from synchronous code (services run in a thread)."""
    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - a channel layer is always configured
        return
    try:
        # The stamp names this broadcast: the sockets of the table in one process
        # share a single read of the table for it (see consumers.shared_snapshot).
        stamp = secrets.token_hex(8)
        async_to_sync(layer.group_send)(
            table_group(table_id), {**message, "table_id": table_id, "stamp": stamp}
        )
    except Exception:  # pragma: no cover - a broken layer must not undo a committed move
        logger.exception("group_send failed for table %s", table_id)


def _after_change(table_id: int, version: int, next_due: datetime | None) -> None:
    _notify(table_id, {"type": "table.changed", "version": version})
    if next_due is not None:
        from cardgames import runtime

        runtime.schedule(table_id, next_due)


def _version_of(table: Table) -> int:
    return int(GameState.objects.filter(table=table).values_list("version", flat=True).first() or 0)


def card_choose(*, table: Table, seat: int, card: Any, version: Any) -> dict[str, Any]:
    """First half of a two-step move (Chasse: the pupil taps a card). Remembers
    the card and when it was chosen, so ``action_submit`` can split the time into
    thinking (turn start → card) and computing (card → announcement).

    Nothing of the game changes, so no table lock: a choice on a stale version is
    simply refused, and the next render shows the fresh hand."""
    if (
        isinstance(card, bool)
        or not isinstance(card, int)
        or isinstance(version, bool)
        or not isinstance(version, int)
    ):
        raise ActionRefused("malformed")
    game_state = GameState.objects.filter(table_id=table.pk).first()
    fresh = Table.objects.filter(pk=table.pk).values_list("status", flat=True).first()
    if game_state is None or fresh == Table.Status.WAITING:
        raise ActionRefused("not_started")
    if fresh == Table.Status.PAUSED:
        raise ActionRefused("paused")
    if fresh == Table.Status.FINISHED:
        raise ActionRefused("finished")
    engine = engines.get(table.game)
    state = engine.from_json(game_state.state)
    if version != game_state.version:
        raise ActionRefused("stale")
    view = engine.view(state, seat)
    if view.get("current_seat") not in (None, seat) and not engine.simultaneous:
        raise ActionRefused("not_your_turn")
    if not any(isinstance(c, dict) and c.get("id") == card for c in view.get("hand") or []):
        raise ActionRefused("card_not_in_hand")
    choice = {"card": card, "version": version}
    Seat.objects.filter(table_id=table.pk, index=seat).update(
        pending_choice=choice, pending_since=timezone.now()
    )
    return choice


def card_choice_clear(*, table: Table, seat: int) -> None:
    """The pupil changed their mind: forget the chosen card (the clock keeps
    running from the first choice of this turn only if they choose again)."""
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
    Move with the server-measured timings. On commit: ``actions_applied``, then
    ``table.changed`` to every consumer of the table, then the next bot/timer is
    scheduled. ``player_key``, when given, must still own the seat (a teacher may
    have given it to someone else since the page was drawn)."""
    if not isinstance(nonce, str) or not 1 <= len(nonce) <= 64:
        raise ActionRefused("malformed")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise ActionRefused("malformed")
    engine = engines.get(table.game)
    try:
        with transaction.atomic():
            result, on_commit = _action_submit_locked(
                table_id=table.pk,
                engine=engine,
                seat=seat,
                action=action,
                version=version,
                nonce=nonce,
                timed_out=timed_out,
                by_bot=by_bot,
                player_key=player_key,
            )
            transaction.on_commit(on_commit)
    except IntegrityError as exc:
        # Two submissions with one nonce raced past the existence check (only
        # possible without row locks): the unique constraint settles it.
        raise ActionRefused("duplicate") from exc
    except ActionRefused as refused:
        if refused.by_engine and not by_bot:
            # Outside the rolled-back transaction: a receiver may write.
            action_refused.send_robust(
                sender=Table,
                table=table,
                seat=seat,
                player_key=refused.player_key,
                action=action,
                code=refused.code,
            )
        raise
    if result.over:
        table.status = Table.Status.FINISHED
    return result


def _action_submit_locked(
    *,
    table_id: int,
    engine: Any,
    seat: int,
    action: dict[str, Any],
    version: int | None,
    nonce: str,
    timed_out: bool,
    by_bot: bool,
    player_key: str | None,
) -> tuple[ActionResult, Any]:
    locked = _lock_table(table_id)
    if locked.status == Table.Status.PAUSED:
        raise ActionRefused("paused")
    if locked.status == Table.Status.FINISHED:
        raise ActionRefused("finished")
    if locked.status == Table.Status.WAITING:
        raise ActionRefused("not_started")
    game_state = GameState.objects.select_for_update().get(table_id=table_id)
    # All seats in one read: the acting seat is checked here, and the turn is
    # re-armed from the same rows below (one query instead of several).
    seats = list(Seat.objects.select_for_update().filter(table_id=table_id).order_by("index"))
    seat_row = next((row for row in seats if row.index == seat), None)
    if seat_row is None:
        raise ActionRefused("malformed")
    if player_key is not None and seat_row.player_key != player_key:
        raise ActionRefused("seat_changed")
    if Move.objects.filter(table_id=table_id, nonce=nonce).exists():
        raise ActionRefused("duplicate")
    current_version = game_state.version
    if version is None:
        if not engine.simultaneous:
            raise ActionRefused("malformed")
    elif version != current_version and not engine.simultaneous:
        raise ActionRefused("stale")
    state = engine.from_json(game_state.state)
    view_before = engine.view(state, seat)
    last_seq = GameEvent.objects.filter(table_id=table_id).aggregate(m=Max("seq"))["m"]
    seq_start = 0 if last_seq is None else last_seq + 1
    try:
        events = engine.apply(state, seat, action)
    except IllegalAction as exc:
        refused = ActionRefused(exc.code)
        refused.by_engine = True
        refused.player_key = seat_row.player_key
        raise refused from exc
    now = timezone.now()
    new_version = current_version + 1
    over = engine.is_over(state)
    # The compare-and-set: whatever the database's locking, only one writer
    # turns version v into v + 1.
    updated = GameState.objects.filter(table_id=table_id, version=current_version).update(
        state=engine.to_json(state), version=new_version, turn_started_at=now, updated_at=now
    )
    if updated != 1:
        raise ActionRefused("stale")
    GameEvent.objects.bulk_create(
        GameEvent(
            table_id=table_id,
            seq=seq_start + offset,
            version=new_version,
            seat=event.get("seat") if isinstance(event.get("seat"), int) else None,
            kind=str(event.get("type", ""))[:32],
            payload=event,
            visible_to=event.get("to"),
        )
        for offset, event in enumerate(events)
    )
    think_ms: int | None = None
    compute_ms: int | None = None
    if not by_bot and game_state.turn_started_at is not None:
        choice = seat_row.pending_choice if isinstance(seat_row.pending_choice, dict) else None
        since = seat_row.pending_since
        if (
            choice is not None
            and since is not None
            and choice.get("version") == current_version
            and choice.get("card") == (action.get("card") if isinstance(action, dict) else None)
        ):
            think_ms = _ms(since - game_state.turn_started_at)
            compute_ms = _ms(now - since)
        else:
            think_ms = _ms(now - game_state.turn_started_at)
    Move.objects.create(
        table_id=table_id,
        seat=seat,
        version=new_version,
        nonce=nonce,
        action=action,
        by_bot=by_bot,
        timed_out=timed_out,
        think_ms=think_ms,
        compute_ms=compute_ms,
    )
    if any(row.pending_choice is not None for row in seats):
        Seat.objects.filter(table_id=table_id, pending_choice__isnull=False).update(
            pending_choice=None, pending_since=None
        )
        for row in seats:
            row.pending_choice = row.pending_since = None
    if over:
        locked.status = Table.Status.FINISHED
        locked.finished_at = now
        locked.save(update_fields=["status", "finished_at"])
    if engine.simultaneous and seat_row.is_bot and seat_row.next_think_at is not None:
        # The bot has just acted: its next move waits a fresh pause, or bots
        # would trade at machine speed in a game where nobody waits a turn.
        seat_row.next_think_at = None
        Seat.objects.filter(pk=seat_row.pk).update(next_think_at=None)
    next_due = _arm_turn(table=locked, engine=engine, state=state, now=now, seats=seats)
    result = ActionResult(
        table_id=table_id,
        seat=seat,
        version=new_version,
        events=events,
        think_ms=think_ms,
        compute_ms=compute_ms,
        timed_out=timed_out,
        by_bot=by_bot,
        over=over,
    )
    player = seat_row.player_key

    def on_commit() -> None:
        try:
            actions_applied.send_robust(
                sender=Table,
                table=locked,
                seat=seat,
                player_key=player,
                action=action,
                events=events,
                version=new_version,
                view_before=view_before,
                timings={"think_ms": think_ms, "compute_ms": compute_ms},
                timed_out=timed_out,
                by_bot=by_bot,
            )
        finally:
            _after_change(table_id, new_version, next_due)

    return result, on_commit


def _due_moves(
    *,
    table: Table,
    engine: Any,
    state: Any,
    seats: list[Seat],
    started: datetime | None,
    now: datetime,
) -> tuple[list[tuple[int, bool]], datetime | None]:
    """Which seats a bot must play for now, and when the next one falls due."""
    due_now: list[tuple[int, bool]] = []
    later: list[datetime] = []
    if engine.simultaneous:
        for seat in seats:
            if seat.is_bot and engine.legal_actions(state, seat.index):
                at = seat.next_think_at or now
                (due_now.append((seat.index, False)) if at <= now else later.append(at))
        return due_now, min(later) if later else None
    current = engine.view(state, None).get("current_seat")
    if current is None or not 0 <= current < len(seats):
        return [], None
    seat = seats[current]
    if seat.is_bot:
        at = seat.next_think_at or now
    else:
        turn_seconds = (
            table.options.get("turn_seconds") if isinstance(table.options, dict) else None
        )
        if not turn_seconds or started is None:
            return [], None
        at = started + timedelta(seconds=int(turn_seconds))
    if at <= now:
        return [(current, not seat.is_bot)], None
    return [], at


@dataclass
class _Pending:
    table: Table
    game_state: GameState
    engine: Any
    state: Any
    seats: list[Seat]
    now: datetime
    due: list[tuple[int, bool]]
    next_due: datetime | None


def _pending_moves(table_id: int) -> _Pending | None:
    """Read a playing table and the moves due now (bots, timeouts); ``None``
    when the table is gone, not playing, or over. Shared by ``bot_turns`` and
    ``table_next_due`` so both judge "due" from the same read."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.status != Table.Status.PLAYING:
        return None
    game_state = GameState.objects.filter(table=table).first()
    if game_state is None:
        return None
    engine = engines.get(table.game)
    state = engine.from_json(game_state.state)
    if engine.is_over(state):
        return None
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    now = timezone.now()
    due, next_due = _due_moves(
        table=table,
        engine=engine,
        state=state,
        seats=seats,
        started=game_state.turn_started_at,
        now=now,
    )
    return _Pending(table, game_state, engine, state, seats, now, due, next_due)


def bot_turns(*, table_id: int) -> datetime | None:
    """Play every bot move that is due at ``table_id``: a bot seat whose think
    time has come, or a pupil whose turn timer ran out (then the seat's bot level
    plays for them and the move is flagged ``timed_out``).

    Every move goes through ``action_submit`` with a nonce derived from the
    version, so two runs racing each other (two workers, a reconnect) apply it
    once. Returns when the table next needs a run, or ``None``."""
    for _attempt in range(MAX_BOT_MOVES_PER_CALL):
        pending = _pending_moves(table_id)
        if pending is None:
            return None
        table, game_state, engine, state = (
            pending.table,
            pending.game_state,
            pending.engine,
            pending.state,
        )
        seats, now, due, next_due = pending.seats, pending.now, pending.due, pending.next_due
        if not due:
            return next_due
        played = False
        for index, timed_out in due:
            seat = seats[index]
            legal = engine.legal_actions(state, index)
            if not legal:
                continue
            rng = random.Random(f"{table.seed}:{index}:{game_state.version}")
            bot = engine.bot(seat.bot_level if seat.bot_level in BOT_LEVELS else "medium")
            action = bot(engine.view(state, index), legal, rng, engine.history(state, index))
            if action is None:
                Seat.objects.filter(pk=seat.pk).update(next_think_at=now + _bot_delay())
                continue
            try:
                action_submit(
                    table=table,
                    seat=index,
                    action=action,
                    version=game_state.version,
                    nonce=f"bot-{game_state.version}-{index}",
                    timed_out=timed_out,
                    by_bot=True,
                )
            except ActionRefused as refused:
                # Another run, or the pupil at the last second, got there first.
                logger.debug("bot move at table %s refused: %s", table_id, refused.code)
            played = True
            break
        if not played:
            return _earliest_think(table_id)
    return timezone.now()


def _earliest_think(table_id: int) -> datetime | None:
    return (
        Seat.objects.filter(table_id=table_id, next_think_at__isnull=False)
        .order_by("next_think_at")
        .values_list("next_think_at", flat=True)
        .first()
    )


def table_next_due(*, table_id: int) -> datetime | None:
    """When the table next needs the scheduler, read from the database only, so
    any connect after a restart can reschedule a table that waits on a bot."""
    pending = _pending_moves(table_id)
    if pending is None:
        return None
    return pending.now if pending.due else pending.next_due


def _set_status(*, table: Table, status: str, allowed_from: tuple[str, ...]) -> Table:
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
            next_due = _arm_turn(
                table=locked, engine=engine, state=engine.from_json(game_state.state), now=now
            )
        elif status != Table.Status.PLAYING:
            Seat.objects.filter(table=locked).update(next_think_at=None)
        version = game_state.version if game_state is not None else 0
        transaction.on_commit(lambda: _after_change(locked.pk, version, next_due))
    table.status = locked.status
    table.finished_at = locked.finished_at
    return locked


def table_pause(*, table: Table) -> Table:
    """Pause a playing table: moves are refused with a message, bots and the turn
    timer stop. Takes the table lock."""
    return _set_status(
        table=table, status=Table.Status.PAUSED, allowed_from=(Table.Status.PLAYING,)
    )


def table_resume(*, table: Table) -> Table:
    """Resume a paused table; the turn timer starts again. Takes the table lock."""
    return _set_status(
        table=table, status=Table.Status.PLAYING, allowed_from=(Table.Status.PAUSED,)
    )


def table_end(*, table: Table) -> Table:
    """End a table early (the bell rang). Its log stays, so it can be replayed.
    Takes the table lock."""
    return _set_status(
        table=table,
        status=Table.Status.FINISHED,
        allowed_from=(Table.Status.WAITING, Table.Status.PLAYING, Table.Status.PAUSED),
    )


def tables_close_sockets(*, table_ids: list[int], reason: str = "") -> None:
    """Ask every socket of these tables to say goodbye and close (the teacher
    ended the session and the pupils are logged out). Sent after commit."""

    def send() -> None:
        for table_id in table_ids:
            _notify(table_id, {"type": "table.close", "reason": reason})

    transaction.on_commit(send)


def seat_presence(*, table_id: int, seat: int, delta: int) -> None:
    """Count a socket opening (+1) or closing (-1) on a seat, for the monitor's
    "connected" dot. A counter, not a flag: a pupil may open two tabs."""
    Seat.objects.filter(table_id=table_id, index=seat).update(
        connections=Greatest(F("connections") + delta, Value(0)), last_seen_at=timezone.now()
    )
    transaction.on_commit(lambda: _notify(table_id, {"type": "table.presence", "seat": seat}))
