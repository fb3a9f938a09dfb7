"""What adding up one's own score teaches: cardgames' ``end_answer_given`` →
:class:`ScoreSumRecord`.

After a Picktura game each pupil adds up their exhibits before the score is
shown (the table's question comes from the game's UI). The answer is an
arithmetic attempt of its own kind ("addition de scores"), never mixed with
the Chasse running-total records: those figures stay exactly as they were.
Bots and tables outside a class session leave no row. The signal may in
theory come twice; the ``(table_id, pupil)`` constraint keeps one row.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import IntegrityError, transaction

from cardgames.models import Table
from cardgames.signals import end_answer_given
from classroom.keys import pupil_id_from_key, session_id_from_key
from classroom.models import ClassSession, Pupil, ScoreSumRecord

logger = logging.getLogger(__name__)


def score_sum_record(
    *,
    table: Table,
    player_key: str | None,
    addends: list[int],
    total: int,
    answer: int,
    correct: bool,
    compute_ms: int | None,
) -> ScoreSumRecord | None:
    """Keep one pupil's score sum (``None`` for a bot or a table of no class
    session). A new row, no lock: the unique constraint settles a duplicate."""
    pupil_id = pupil_id_from_key(player_key)
    session_id = session_id_from_key(table.group_key)
    if pupil_id is None or session_id is None:
        return None
    session = ClassSession.objects.filter(pk=session_id).only("pk", "school_class_id").first()
    pupil = Pupil.objects.filter(pk=pupil_id).only("pk", "school_class_id").first()
    if session is None or pupil is None or pupil.school_class_id != session.school_class_id:
        return None
    try:
        with transaction.atomic():
            return ScoreSumRecord.objects.create(
                pupil=pupil,
                class_session=session,
                table_id=table.pk,
                game=table.game,
                addends=[int(n) for n in addends],
                sum=int(total),
                answer=int(answer),
                correct=bool(correct),
                compute_ms=compute_ms,
            )
    except IntegrityError:
        return ScoreSumRecord.objects.filter(table_id=table.pk, pupil=pupil).first()


def on_end_answer_given(sender: Any, **kwargs: Any) -> None:
    score_sum_record(
        table=kwargs["table"],
        player_key=kwargs.get("player_key"),
        addends=list(kwargs.get("addends") or []),
        total=int(kwargs["total"]),
        answer=int(kwargs["answer"]),
        correct=bool(kwargs["correct"]),
        compute_ms=kwargs.get("compute_ms"),
    )


def connect() -> None:
    end_answer_given.connect(on_end_answer_given, dispatch_uid="classroom.score_sums")
