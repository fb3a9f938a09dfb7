"""A player's answer to the game's end-of-game question (a game where each pupil
adds up their own score before it is shown).

The question comes from the game's UI (``ui.get(game).end_question(view)``),
so this module names no game. The answer is kept on the seat's row, next to
the game it answers (``Seat.pending_choice``, unused once a game is over), so
every screen of that seat shows the result and a reconnect loses nothing; the
outer app learns of it through ``end_answer_given`` and keeps its own record.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from cardgames import engines, ui
from cardgames.models import GameState, Seat, Table
from cardgames.parsing import whole_number
from cardgames.services.errors import ActionRefused
from cardgames.signals import end_answer_given

MAX_ANSWER_DIGITS = 3
MAX_COMPUTE_MS = 3_600_000


def end_answer_submit(*, table_id: int, seat: int, answer: Any, player_key: str | None) -> dict[str, Any]:
    """Check ``seat``'s answer against the game's question, once.

    Takes the table's lock (``select_for_update``), then the seat's row, so two
    taps on OK record one answer. Refuses a table not over, a game that asks
    nothing, a seat that has changed hands, a bot, a second answer and anything
    but a whole number. On commit: ``end_answer_given``. Only the answering
    screen redraws (the consumer sends it): the others may be typing theirs."""
    number = whole_number(answer, max_digits=MAX_ANSWER_DIGITS)
    with transaction.atomic():
        try:
            table = Table.objects.select_for_update().get(pk=table_id)
        except Table.DoesNotExist as exc:
            raise ActionRefused("finished") from exc
        game_state = GameState.objects.filter(table=table).first()
        if game_state is None:
            raise ActionRefused("not_started")
        engine = engines.get(table.game)
        state = engine.from_json(game_state.state)
        if not engine.is_over(state):
            raise ActionRefused("no_question", game=table.game)
        row = Seat.objects.select_for_update().filter(table=table, index=seat).first()
        if row is None or row.is_bot:
            raise ActionRefused("spectator")
        if player_key is not None and row.player_key != player_key:
            raise ActionRefused("seat_changed")
        question = ui.get(table.game).end_question(engine.view(state, seat))
        if question is None:
            raise ActionRefused("no_question", game=table.game)
        previous = row.pending_choice if isinstance(row.pending_choice, dict) else {}
        if isinstance(previous.get("end_answer"), dict):
            raise ActionRefused("already_answered", game=table.game)
        if number is None:
            raise ActionRefused("answer_invalid", game=table.game)
        now = timezone.now()
        finished = table.finished_at or game_state.updated_at
        compute_ms = min(MAX_COMPUTE_MS, max(0, int((now - finished).total_seconds() * 1000)))
        total = int(question["total"])
        addends = [int(n) for n in question.get("addends") or []]
        given = {
            "answer": number,
            "correct": number == total,
            "total": total,
            "addends": addends,
            "compute_ms": compute_ms,
        }
        row.pending_choice = {"version": game_state.version, "end_answer": given}
        row.pending_since = now
        row.save(update_fields=["pending_choice", "pending_since"])
        key = row.player_key

        def on_commit() -> None:
            end_answer_given.send_robust(
                sender=Table,
                table=table,
                seat=seat,
                player_key=key,
                addends=addends,
                total=total,
                answer=number,
                correct=number == total,
                compute_ms=compute_ms,
            )

        transaction.on_commit(on_commit)
    return given
