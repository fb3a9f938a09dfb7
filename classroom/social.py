"""What a social game tells a teacher: cardgames' signals → :class:`SocialRecord`.

Purrfect, Pinocchio and Picktura teach by talking and trading, not by a right
answer, so a pupil's table becomes one row of *participation*: trades made,
offers withdrawn, mistaken claims, wrong-count acceptances, score and rank.
It is written when the table finishes (``table_finished``: the game is over,
or the teacher ended it), so a lesson cut short by the bell still counts, as
participation only: such a record is ``completed=False``, with no place and no
win (its scores were not final). A finished game's places are the game's own
end screen's (its adapter's ``report_places``), so the report never tells a
pupil a different place than the tablet did.
The figures come from the engine itself (``result`` and ``game_stats``), so
this module knows no rule: a new game's per-seat figures land in ``details``
by themselves, and its named columns need only a line in ``COLUMNS``.

Both services take a table *id* and read the row themselves: the session is
found from the table's ``group_key``, and a caller holding a half-built
``Table`` (a socket knows only the id and the game) once made every refusal
count silently vanish (issue 46).

A game whose adapter makes learning records (Chasse: ``learning_record``) is
not a social game: its plays are :class:`LearningRecord` rows
(``classroom.learning``), and no figure of a social game ever enters them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from cardgames import engines, ui
from cardgames.models import GameState, Seat, Table
from cardgames.signals import action_refused, table_finished
from classroom import keys
from classroom.models import ClassSession, Pupil, SocialRecord

logger = logging.getLogger(__name__)

# SocialRecord column → the names of the engine's per-seat stats that fill it.
COLUMNS: dict[str, tuple[str, ...]] = {
    "trades": ("trades",),
    "offers_withdrawn": ("withdrawals",),
    "mistaken_claims": ("failed_claims",),
}
# SocialRecord column → the engine refusal codes it counts.
REFUSAL_COLUMNS: dict[str, tuple[str, ...]] = {
    "wrong_count_accepts": ("wrong_count",),
}


def is_social(game: str) -> bool:
    """A registered game whose plays are not learning records (its adapter
    has no ``learning_record``): its tables end in participation rows."""
    return game in engines.names() and ui.get(game).learning_record is None


def _session_and_pupil(group_key: str, player_key: str | None) -> tuple[ClassSession, Pupil] | None:
    pupil_id = keys.pupil_id_from_key(player_key)
    session_id = keys.session_id_from_key(group_key)
    if pupil_id is None or session_id is None:
        return None
    session = ClassSession.objects.filter(pk=session_id).first()
    if session is None:
        return None
    pupil = Pupil.objects.filter(pk=pupil_id, school_class_id=session.school_class_id).first()
    return (session, pupil) if pupil is not None else None


def ranks(result: Mapping[str, Any]) -> dict[int, int]:
    """Seat → place (1 = best) from the engine's ``result``: its ranking order,
    with equal scores of equal standing sharing a place. Only for a game whose
    adapter has no ``report_places`` (see :func:`final_places`)."""
    ranking = list(result.get("ranking") or [])
    scores = list(result.get("scores") or [])
    winners = set(result.get("winners") or [])
    places: dict[int, int] = {}
    previous: tuple[bool, Any] | None = None
    for position, seat in enumerate(ranking):
        standing = (seat in winners, scores[seat] if seat < len(scores) else None)
        places[seat] = places[ranking[position - 1]] if standing == previous else position + 1
        previous = standing
    return places


def final_places(
    *, game: str, engine: Any, state: Any, result: Mapping[str, Any]
) -> dict[int, int]:
    """Seat → place of a finished game, as its end screen showed it: the
    game's adapter ranks the public view (Picktura breaks ties by the cards
    left in hand, Purrfect and Pinocchio share places); a game without one
    falls back on :func:`ranks`."""
    places = ui.get(game).report_places
    if places is None:
        return ranks(result)
    return {int(seat): int(place) for seat, place in places(engine.view(state, None)).items()}


def seat_figures(stats: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """One seat's figures out of ``game_stats()["seat"]`` (lists by seat)."""
    out: dict[str, Any] = {}
    for name, values in (stats.get("seat") or {}).items():
        if isinstance(values, Sequence) and not isinstance(values, str) and seat < len(values):
            out[name] = values[seat]
    return out


def social_records_write(*, table_id: int) -> list[SocialRecord]:
    """Write (or complete) the record of every pupil at a finished social table.

    A game cut short (``engine.is_over`` false) is written ``completed=False``,
    with no place and no win. Idempotent: a second call rewrites the same rows
    with the same figures. Rows are locked while they are completed, since a
    refused move may be counting into one at the same moment."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not is_social(table.game):
        return []
    game_state = GameState.objects.filter(table_id=table.pk).first()
    if game_state is None:
        return []
    engine = engines.get(table.game)
    state = engine.from_json(game_state.state)
    completed = bool(engine.is_over(state))
    result = engine.result(state)
    stats = engine.game_stats(state)
    places = (
        final_places(game=table.game, engine=engine, state=state, result=result)
        if completed
        else {}
    )
    scores = list(result.get("scores") or [])
    winners = set(result.get("winners") or []) if completed else set()
    seats = list(Seat.objects.filter(table_id=table.pk).order_by("index"))
    now = timezone.now()
    written: list[SocialRecord] = []
    for seat in seats:
        found = _session_and_pupil(table.group_key, seat.player_key)
        if found is None:
            continue
        session, pupil = found
        figures = seat_figures(stats, seat.index)
        fields: dict[str, Any] = {
            column: int(sum(int(figures.get(name) or 0) for name in names))
            for column, names in COLUMNS.items()
        }
        fields.update(
            game=table.game,
            players=len(seats),
            score=int(scores[seat.index]) if seat.index < len(scores) else 0,
            rank=places.get(seat.index),
            won=seat.index in winners,
            completed=completed,
            practice=session.practice,
            finished_at=table.finished_at or now,
        )
        with transaction.atomic():
            record = _locked_record(table=table, session=session, pupil=pupil)
            for name, value in fields.items():
                setattr(record, name, value)
            record.details = {
                **(record.details or {}),
                "stats": figures,
                # The table's options (Pinocchio's word language...), for the report.
                "options": dict(table.options or {}),
            }
            record.save()
        written.append(record)
    return written


def _locked_record(*, table: Table, session: ClassSession, pupil: Pupil) -> SocialRecord:
    """The pupil's row for this table, created if need be, locked (call inside
    a transaction)."""
    defaults = {"class_session": session, "game": table.game}
    try:
        with transaction.atomic():
            SocialRecord.objects.get_or_create(table_id=table.pk, pupil=pupil, defaults=defaults)
    except IntegrityError:
        pass  # created by a concurrent call
    return SocialRecord.objects.select_for_update().get(table_id=table.pk, pupil=pupil)


def refusal_count(*, table_id: int, player_key: str | None, code: str) -> SocialRecord | None:
    """Count a move the engine refused, if it is a pupil's at a social table.
    Reads the table (its game and group) and locks the pupil's row of it."""
    table = Table.objects.filter(pk=table_id).only("id", "game", "group_key").first()
    if table is None or not is_social(table.game):
        return None
    found = _session_and_pupil(table.group_key, player_key)
    if found is None:
        return None
    session, pupil = found
    with transaction.atomic():
        record = _locked_record(table=table, session=session, pupil=pupil)
        details = dict(record.details or {})
        refusals = dict(details.get("refusals") or {})
        refusals[code] = int(refusals.get(code) or 0) + 1
        details["refusals"] = refusals
        record.details = details
        for column, codes in REFUSAL_COLUMNS.items():
            if code in codes:
                setattr(record, column, getattr(record, column) + 1)
        record.save()
    return record


def on_table_finished(sender: Any, **kwargs: Any) -> None:
    """A social table that finished (its game over, or ended by the teacher)
    writes its pupils' records. A failure is logged, never raised: the table is
    already finished and the lesson goes on."""
    table = kwargs.get("table")
    if not isinstance(table, Table) or table.pk is None:
        return
    try:
        social_records_write(table_id=table.pk)
    except Exception:
        logger.exception("social records failed for table %s", table.pk)


def on_action_refused(sender: Any, **kwargs: Any) -> None:
    table = kwargs.get("table")
    if not isinstance(table, Table) or table.pk is None:
        return
    try:
        refusal_count(
            table_id=table.pk,
            player_key=kwargs.get("player_key"),
            code=str(kwargs.get("code") or ""),
        )
    except Exception:
        logger.exception("refusal count failed for table %s", table.pk)


def connect() -> None:
    table_finished.connect(on_table_finished, dispatch_uid="classroom.social")
    action_refused.connect(on_action_refused, dispatch_uid="classroom.social.refused")
