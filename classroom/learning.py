"""What a play teaches: cardgames' ``actions_applied`` → :class:`LearningRecord`.

``cardgames`` knows tables and opaque player keys only; this module is where a
move of a *pupil* at a *class session's* table becomes one row that teachers
and parents read. Which moves teach and what they record is the game's own
word: its adapter's ``learning_record`` (``cardgames.ui.get(game)``), built on
the engine's helpers and its verdict on the answer (``correct``), so the
record can never disagree with the game. A game without one (the social
games) leaves no learning record. Bots get none; a pupil's timeout (a bot
played for them) is the game's to record as "no answer".

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

from cardgames import ui
from cardgames.models import Table
from cardgames.signals import actions_applied
from classroom.keys import pupil_id_from_key, session_id_from_key
from classroom.models import ClassSession, LearningRecord, Pupil
from classroom.services.monitor import help_play_notify
from classroom.services.summaries import summaries_drop

logger = logging.getLogger(__name__)


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
    learning_record = ui.get(table.game).learning_record
    if learning_record is None or (by_bot and not timed_out):
        return None
    pupil_id = pupil_id_from_key(player_key)
    session_id = session_id_from_key(table.group_key)
    if pupil_id is None or session_id is None:
        return None
    fields = learning_record(
        events=events,
        seat=seat,
        view_before=view_before,
        timings=timings,
        timed_out=timed_out,
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
    # transaction for the summaries (``tests/classroom/test_learning.py`` counts
    # the statements).
    try:
        with transaction.atomic():
            record = LearningRecord.objects.create(
                table_id=table.pk,
                move_version=version,
                pupil_id=pupil_id,
                class_session_id=session_id,
                **fields,
            )
            summaries_drop(class_session_id=session_id)
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
    more to build than to run: the record took more of the database thread
    than the move itself (``docs/performance.md``)."""
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
