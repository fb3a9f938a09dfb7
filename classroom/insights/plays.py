"""The one input of every figure: a learning record as a plain value.

``classroom.selectors.records`` loads the rows as :class:`Play`; tests and the
demo-data generator build them directly, so no figure needs a database."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

CardKind = Literal["add", "sub", "special"]
ErrorKind = Literal["tens", "units", "other"]


@dataclass(frozen=True, slots=True)
class Play:
    """One learning record, exactly the fields of ``classroom.learning``'s rows."""

    pupil_id: int
    session_id: int
    table_id: int
    round: int
    total_before: int
    card_kind: CardKind
    card_a: int | None
    card_b: int | None
    card_value: int
    total_after: int
    announced: int | None
    correct: bool | None
    think_ms: int
    compute_ms: int | None
    multiple_of_ten: bool
    reached_target: bool
    avoidable: bool
    crossed_ten: bool
    error_kind: ErrorKind | None
    timed_out: bool
    practice: bool
    created_at: datetime


def is_answer(play: Play) -> bool:
    return play.correct is not None and not play.timed_out
