"""Chasse in sentences: one line per event for the monitor and the replay,
the monitor's summary of a table, and the friendly lines of the tablet's
history. A child learns from why a move cost a white card, so every penalty
is written out with its arithmetic. The rules these sentences explain are in
``docs/rules/chasse.md``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cardgames.names import counts_line
from cardgames.ui.chasse.cards import EFFECT_ICONS, EFFECT_LABELS, card_label
from cardgames.ui.generic import seat_name

TOKEN_REASONS: dict[str, Promise] = {
    "multiple_of_ten": _("le total tombe sur une dizaine"),
    "reached_target": _("le total atteint la cible"),
    "wrong_announcement": _("l'annonce était fausse"),
}

Line = dict[str, str]


def describe_event(
    event: Mapping[str, Any],
    seat_names: Sequence[str],
    options: Mapping[str, Any] | None = None,
) -> str:
    """One short French sentence per event, for the table's log and the monitor."""
    kind = event.get("type")
    who = seat_name(seat_names, event.get("seat"))
    if kind == "round_started":
        return gettext("Manche %(round)s : %(name)s commence.") % {
            "round": event.get("round"),
            "name": seat_name(seat_names, event.get("first_seat")),
        }
    if kind == "card_played":
        card = event.get("card") or {}
        text = gettext("%(name)s joue %(card)s : %(before)s → %(after)s.") % {
            "name": who,
            "card": card_label(card),
            "before": event.get("before"),
            "after": event.get("after"),
        }
        if event.get("announced") is not None:
            if event.get("correct"):
                text += " " + gettext("Annonce juste ✓")
            else:
                text += " " + gettext("Annonce %(n)s ✗") % {"n": event.get("announced")}
        return text
    if kind == "card_discarded":
        return gettext("%(name)s défausse %(card)s.") % {
            "name": who,
            "card": card_label(event.get("card")),
        }
    if kind == "token_lost":
        left = int(event.get("tokens_left") or 0)
        return (
            gettext("%(name)s perd une carte blanche : %(reason)s.")
            % {
                "name": who,
                "reason": TOKEN_REASONS.get(str(event.get("reason")), _("pénalité")),
            }
            + " "
            + ngettext("Il en reste %(n)s.", "Il en reste %(n)s.", left) % {"n": left}
        )
    if kind == "direction_changed":
        return gettext("Demi-tour : le sens du jeu change.")
    if kind == "turn_skipped":
        return gettext("%(name)s passe son tour.") % {"name": who}
    if kind == "round_over":
        return gettext("Fin de la manche %(round)s : %(name)s perd, total %(total)s.") % {
            "round": event.get("round"),
            "name": seat_name(seat_names, event.get("loser")),
            "total": event.get("total"),
        }
    if kind == "game_over":
        winners = ", ".join(seat_name(seat_names, seat) for seat in event.get("winners") or [])
        return gettext("Partie terminée ! Bravo %(names)s !") % {"names": winners}
    return gettext("Un coup a été joué.")


def public_summary(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[tuple[str, str]]:
    """The monitor's line for a table: total, whose turn, tokens."""
    tokens = view.get("tokens") or []
    current = view.get("current_seat")
    rows = [
        (gettext("Total"), f"{view.get('total')} / {view.get('target')}"),
        (
            gettext("Au tour de"),
            seat_name(seat_names, current)
            if current is not None
            else gettext("personne (partie finie)"),
        ),
        (
            gettext("Cartes blanches"),
            counts_line(
                [(seat_name(seat_names, seat), count) for seat, count in enumerate(tokens)]
            ),
        ),
    ]
    return rows


def sum_text(before: Any, card: Mapping[str, Any], after: Any) -> str:
    """The arithmetic written out, as a child would write it: "37 + 14 = 51"."""
    value = card.get("value")
    if card.get("kind") == "sub":
        return f"{before} \u2212 {value} = {after}"
    return f"{before} + {value} = {after}"


# --------------------------------------------------------------------------- #
# The tablet's history: one friendly line per event of a move. Each line's
# ``kind`` drives its colour *and* its icon (colour is never the only signal).
# --------------------------------------------------------------------------- #


def _played_line(event: Mapping[str, Any], seat_names: Sequence[str], you: bool) -> Line:
    """A card laid down: a special by its name, a number card with its sum."""
    name = seat_name(seat_names, event.get("seat"))
    card = event.get("card") or {}
    if card.get("kind") == "special":
        effect = str(card.get("effect"))
        text = (
            gettext("Tu joues « %(card)s ».") if you else gettext("%(name)s joue « %(card)s ».")
        ) % {"name": name, "card": EFFECT_LABELS.get(effect, _("Carte spéciale"))}
        return {"kind": "info", "icon": EFFECT_ICONS.get(effect, "🐱"), "text": text}
    text = (
        gettext("Tu joues %(card)s : %(sum)s.")
        if you
        else gettext("%(name)s joue %(card)s : %(sum)s.")
    ) % {
        "name": name,
        "card": card_label(card),
        "sum": sum_text(event.get("before"), card, event.get("after")),
    }
    return {"kind": "info", "icon": "🎴", "text": text}


def _discarded_line(event: Mapping[str, Any], seat_names: Sequence[str], you: bool) -> Line:
    text = (
        gettext("Aucune carte ne pouvait être jouée : tu défausses %(card)s.")
        if you
        else gettext("%(name)s ne peut pas jouer et défausse %(card)s.")
    ) % {
        "name": seat_name(seat_names, event.get("seat")),
        "card": card_label(event.get("card")),
    }
    return {"kind": "info", "icon": "🗑", "text": text}


def _token_line(
    event: Mapping[str, Any],
    played: Mapping[str, Any] | None,
    seat_names: Sequence[str],
    you: bool,
) -> Line:
    """A white card lost, with the arithmetic of the play that cost it."""
    reason = event.get("reason")
    card = (played or {}).get("card") or {}
    arithmetic = sum_text(played.get("before"), card, played.get("after")) if played else ""
    loses = (
        gettext("tu perds une carte blanche")
        if you
        else gettext("%(name)s perd une carte blanche")
        % {"name": seat_name(seat_names, event.get("seat"))}
    )
    if reason == "multiple_of_ten":
        text = gettext("%(sum)s : c'est un multiple de 10, %(loses)s.") % {
            "sum": arithmetic,
            "loses": loses,
        }
    elif reason == "reached_target":
        text = gettext("%(sum)s : la cible est atteinte, %(loses)s.") % {
            "sum": arithmetic,
            "loses": loses,
        }
    else:
        text = gettext("L'annonce était %(said)s, mais %(sum)s : %(loses)s.") % {
            "said": (played or {}).get("announced"),
            "sum": arithmetic,
            "loses": loses,
        }
    return {"kind": "penalty", "icon": "⚠️", "text": text}


def _skipped_line(event: Mapping[str, Any], seat_names: Sequence[str], you: bool) -> Line:
    text = (
        gettext("Saut : tu passes ton tour.")
        if you
        else gettext("Saut : %(name)s passe son tour.")
        % {"name": seat_name(seat_names, event.get("seat"))}
    )
    return {"kind": "info", "icon": "⏭", "text": text}


def _round_started_line(
    event: Mapping[str, Any], seat_names: Sequence[str], me: int | None
) -> Line:
    first = event.get("first_seat")
    # "tu commences", never "tu commence": the whole sentence per person.
    text = (
        gettext("Manche %(round)s : tu commences.") % {"round": event.get("round")}
        if me is not None and first == me
        else gettext("Manche %(round)s : %(name)s commence.")
        % {"round": event.get("round"), "name": seat_name(seat_names, first)}
    )
    return {"kind": "round", "icon": "🐭", "text": text}


def explain_move(
    events: Sequence[Mapping[str, Any]], seat_names: Sequence[str], me: int | None
) -> list[Line]:
    """One friendly line per event of a move, each penalty with its reason:
    "45 + 5 = 50 : c'est un multiple de 10, tu perds une carte blanche"."""
    lines: list[Line] = []
    played: Mapping[str, Any] | None = None
    target_total: Any = None
    # The end of the game says only the end: no "on recommence à 0" before it.
    game_ends = any(event.get("type") == "game_over" for event in events)
    for event in events:
        kind = event.get("type")
        you = event.get("seat") == me and me is not None
        if kind == "card_played":
            played = event
            lines.append(_played_line(event, seat_names, you))
        elif kind == "card_discarded":
            lines.append(_discarded_line(event, seat_names, you))
        elif kind == "token_lost":
            if event.get("reason") == "reached_target":
                target_total = (played or {}).get("after")
            lines.append(_token_line(event, played, seat_names, you))
        elif kind == "direction_changed":
            lines.append(
                {
                    "kind": "info",
                    "icon": "🔄",
                    "text": gettext("Demi-tour : le sens du jeu change."),
                }
            )
        elif kind == "turn_skipped":
            lines.append(_skipped_line(event, seat_names, you))
        elif kind == "round_over" and not game_ends:
            text = gettext("Fin de la manche %(round)s (total %(total)s). On recommence à 0 !") % {
                "round": event.get("round"),
                "total": event.get("total", target_total),
            }
            lines.append({"kind": "round", "icon": "🏁", "text": text})
        elif kind == "round_started" and lines:
            lines.append(_round_started_line(event, seat_names, me))
        elif kind == "game_over":
            lines.append({"kind": "over", "icon": "🏆", "text": gettext("Partie terminée !")})
    return lines
