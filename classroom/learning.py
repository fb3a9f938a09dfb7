"""What a play teaches: cardgames' ``actions_applied`` → :class:`LearningRecord`.

``cardgames`` knows tables and opaque player keys only; this module is where a
Chasse move of a *pupil* at a *class session's* table becomes one row that
teachers and parents read. The rules of "what a play teaches" are the engine's
own pure helpers (``crossed_ten``, ``error_kind``, ``avoidable``,
``position_penalty``), so the record can never disagree with the game.

One row per announcement (an addition or somme card played by a pupil) or per
timeout of a pupil (a bot played for them: counted as "no answer"). Specials
and discards ask for no number, so they teach no arithmetic and leave no row,
unless they were a timeout. Bots get none.

The signal arrives after commit and may in theory be delivered twice; the
``(table_id, move_version, pupil)`` unique constraint keeps one row per move.

Each record of a lesson is then pushed to the teacher's monitor (no query:
the row travels in the message), which marks a pupil who needs help now.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.db import IntegrityError, connection, transaction

from cardgames.engines import chasse
from cardgames.models import Table
from cardgames.signals import actions_applied
from classroom.keys import pupil_id_from_key, session_id_from_key
from classroom.models import ClassSession, LearningRecord, Pupil
from classroom.selectors.summaries import summary_record
from classroom.services.monitor import help_play_notify

logger = logging.getLogger(__name__)

GAME = "chasse"


def _played_event(events: Sequence[Mapping[str, Any]], seat: int) -> Mapping[str, Any] | None:
    """The event that says which card this seat laid down (a play or a discard)."""
    for event in events:
        if event.get("type") in ("card_played", "card_discarded") and event.get("seat") == seat:
            return event
    return None


def record_fields(
    *,
    event: Mapping[str, Any],
    view_before: Mapping[str, Any],
    timings: Mapping[str, Any],
    timed_out: bool,
) -> dict[str, Any] | None:
    """The learning fields of one move, or ``None`` when it teaches nothing.

    Pure (no database), so the rule sheet's cases are easy to test."""
    card = event.get("card")
    if not isinstance(card, Mapping):
        return None
    kind = card.get("kind")
    played = event.get("type") == "card_played"
    if not timed_out and (not played or kind not in ("add", "sub")):
        return None  # specials and discards: no number was asked
    before = int(view_before.get("total") or 0)
    after = int(event["after"]) if played else before
    target = int(view_before.get("target") or 100)
    hand = [c for c in view_before.get("hand") or [] if isinstance(c, Mapping)]
    announced = event.get("announced") if played and not timed_out else None
    correct: bool | None = None
    error = ""
    if isinstance(announced, int):
        correct = announced == after
        error = chasse.error_kind(after, announced) or ""
    penalty = chasse.position_penalty(before, card, target) if played else None  # type: ignore[arg-type]
    think = timings.get("think_ms")
    compute = timings.get("compute_ms")
    return {
        "round": int(view_before.get("round") or 1),
        "total_before": before,
        "card_kind": str(kind),
        "card_a": card.get("a"),
        "card_b": card.get("b"),
        "card_value": int(card.get("value") or 0),
        "total_after": after,
        "announced": announced,
        "correct": correct,
        "think_ms": think if isinstance(think, int) else None,
        "compute_ms": compute if isinstance(compute, int) else None,
        "multiple_of_ten": penalty == "multiple_of_ten",
        "reached_target": penalty == "reached_target",
        "avoidable": bool(played and chasse.avoidable(before, card, hand, target)),  # type: ignore[arg-type]
        "crossed_ten": bool(played and chasse.crossed_ten(before, card)),  # type: ignore[arg-type]
        "error_kind": error,
        "timed_out": timed_out,
    }


def record_move(
    *,
    table: Table,
    seat: int,
    player_key: str | None,
    events: Sequence[Mapping[str, Any]],
    version: int,
    view_before: Mapping[str, Any],
    timings: Mapping[str, Any],
    timed_out: bool,
    by_bot: bool,
) -> LearningRecord | None:
    """Write the learning record of one applied move, if it is a pupil's.

    Idempotent: a second delivery of the same move finds the row and returns it."""
    if table.game != GAME or (by_bot and not timed_out):
        return None
    pupil_id = pupil_id_from_key(player_key)
    session_id = session_id_from_key(table.group_key)
    if pupil_id is None or session_id is None:
        return None
    event = _played_event(events, seat)
    if event is None:
        return None
    fields = record_fields(
        event=event, view_before=view_before, timings=timings, timed_out=timed_out
    )
    if fields is None:
        return None
    # The session and the pupil's place in its class in one read: a key of a
    # pupil deleted meanwhile, or of another class, matches nothing.
    practice = _session_practice(session_id=session_id, pupil_id=pupil_id)
    if practice is None:
        return None
    fields["practice"] = practice
    # This runs on the worker's database thread after every move of a lesson
    # (once the mover's screen is sent, ``services.after_reply``): one short transaction
    # (the row, and dropping the session's cached summaries so the next report
    # rebuilds them), not a lookup before the insert, a savepoint and a second
    # transaction for the summaries (measured: 11 statements and 2.7 ms a
    # move, now 5).
    try:
        with transaction.atomic():
            record = LearningRecord.objects.create(
                table_id=table.pk,
                move_version=version,
                pupil_id=pupil_id,
                class_session_id=session_id,
                **fields,
            )
            summary_record(record)
    except IntegrityError:
        # A second delivery of the same move: the row is there already.
        record = LearningRecord.objects.get(table_id=table.pk, move_version=version, pupil_id=pupil_id)
    if not record.practice:
        help_play_notify(record=record)
    return record


@lru_cache(maxsize=4)
def _practice_sql(vendor: str) -> str:
    """The record's one read, written once from the models' metadata. Built
    by the ORM on every move of a lesson (a join through the class) it cost
    more to build than to run: py-spy on the 40-socket benchmark put the
    record at more of the database thread than the move itself, and a
    quarter of the record was building this query."""
    session, pupil = ClassSession._meta, Pupil._meta
    q = connection.ops.quote_name
    return (
        f"SELECT s.{q(session.get_field('practice').column)}"
        f" FROM {q(session.db_table)} s"
        f" INNER JOIN {q(pupil.db_table)} p"
        f" ON p.{q(pupil.get_field('school_class').column)}"
        f" = s.{q(session.get_field('school_class').column)}"
        f" WHERE s.{q(session.pk.column)} = %s AND p.{q(pupil.pk.column)} = %s"
    )


def _session_practice(*, session_id: int, pupil_id: int) -> bool | None:
    """Whether the session is solo practice; ``None`` when the pupil is not
    of that session's class (or either is gone)."""
    with connection.cursor() as cursor:
        cursor.execute(_practice_sql(connection.vendor), [session_id, pupil_id])
        row = cursor.fetchone()
    return None if row is None else bool(row[0])


def on_actions_applied(sender: Any, **kwargs: Any) -> None:
    """Receiver of ``actions_applied``. A failure is logged, never raised: the
    move is already committed and the child's game must go on."""
    try:
        record_move(
            table=kwargs["table"],
            seat=kwargs["seat"],
            player_key=kwargs.get("player_key"),
            events=kwargs.get("events") or [],
            version=int(kwargs.get("version") or 0),
            view_before=kwargs.get("view_before") or {},
            timings=kwargs.get("timings") or {},
            timed_out=bool(kwargs.get("timed_out")),
            by_bot=bool(kwargs.get("by_bot")),
        )
    except Exception:
        logger.exception(
            "learning record failed for table %s", getattr(kwargs.get("table"), "pk", "?")
        )


def connect() -> None:
    actions_applied.connect(on_actions_applied, dispatch_uid="classroom.learning")
