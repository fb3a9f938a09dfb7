"""The fallback adapter: any engine, drawn plainly.

The seat sees its view as a list of facts and one button per legal action; the
button carries the action as JSON, which the engine then judges like any other
input (a forged action is just refused).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardgames.engines.base import IllegalAction

TWO_STEP = False
SEAT_TEMPLATE = "cardgames/generic/seat.html"
PUBLIC_TEMPLATE = "cardgames/generic/public.html"
# How a game is offered to a teacher: a game without its own UI module shows
# its engine name, no pitch and a plain card icon.
TITLE = ""
PITCH = ""
ICON = "🃏"
OPTION_LABELS: dict[str, dict[str, Any]] = {}
CHOICE_LABELS: dict[str, dict[str, Any]] = {}
HOW_TO_PLAY: list[tuple[str, Any]] = []
SCRIPT = ""


# The runtime's own refusals, the same in every game (a message the server
# cannot read, an old screen, a paused or finished table...). A game's UI words
# its engine's codes in its own ``REFUSALS`` and falls back to these.
RUNTIME_REFUSALS: dict[str, Promise] = {
    "malformed": gettext_lazy("Ce message n'est pas compris."),
    "too_big": gettext_lazy("Ce message est beaucoup trop long."),
    "unknown_kind": gettext_lazy("Cette demande n'existe pas."),
    "stale": gettext_lazy("Le jeu a changé entre-temps : regarde bien, puis rejoue."),
    "duplicate": gettext_lazy("Ce coup a déjà été envoyé."),
    "paused": gettext_lazy("La partie est en pause : attends le signal de ton enseignant."),
    "finished": gettext_lazy("La partie est terminée."),
    "not_started": gettext_lazy("La partie n'a pas encore commencé."),
    "spectator": gettext_lazy("Vous regardez cette table : vous ne pouvez pas y jouer."),
    "seat_changed": gettext_lazy("Cette place a été donnée à quelqu'un d'autre."),
}
# An unknown code: the engine's English message is for developers, never shown
# to a child.
DEFAULT_REFUSAL = gettext_lazy("Ce coup n'est pas possible.")
REFUSALS: dict[str, Promise] = {}


def refusal_wording(refusals: Mapping[str, Promise]) -> Callable[[str], str]:
    """A game UI's ``refusal_message``: its own ``refusals`` first, then the
    runtime's sentences."""
    return functools.partial(refusal_message, refusals=refusals)


def refusal_message(code: str, refusals: Mapping[str, Promise] | None = None) -> str:
    """The sentence for a refusal ``code``: the game's wording (``refusals``),
    else the runtime's, else a generic sentence. Translated at call time."""
    if refusals is not None and code in refusals:
        return str(refusals[code])
    return str(RUNTIME_REFUSALS.get(code, DEFAULT_REFUSAL))


def form_to_action(data: Mapping[str, Any]) -> dict[str, Any]:
    raw = data.get("action")
    if not isinstance(raw, str) or len(raw) > 2000:
        raise IllegalAction("malformed", "No action.")
    try:
        action = json.loads(raw)
    except ValueError as exc:
        raise IllegalAction("malformed", "Bad JSON.") from exc
    if not isinstance(action, dict):
        raise IllegalAction("malformed", "An action is an object.")
    return action


def _label(action: Mapping[str, Any]) -> str:
    parts = [str(action.get("type", "?"))]
    parts += [f"{key} {value}" for key, value in action.items() if key != "type"]
    return " · ".join(parts)


def seat_context(
    *,
    view: Mapping[str, Any],
    legal: list[dict[str, Any]],
    choice: Mapping[str, Any] | None,
    seed: int,
    version: int,
) -> dict[str, Any]:
    return {
        "facts": [(key, json.dumps(value, ensure_ascii=False)) for key, value in view.items()],
        "actions": [{"json": json.dumps(action), "label": _label(action)} for action in legal],
    }


def events_context(
    *,
    history: list[dict[str, Any]],
    view: Mapping[str, Any],
    seat: int | None,
    seat_names: Sequence[str],
) -> dict[str, Any]:
    """A plain game shows its log only; nothing more to add."""
    return {}


RECENT_LINES = 4  # the short history inside the screen
LOG_LINES = 8  # the side column, where there is room


def event_log(
    history: Sequence[Mapping[str, Any]],
    explain: Callable[[int], Mapping[str, Any] | None],
) -> dict[str, Any]:
    """The newest explained events first, for the screen's short history and
    its log: ``explain(index)`` says the event at that index of ``history`` in
    one line, or ``None`` to leave it out. Each line is named by its event
    (``id``) and the separator after the newest by the last event
    (``latest_key``), so a move sends the log its new lines only
    (``screen_units.Screen.update``)."""
    lines: list[dict[str, Any]] = []
    newest = len(history) - 1
    for index in range(newest, -1, -1):
        line = explain(index)
        if line is not None:
            lines.append({**line, "key": index, "id": str(index), "new": index == newest})
        if len(lines) >= LOG_LINES:
            break
    return {"recent": lines[:RECENT_LINES], "log_lines": lines, "latest_key": newest}


def describe_event(
    event: Mapping[str, Any],
    seat_names: Sequence[str],
    options: Mapping[str, Any] | None = None,
) -> str:
    seat = event.get("seat")
    who = seat_names[seat] if isinstance(seat, int) and 0 <= seat < len(seat_names) else ""
    details = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("type", "seat", "to"))
    kind = str(event.get("type", "?"))
    return f"{who} · {kind} ({details})" if who else f"{kind} ({details})"


def public_summary(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[tuple[str, str]]:
    current = view.get("current_seat")
    out: list[tuple[str, str]] = []
    if isinstance(current, int) and 0 <= current < len(seat_names):
        out.append((_("Au tour de"), seat_names[current]))
    if view.get("over"):
        out.append((_("État"), _("Partie terminée")))
    return out


def end_question(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """A plain game asks nothing after its end."""
    return None


def explain_refusal(
    code: str,
    *,
    action: Mapping[str, Any],
    view: Mapping[str, Any],
    history: Sequence[Mapping[str, Any]],
    seat_names: Sequence[str],
) -> str | None:
    """A plain game has no refusal that needs context."""
    return None


# ---------------------------------------------------------------- shared helpers
# Every adapter names seats and ranks players the same way; these are the one
# copy (a game's own module imports them rather than writing its own).
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def seat_name(seat_names: Sequence[str], seat: Any) -> str:
    """The seat's pupil name, or "Quelqu'un" for anything that is not a seat
    number of this table (``True`` is an ``int`` to Python, not a seat)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seat_names):
        return seat_names[seat]
    return _("Quelqu'un")


def medal(place: int) -> str:
    """The podium's medal for a place (1 to 3), else nothing."""
    return MEDALS.get(place, "")


def ranking_rows(
    order: Iterable[int],
    seat_names: Sequence[str],
    fields: Callable[[int], dict[str, Any]],
    *,
    standing: Callable[[int], Any] | None = None,
) -> list[dict[str, Any]]:
    """The end screen's podium, one row per seat of ``order`` (best first):
    ``place``, ``seat``, ``name``, the game's own ``fields(seat)`` (its score
    under its own name: paws, noses...) and the ``medal``.

    Neighbours in ``order`` with the same ``standing(seat)`` share a place and
    the next seat skips it (1, 1, 3), as on a sports podium; without
    ``standing`` every seat has a place of its own (a game whose rule book
    breaks every tie). Written once so every game ranks and names alike."""
    rows: list[dict[str, Any]] = []
    previous: Any = None
    for position, seat in enumerate(order):
        mark = standing(seat) if standing is not None else None
        shared = standing is not None and bool(rows) and mark == previous
        place = rows[-1]["place"] if shared else position + 1
        rows.append(
            {
                "place": place,
                "seat": seat,
                "name": seat_name(seat_names, seat),
                **fields(seat),
                "medal": medal(place),
            }
        )
        previous = mark
    return rows
