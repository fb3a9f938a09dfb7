"""Chasse aux Souris: the game's UI (option labels, form → action, events
and refusals in French, and the context its table templates draw from).

The engine knows only option keys, types and bounds; the labels and help texts
below are what the teacher's options form shows, translated through gettext.
The rules these sentences explain are in ``docs/rules/chasse.md``.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cardgames.engines.base import IllegalAction
from cardgames.engines.chasse import announce_choices
from cardgames.names import counts_line
from cardgames.parsing import whole_number
from cardgames.ui import generic

TITLE = _("La Chasse aux Souris")
PITCH = _("Calcul mental : pose une carte, annonce le nouveau total, évite les dizaines et la cible.")
ICON = "img/mouse.svg"
HOW_TO_PLAY: list[tuple[str, Promise]] = [
    ("🎴", _("À ton tour, touche une carte de ta main.")),
    ("🔢", _("Calcule le nouveau total et tape-le, puis OK.")),
    ("⚠️", _("Si le total tombe sur une dizaine, tu perds une carte blanche.")),
    ("🎯", _("Si le total atteint la cible ou plus, tu perds une carte blanche et la manche s'arrête.")),
    ("🏆", _("Garde le plus de cartes blanches possible !")),
]

OPTION_LABELS: dict[str, dict[str, Promise]] = {
    "target": {
        "label": _("Total à ne pas atteindre"),
        "help": _("Une dizaine entre 20 et 200. 50 convient bien aux plus jeunes."),
    },
    "tokens": {
        "label": _("Cartes blanches par joueur"),
        "help": _("La partie s'arrête quand quelqu'un n'en a plus (1 à 5)."),
    },
    "hand_size": {
        "label": _("Cartes en main"),
        "help": _("Nombre de cartes distribuées à chacun (3 à 8)."),
    },
    "tables": {
        "label": _("Tables d'addition travaillées"),
        "help": _("Garde seulement les cartes « a + b » où a ou b fait partie des nombres cochés."),
    },
    "somme_cards": {
        "label": _("Cartes somme (soustractions)"),
        "help": _("Les cartes vertes qui font baisser le total."),
    },
    "special_cards": {
        "label": _("Cartes spéciales"),
        "help": _("Chat qui dort, Demi-tour, Saut et Rejoue."),
    },
    "announce": {
        "label": _("Annonce du total"),
        "help": _("Comment l'élève donne le nouveau total après avoir posé sa carte."),
    },
    "wrong_announcement": {
        "label": _("Erreur d'annonce"),
        "help": _("Ce que coûte un total annoncé faux. Le vrai total est toujours affiché."),
    },
    "turn_seconds": {
        "label": _("Temps par tour (secondes)"),
        "help": _("Vide : pas de limite. Sinon 10 à 120 s ; un robot joue à la place de l'élève."),
    },
    "focus": {
        "label": _("Cartes ciblées"),
        "help": _(
            "Les calculs que l'élève doit travailler arrivent plus souvent dans sa main. "
            "Les autres joueurs et les robots piochent normalement."
        ),
    },
}

CHOICE_LABELS: dict[str, dict[str, Promise]] = {
    "announce": {
        "typed": _("L'élève tape le total sur un clavier"),
        "choice": _("L'élève choisit parmi 3 totaux (débutants)"),
        "shown": _("Rien à annoncer (démonstration)"),
    },
    "wrong_announcement": {
        "coach": _("Coach : aucune pénalité"),
        "strict": _("Strict : une carte blanche en moins"),
    },
}

TWO_STEP = True
SEAT_TEMPLATE = "cardgames/chasse/seat.html"
PUBLIC_TEMPLATE = "cardgames/chasse/public.html"

EFFECT_LABELS: dict[str, Promise] = {
    "sleep": _("Chat qui dort"),
    "reverse": _("Demi-tour"),
    "skip": _("Saut"),
    "again": _("Rejoue"),
}
EFFECT_ICONS = {"sleep": "💤", "reverse": "🔄", "skip": "⏭", "again": "🔁"}
MAX_ANNOUNCE_DIGITS = 4


REFUSALS: dict[str, Promise] = {
    "not_your_turn": _("Ce n'est pas ton tour : attends ton tour."),
    "card_not_in_hand": _("Cette carte n'est pas dans ta main."),
    "card_not_playable": _("Une carte somme doit être plus petite que le total."),
    "discard_not_allowed": _("Tu peux jouer une carte : tu ne peux pas la défausser."),
    "announce_required": _("Annonce le nouveau total."),
    "announce_invalid": _("Écris le nouveau total avec des chiffres."),
    "game_over": _("La partie est terminée."),
}

refusal_message = generic.refusal_wording(REFUSALS)


def _int_field(data: Mapping[str, Any], key: str) -> int:
    number = whole_number(data.get(key))
    if number is None:
        raise IllegalAction("malformed", f"Bad {key}.")
    return number


def form_to_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """The strings of the announce form → ``{"type": "play", "card", "announce"}``
    or ``{"type": "discard", "card"}``. An empty announcement is ``None`` (the
    engine then says whether one was needed); letters are ``announce_invalid``."""
    move = data.get("move", "play")
    if move not in ("play", "discard"):
        raise IllegalAction("malformed", "Unknown move.")
    card = _int_field(data, "card")
    if move == "discard":
        return {"type": "discard", "card": card}
    raw = data.get("announce")
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {"type": "play", "card": card, "announce": None}
    announce = whole_number(raw, max_digits=MAX_ANNOUNCE_DIGITS)
    if announce is None:
        raise IllegalAction("announce_invalid", "Digits only.")
    return {"type": "play", "card": card, "announce": announce}


def card_label(card: Mapping[str, Any] | None) -> str:
    if not card:
        return ""
    kind = card.get("kind")
    if kind == "add":
        return f"{card.get('a')} + {card.get('b')}"
    if kind == "sub":
        return f"\u2212 {card.get('value')}"
    return str(EFFECT_LABELS.get(str(card.get("effect")), _("Carte spéciale")))


# A card's name line holds about 10 bold characters inside its frame (80 of
# the card's 100 viewBox units at 12.5 px): longer names wrap at their spaces.
LABEL_LINE_CHARS = 10


def label_lines(label: str) -> list[str]:
    """A special card's name in at most two lines, cut at spaces ("Chat qui" /
    "dort"), so it is never clipped by the card's edge. A single long word
    stays whole; the template squeezes it into the frame."""
    lines: list[str] = []
    for word in label.split():
        if lines and len(lines[-1]) + 1 + len(word) <= LABEL_LINE_CHARS:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return lines or [label]


# What a card's drawing adds to it (text, icon, aria, its SVG face) depends on
# its values and the language only, not on its id, and a table screen draws up
# to eight cards per render: each is worked out once per worker and language
# (the face's template include alone was a sixth of a seat's render time).
_DRAWN: dict[tuple[Any, ...], dict[str, Any]] = {}
_DRAWN_MAX = 4096


def decorate(card: Mapping[str, Any]) -> dict[str, Any]:
    """A card dict plus what the template needs to draw it (text, icon, aria)."""
    key = (
        get_language(),
        card.get("kind"),
        card.get("a"),
        card.get("b"),
        card.get("value"),
        card.get("effect"),
    )
    drawn = _DRAWN.get(key)
    if drawn is None:
        if len(_DRAWN) >= _DRAWN_MAX:
            _DRAWN.clear()
        drawn = _DRAWN[key] = _drawing(card)
    return {**card, **drawn}


def _drawing(card: Mapping[str, Any]) -> dict[str, Any]:
    """What ``decorate`` adds to a card."""
    out: dict[str, Any] = {"label": card_label(card)}
    out["label_lines"] = label_lines(out["label"])
    out["icon"] = EFFECT_ICONS.get(str(card.get("effect")), "")
    kind = card.get("kind")
    if kind == "add":
        out["aria"] = gettext("Carte addition %(a)s plus %(b)s") % {
            "a": card.get("a"),
            "b": card.get("b"),
        }
    elif kind == "sub":
        out["aria"] = gettext("Carte somme moins %(v)s") % {"v": card.get("value")}
    else:
        out["aria"] = gettext("Carte spéciale : %(name)s") % {"name": out["label"]}
    out["face"] = card_face({**card, **out})
    return out


def card_face(card: Mapping[str, Any]) -> str:
    """The card's picture (an SVG drawn by ``chasse/_card.html``), safe HTML."""
    return mark_safe(render_to_string("cardgames/chasse/_card.html", {"card": card}).strip())


def _choice_seed(seed: int, version: int, card: int) -> int:
    # Same screen, same three totals: a re-render must not reshuffle them.
    return zlib.crc32(f"{seed}:{version}:{card}".encode())


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
    mode = options.get("announce", "typed")
    panel: dict[str, Any] | None = None
    if chosen is not None:
        needs_number = not discard_only and chosen.get("kind") != "special" and mode != "shown"
        panel = {
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
            (c.get("id"), c.get("kind"), c.get("value"), c["legal"], c["chosen"], c["aria"], c["face"])
            for c in hand
        ),
        "discard_only": discard_only,
        "panel": panel,
        "last_card": decorate(last) if last else None,
        "keypad": ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
        # The view holds this seat's own focus entry only (never another's).
        "focus_line": focus_line(own_focus[0]) if own_focus else "",
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


def _name(seat_names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(seat_names):
        return seat_names[seat]
    return gettext("Quelqu'un")


TOKEN_REASONS: dict[str, Promise] = {
    "multiple_of_ten": _("le total tombe sur une dizaine"),
    "reached_target": _("le total atteint la cible"),
    "wrong_announcement": _("l'annonce était fausse"),
}


def describe_event(
    event: Mapping[str, Any],
    seat_names: Sequence[str],
    options: Mapping[str, Any] | None = None,
) -> str:
    """One short French sentence per event, for the table's log and the monitor."""
    kind = event.get("type")
    who = _name(seat_names, event.get("seat"))
    if kind == "round_started":
        return gettext("Manche %(round)s : %(name)s commence.") % {
            "round": event.get("round"),
            "name": _name(seat_names, event.get("first_seat")),
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
            "name": _name(seat_names, event.get("loser")),
            "total": event.get("total"),
        }
    if kind == "game_over":
        winners = ", ".join(_name(seat_names, seat) for seat in event.get("winners") or [])
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
            _name(seat_names, current)
            if current is not None
            else gettext("personne (partie finie)"),
        ),
        (
            gettext("Cartes blanches"),
            counts_line([(_name(seat_names, seat), count) for seat, count in enumerate(tokens)]),
        ),
    ]
    return rows


# --------------------------------------------------------------------------- #
# The tablet screen: feedback on the pupil's own announcement, the latest events
# explained in plain French, and the final ranking. A child learns from why a
# move cost a white card, so every penalty is written out with its arithmetic.
# --------------------------------------------------------------------------- #

PLAY_EVENTS = ("card_played", "card_discarded")


def sum_text(before: Any, card: Mapping[str, Any], after: Any) -> str:
    """The arithmetic written out, as a child would write it: "37 + 14 = 51"."""
    value = card.get("value")
    if card.get("kind") == "sub":
        return f"{before} \u2212 {value} = {after}"
    return f"{before} + {value} = {after}"


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


def explain_move(
    events: Sequence[Mapping[str, Any]], seat_names: Sequence[str], me: int | None
) -> list[dict[str, str]]:
    """One friendly line per event of a move, each penalty with its reason:
    "45 + 5 = 50 : c'est un multiple de 10, tu perds une carte blanche".
    ``kind`` drives the colour *and* the icon (colour is never the only signal)."""
    lines: list[dict[str, str]] = []
    played: Mapping[str, Any] | None = None
    target_total: Any = None
    # The end of the game says only the end: no "on recommence à 0" before it.
    game_ends = any(event.get("type") == "game_over" for event in events)
    for event in events:
        kind = event.get("type")
        seat = event.get("seat")
        you = seat == me and me is not None
        if kind == "card_played":
            played = event
            card = event.get("card") or {}
            if card.get("kind") == "special":
                name = EFFECT_LABELS.get(str(card.get("effect")), _("Carte spéciale"))
                text = (
                    gettext("Tu joues « %(card)s ».")
                    if you
                    else gettext("%(name)s joue « %(card)s ».")
                ) % {"name": _name(seat_names, seat), "card": name}
                lines.append(
                    {
                        "kind": "info",
                        "icon": EFFECT_ICONS.get(str(card.get("effect")), "🐱"),
                        "text": text,
                    }
                )
            else:
                text = (
                    gettext("Tu joues %(card)s : %(sum)s.")
                    if you
                    else gettext("%(name)s joue %(card)s : %(sum)s.")
                ) % {
                    "name": _name(seat_names, seat),
                    "card": card_label(card),
                    "sum": sum_text(event.get("before"), card, event.get("after")),
                }
                lines.append({"kind": "info", "icon": "🎴", "text": text})
        elif kind == "card_discarded":
            text = (
                gettext("Aucune carte ne pouvait être jouée : tu défausses %(card)s.")
                if you
                else gettext("%(name)s ne peut pas jouer et défausse %(card)s.")
            ) % {"name": _name(seat_names, seat), "card": card_label(event.get("card"))}
            lines.append({"kind": "info", "icon": "🗑", "text": text})
        elif kind == "token_lost":
            reason = event.get("reason")
            card = (played or {}).get("card") or {}
            arithmetic = sum_text(played.get("before"), card, played.get("after")) if played else ""
            loses = (
                gettext("tu perds une carte blanche")
                if you
                else gettext("%(name)s perd une carte blanche") % {"name": _name(seat_names, seat)}
            )
            if reason == "multiple_of_ten":
                text = gettext("%(sum)s : c'est un multiple de 10, %(loses)s.") % {
                    "sum": arithmetic,
                    "loses": loses,
                }
            elif reason == "reached_target":
                target_total = (played or {}).get("after")
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
            lines.append({"kind": "penalty", "icon": "⚠️", "text": text})
        elif kind == "direction_changed":
            lines.append(
                {
                    "kind": "info",
                    "icon": "🔄",
                    "text": gettext("Demi-tour : le sens du jeu change."),
                }
            )
        elif kind == "turn_skipped":
            text = (
                gettext("Saut : tu passes ton tour.")
                if you
                else gettext("Saut : %(name)s passe son tour.") % {"name": _name(seat_names, seat)}
            )
            lines.append({"kind": "info", "icon": "⏭", "text": text})
        elif kind == "round_over" and not game_ends:
            text = gettext("Fin de la manche %(round)s (total %(total)s). On recommence à 0 !") % {
                "round": event.get("round"),
                "total": event.get("total", target_total),
            }
            lines.append({"kind": "round", "icon": "🏁", "text": text})
        elif kind == "round_started" and lines:
            first = event.get("first_seat")
            # "tu commences", never "tu commence": the whole sentence per person.
            text = (
                gettext("Manche %(round)s : tu commences.") % {"round": event.get("round")}
                if me is not None and first == me
                else gettext("Manche %(round)s : %(name)s commence.")
                % {"round": event.get("round"), "name": _name(seat_names, first)}
            )
            lines.append({"kind": "round", "icon": "🐭", "text": text})
        elif kind == "game_over":
            lines.append({"kind": "over", "icon": "🏆", "text": gettext("Partie terminée !")})
    return lines


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
                "name": _name(seat_names, seat),
                "tokens": tokens[seat],
                "medal": {1: "🥇", 2: "🥈", 3: "🥉"}.get(place, ""),
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
                    line
                    for line in explain(key, events)
                    if line["kind"] != "info" and shown(line)
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
        "latest": [line for line in explain(*moves[-1]) if shown(line)]
        if moves
        else [],
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
