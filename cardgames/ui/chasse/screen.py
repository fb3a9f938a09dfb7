"""The Chasse tablet screen: which cards can be tapped and the announce
panel, feedback on the child's own announcement, the latest events explained
in plain French, and the final ranking."""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext

from cardgames.engines.chasse import announce_choices
from cardgames.ui.chasse.cards import decorate
from cardgames.ui.chasse.learning import PLAY_EVENTS, focus_line
from cardgames.ui.chasse.sentences import explain_move, sum_text
from cardgames.ui.generic import medal, seat_name


def _choice_seed(seed: int, version: int, card: int) -> int:
    # Same screen, same three totals: a re-render must not reshuffle them.
    return zlib.crc32(f"{seed}:{version}:{card}".encode())


def _announce_panel(
    *,
    view: Mapping[str, Any],
    chosen: dict[str, Any],
    discard_only: bool,
    seed: int,
    version: int,
) -> dict[str, Any]:
    """The panel under the chosen card: discard or play it, and how the new
    total is given (typed, one of three, or nothing to say)."""
    mode = (view.get("options") or {}).get("announce", "typed")
    needs_number = not discard_only and chosen.get("kind") != "special" and mode != "shown"
    return {
        "card": chosen,
        "move": "discard" if discard_only else "play",
        "mode": mode if needs_number else "none",
        "choices": (
            announce_choices(
                int(view.get("total", 0)),
                chosen,
                _choice_seed(seed, version, int(chosen["id"])),
            )
            if needs_number and mode == "choice"
            else []
        ),
        "before": view.get("total"),
    }


def seat_context(
    *,
    view: Mapping[str, Any],
    legal: list[dict[str, Any]],
    choice: Mapping[str, Any] | None,
    seed: int,
    version: int,
) -> dict[str, Any]:
    """Which cards can be tapped, and the announce panel for the chosen one."""
    hand = [decorate(card) for card in view.get("hand") or []]
    discard_only = bool(legal) and all(action.get("type") == "discard" for action in legal)
    legal_ids = {action.get("card") for action in legal}
    legal_effects = {
        card.get("effect")
        for card in hand
        if card.get("kind") == "special" and card.get("id") in legal_ids
    }
    for card in hand:
        card["legal"] = card.get("id") in legal_ids or (
            card.get("kind") == "special" and card.get("effect") in legal_effects
        )
    chosen = None
    if choice is not None:
        chosen = next(
            (card for card in hand if card.get("id") == choice.get("card") and card["legal"]), None
        )
    for card in hand:
        card["chosen"] = chosen is not None and card.get("id") == chosen.get("id")
    options = view.get("options") or {}
    panel = (
        _announce_panel(
            view=view, chosen=chosen, discard_only=discard_only, seed=seed, version=version
        )
        if chosen is not None
        else None
    )
    last = view.get("last_card")
    own_focus = options.get("focus") or []
    tokens = view.get("tokens") or []
    counts = view.get("hand_counts") or []
    return {
        # Each seat's white cards and hand size, for the players' row.
        "player_extras": [
            {
                "tokens": tokens[index] if index < len(tokens) else None,
                "token_range": range(int(tokens[index] or 0) if index < len(tokens) else 0),
                "hand_count": counts[index] if index < len(counts) else None,
            }
            for index in range(max(len(tokens), len(counts)))
        ],
        "hand": hand,
        # Everything the hand is drawn from, so a worker draws it again only
        # when it changed ({% kept %} in chasse/seat.html).
        "hand_key": tuple(
            (
                c.get("id"),
                c.get("kind"),
                c.get("value"),
                c["legal"],
                c["chosen"],
                c["aria"],
                c["face"],
            )
            for c in hand
        ),
        "discard_only": discard_only,
        "panel": panel,
        "last_card": decorate(last) if last else None,
        "keypad": ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
        # The view holds this seat's own focus entry only (never another's).
        "focus_line": focus_line(own_focus[0]) if own_focus else "",
    }


def _moves(history: Sequence[Mapping[str, Any]]) -> list[tuple[int, list[Mapping[str, Any]]]]:
    """The history cut into moves: each starts at a card laid down (or thrown
    away) and runs to the next one, with its index in the history as a key."""
    starts = [i for i, event in enumerate(history) if event.get("type") in PLAY_EVENTS]
    bounds = [*starts, len(history)]
    return [(start, list(history[start : bounds[n + 1]])) for n, start in enumerate(starts)]


def feedback_for(history: Sequence[Mapping[str, Any]], seat: int | None) -> dict[str, Any] | None:
    """This seat's own last announcement, judged: a green tick, or the right
    total written out. It stays until the seat plays again, even when a robot
    plays meanwhile: a child reads slowly. A new round ends it: "98 - 20 = 78"
    beside a total back at 0 reads as a mistake (the history's "Fin de la
    manche" line says how the round ended)."""
    if seat is None:
        return None
    for event in reversed(history):
        if event.get("type") == "round_started":
            return None
        if event.get("type") == "card_played" and event.get("seat") == seat:
            announced = event.get("announced")
            if announced is None:
                return None
            card = event.get("card") or {}
            return {
                "correct": bool(event.get("correct")),
                "announced": announced,
                "sum": sum_text(event.get("before"), card, event.get("after")),
            }
        if event.get("type") == "card_discarded" and event.get("seat") == seat:
            return None
    return None


def ranking(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[dict[str, Any]]:
    """Everyone by white cards left, best first; equal counts share a place."""
    tokens = [int(t or 0) for t in view.get("tokens") or []]
    order = sorted(range(len(tokens)), key=lambda s: (-tokens[s], s))
    rows: list[dict[str, Any]] = []
    for position, seat in enumerate(order):
        place = rows[-1]["place"] if rows and rows[-1]["tokens"] == tokens[seat] else position + 1
        rows.append(
            {
                "place": place,
                "seat": seat,
                "name": seat_name(seat_names, seat),
                "tokens": tokens[seat],
                "medal": medal(place),
            }
        )
    return rows


RECENT_LINES = 4  # the short history inside the screen
LOG_LINES = 8  # the side column, where there is room


def events_context(
    *,
    history: list[dict[str, Any]],
    view: Mapping[str, Any],
    seat: int | None,
    seat_names: Sequence[str],
) -> dict[str, Any]:
    """What the Chasse screen adds from what this seat has seen happen.

    ``mine`` is the explanation of the seat's own last move (its penalty, the
    end of the round it caused): it stays pinned until the seat plays again, so
    a robot playing right after cannot wipe it away before a child has read it.
    ``recent`` is a short history of the last explained events, newest first;
    only the lines of the newest move carry ``new`` so only they animate."""
    moves = _moves(history)
    latest_key = moves[-1][0] if moves else -1
    over = bool(view.get("over"))

    def shown(line: Mapping[str, Any]) -> bool:
        # Once the game is over the ranking says so; no line repeats it.
        return not (over and line["kind"] == "over")

    # Each move is explained once per screen, however many of the lists below
    # show it (its lines are gettext-heavy: a third of a seat's context).
    explained: dict[int, list[dict[str, str]]] = {}

    def explain(key: int, events: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
        if key not in explained:
            explained[key] = explain_move(events, seat_names, seat)
        return explained[key]

    mine: dict[str, Any] | None = None
    pinned: set[tuple[int, str]] = set()
    if seat is not None:
        for key, events in reversed(moves):
            if events[0].get("seat") == seat:
                lines = [
                    line for line in explain(key, events) if line["kind"] != "info" and shown(line)
                ]
                mine = {"key": key, "lines": lines, "new": key == latest_key}
                pinned = {(key, line["text"]) for line in lines}
                break
    # Each event is said once per screen: what is pinned above is not repeated
    # in the history below it.
    recent: list[dict[str, Any]] = []
    for key, events in reversed(moves):
        for number, line in enumerate(explain(key, events)):
            if shown(line) and (key, line["text"]) not in pinned:
                # ``id``: the line's name for good, so a list on screen can be
                # sent only its new lines (``screen_units.Screen.update``).
                recent.append(
                    {**line, "new": key == latest_key, "key": key, "id": f"{key}-{number}"}
                )
        if len(recent) >= LOG_LINES:
            break
    return {
        "feedback": feedback_for(history, seat),
        "mine": mine,
        "recent": recent[:RECENT_LINES],
        "log_lines": recent[:LOG_LINES],
        "latest": [line for line in explain(*moves[-1]) if shown(line)] if moves else [],
        # Changes with every move, so the browser replays the gentle animation
        # for new events only when the key changes (see _play.css).
        "latest_key": latest_key,
        "ranking": ranking(view, seat_names) if view.get("over") else [],
        "direction_label": (
            gettext("Sens des aiguilles d'une montre")
            if view.get("direction", 1) == 1
            else gettext("Sens inverse des aiguilles d'une montre")
        ),
    }
