"""What one message of a table's socket does, and what the socket says back.

The consumer (``cardgames/consumers.py``) keeps only the socket: it decodes a
message (``cardgames.wire``), checks the socket's access is still current
(``cardgames.revocation``), and hands the message here, on the database
thread. Here the message is checked and carried out through the services:

- ``sync``: the tablet asks for its whole screen again;
- ``choose`` / ``cancel``: the first step of a two-step game (a card chosen,
  then played), refused by a game without that step;
- ``act``: a move, through ``action_submit``;
- ``answer``: the seat's answer to the game's end-of-game question.

A refusal that means "your screen is out of date" (``RERENDER_CODES``) comes
with the fresh screen; any other only with its sentence, in the game's words.
The reply names the snapshot to draw; drawing it is the socket's business
(off this thread, ``cardgames/live_screens.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardgames import ui
from cardgames.engines.base import IllegalAction
from cardgames.models import Table
from cardgames.parsing import whole_number
from cardgames.services.after_reply import Receivers, receivers_after_reply
from cardgames.services.answers import end_answer_submit
from cardgames.services.errors import ActionRefused, refusal_message
from cardgames.services.moves import action_submit, card_choice_clear, card_choose
from cardgames.services.notify import broadcast_stamp_take
from cardgames.snapshot import Snapshot, snapshot

# Refusals that mean "your screen is out of date": the fresh one goes with them.
RERENDER_CODES = ("stale", "not_your_turn", "paused", "finished", "seat_changed")
KINDS = ("sync", "choose", "cancel", "act", "answer")


@dataclass(frozen=True)
class Reply:
    """What the socket sends back: its table shown again (``show``: ``snap``,
    with ``notice`` in the notice line), or only ``notice``, or nothing."""

    notice: str = ""
    show: bool = False
    snap: Snapshot | None = None
    # The tablet asked for everything: its whole screen, not what changed.
    whole: bool = False
    # The broadcast of the move this answers: its read and renders are shared.
    stamp: str | None = None
    # The move's receivers (the learning record), run once this screen is sent.
    later: tuple[Receivers, ...] = ()


def refusal_say(*, code: str, game: str) -> Reply:
    """A refusal's sentence alone, in the table's game's words."""
    return Reply(notice=refusal_message(code=code, game=game))


def message_handle(
    *, table_id: int, game: str, seat: int | None, player_key: str | None, data: dict[str, Any]
) -> Reply:
    """One decoded message of a socket at ``table_id`` (a game of ``game``),
    whose viewer sits at ``seat`` (``None``: a spectator) as ``player_key``.
    Only database work: the services it calls lock and check the table
    themselves. After an applied move the reply is the mover's own new screen,
    drawn before the broadcast reaches the others."""
    try:
        return _handle(table_id=table_id, game=game, seat=seat, player_key=player_key, data=data)
    except ActionRefused as refused:
        return refusal_say(code=refused.code, game=refused.game or game)


def _whole(value: Any) -> int:
    """Form values arrive as strings; anything but a plain whole number is malformed."""
    number = whole_number(value, max_digits=12)
    if number is None:
        raise ActionRefused("malformed")
    return number


def _handle(
    *, table_id: int, game: str, seat: int | None, player_key: str | None, data: dict[str, Any]
) -> Reply:
    kind = data.get("kind")
    if kind == "sync":
        return Reply(show=True, snap=snapshot(table_id), whole=True)
    if kind not in KINDS:
        raise ActionRefused("unknown_kind")
    if seat is None:
        raise ActionRefused("spectator")
    # The services need the table's id and game, both known since connect:
    # no read here (they lock and check the table themselves).
    table = Table(pk=table_id, game=game)
    if kind in ("choose", "cancel") and not ui.get(game).two_step:
        # Only a two-step game (a card chosen, then the move) has a choice.
        raise ActionRefused("unknown_kind")
    if kind == "cancel":
        card_choice_clear(table=table, seat=seat)
        return _fresh(table_id)
    if kind == "answer":
        # After the game: the seat's answer to the game's own question.
        try:
            end_answer_submit(
                table_id=table_id, seat=seat, answer=data.get("answer"), player_key=player_key
            )
        except ActionRefused as refused:
            return _refusal(refused, table_id=table_id, game=game)
        return _fresh(table_id)
    version = _whole(data.get("version"))
    if kind == "choose":
        card = _whole(data.get("card"))
        # One read, for the choice and for the screen it opens.
        snap = snapshot(table_id)
        try:
            card_choose(table=table, seat=seat, card=card, version=version, snap=snap)
        except ActionRefused as refused:
            return _refusal(refused, table_id=table_id, game=game, snap=snap)
        return Reply(show=True, snap=snap)
    return _act(table=table, seat=seat, player_key=player_key, version=version, data=data)


def _act(
    *, table: Table, seat: int, player_key: str | None, version: int, data: dict[str, Any]
) -> Reply:
    """A move: the form read into the game's action, then submitted."""
    nonce = data.get("nonce")
    if not isinstance(nonce, str):
        raise ActionRefused("malformed")
    try:
        action = ui.get(table.game).form_to_action(data)
    except IllegalAction as exc:
        raise ActionRefused(exc.code, game=table.game) from exc
    try:
        # The move's receivers wait for the mover's screen (the consumer's ``receive``).
        with receivers_after_reply() as later:
            result = action_submit(
                table=table,
                seat=seat,
                action=action,
                version=version,
                nonce=nonce,
                player_key=player_key,
            )
    except ActionRefused as refused:
        if refused.code in RERENDER_CODES:
            return _refusal(refused, table_id=table.pk, game=table.game)
        # The engine's refusal, in the game's words (some with context).
        return Reply(notice=refusal_text(snapshot(table.pk), seat, refused.code, action))
    stamp = broadcast_stamp_take(table_id=table.pk)
    # The mover's new screen is drawn from the table as the move committed
    # it (no second read): the very snapshot the broadcast's sockets here
    # draw from, so their screens share its parts.
    return Reply(show=True, snap=result.snapshot, stamp=stamp, later=tuple(later))


def _refusal(
    refused: ActionRefused, *, table_id: int, game: str, snap: Snapshot | None = None
) -> Reply:
    """When the screen was out of date, the fresh one goes with the notice
    (``snap`` when the table was read just now); otherwise only the notice."""
    said = refusal_say(code=refused.code, game=refused.game or game)
    if refused.code in RERENDER_CODES:
        if snap is not None:
            return Reply(show=True, snap=snap, notice=said.notice)
        return _fresh(table_id, notice=said.notice)
    return said


def _fresh(table_id: int, notice: str = "") -> Reply:
    return Reply(show=True, snap=snapshot(table_id), notice=notice)


def refusal_text(snap: Snapshot | None, seat: int | None, code: str, action: Any) -> str:
    """The sentence for a refused move, in the table's game's words; some say
    more from what this seat may know (who was faster, which meow to read)."""
    if snap is None:
        return ui.generic.refusal_message(code)
    adapter = ui.get(snap.table.game)
    if snap.state is not None and seat is not None and isinstance(action, dict):
        text = adapter.explain_refusal(
            code,
            action=action,
            view=snap.engine.view(snap.state, seat),
            history=snap.engine.history(snap.state, seat),
            seat_names=snap.seat_names,
        )
        if text:
            return text
    return adapter.refusal_message(code)
