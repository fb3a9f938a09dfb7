"""What a Chasse move teaches, for whoever keeps learning records (the
``classroom`` app asks ``ui.get(game)``; it never imports this module).

A Chasse move that asked for a number (an addition or somme card) or that a
robot played for a child whose time ran out is one learning record. The rules
of "what a play teaches" are the engine's own pure helpers (``crossed_ten``,
``error_kind``, ``avoidable``, ``position_penalty``) and its verdict on the
announcement (the event's ``correct``), so a record can never disagree with
the game the child saw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext

from cardgames.engines.chasse import avoidable, crossed_ten, error_kind, position_penalty

# The classroom may deal each pupil's seat the cards of the facts they need
# (the engine's ``focus`` option) ...
TARGETED_CARDS = True
# ... and a pupil may play Chasse alone against robots, outside a lesson.
SOLO_PRACTICE = True

PLAY_EVENTS = ("card_played", "card_discarded")


def _played_event(events: Sequence[Mapping[str, Any]], seat: int) -> Mapping[str, Any] | None:
    """The event that says which card this seat laid down (a play or a discard)."""
    for event in events:
        if event.get("type") in PLAY_EVENTS and event.get("seat") == seat:
            return event
    return None


def learning_record(
    *,
    events: Sequence[Mapping[str, Any]],
    seat: int,
    view_before: Mapping[str, Any],
    timings: Mapping[str, Any],
    timed_out: bool,
) -> dict[str, Any] | None:
    """The learning fields of one move of ``seat`` (its events as the engine
    returned them, the seat's view before the move), or ``None`` when it
    teaches nothing: specials and discards ask for no number, unless the
    child's time ran out (then it is "no answer").

    Whether the announcement was right is the engine's verdict (the event's
    ``correct``), never worked out again here. Pure (no database), so the
    rule sheet's cases are easy to test."""
    event = _played_event(events, seat)
    if event is None:
        return None
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
        verdict = event.get("correct")
        correct = verdict if isinstance(verdict, bool) else None
        if correct is False:
            error = error_kind(after, announced) or ""
    penalty = position_penalty(before, card, target) if played else None  # type: ignore[arg-type]
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
        "avoidable": bool(played and avoidable(before, card, hand, target)),  # type: ignore[arg-type]
        "crossed_ten": bool(played and crossed_ten(before, card)),  # type: ignore[arg-type]
        "error_kind": error,
        "timed_out": timed_out,
    }


def focus_line(entry: Mapping[str, Any]) -> str:
    """What targeted cards practise, in a child's words: "Aujourd'hui : 7 + 8,
    6 + 7 et passer la dizaine". ``entry`` is one entry of the engine's
    ``focus`` option (facts ``[a, b]`` and ``crossing``)."""
    items = [f"{a} + {b}" for a, b in entry.get("facts") or []]
    if entry.get("crossing"):
        items.append(gettext("passer la dizaine"))
    if not items:
        return ""
    listed = items[0]
    if len(items) > 1:
        listed = gettext("%(items)s et %(last)s") % {
            "items": ", ".join(items[:-1]),
            "last": items[-1],
        }
    return gettext("Aujourd'hui : %(list)s") % {"list": listed}
