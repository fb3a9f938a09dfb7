"""Pinocchio: the game's UI (rules: ``docs/rules/pinocchio.md``).

Everything a page needs to know about Pinocchio lives here: the teacher's words
for the options, the form → action of the tablet, the sentences a child reads
(refusals, events, verdicts), the contexts of the seat, public and monitor
views, "how to play", and the per-pupil counts of a finished table.
Templates: ``templates/cardgames/pinocchio/``; the browser side (why a choice
is greyed, the 🔊 button) is ``static/js/pinocchio.js``.

Two languages meet on this screen. The sentences are gettext, in the interface
language; the garment and colour words are vocabulary, in the table's
``words_language`` (``cardgames/ui/pinocchio_words.py``), whatever the
interface says: a French class practising German reads "Inès annonce :
« eine rote Mütze »".

Secrecy: everything drawn here comes from the seat's own view and history. A
laid card's face is only ever shown once a doubt revealed it (the public
``doubted`` event and ``view["revealed"]``), or to the seat that drew it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from cardgames.engines.base import IllegalAction
from cardgames.engines.pinocchio import ALL_FACES, COLOURS, GARMENTS, allowed_faces
from cardgames.names import counts_line
from cardgames.ui import ReportColumn, art, generic
from cardgames.ui.pinocchio_words import LANGUAGES, SPEECH_LANG, colour_word, garment_word, phrase

TWO_STEP = False
SEAT_TEMPLATE = "cardgames/pinocchio/seat.html"
PUBLIC_TEMPLATE = "cardgames/pinocchio/public.html"
SCRIPT = "js/pinocchio.js"

TITLE = _("Pinocchio")
PITCH = _(
    "Pose une carte face cachée, annonce un vêtement… et devine qui ment ! "
    "Chaque mensonge découvert coûte un nez. Les mots des vêtements en français, allemand ou anglais."
)
ICON = "img/pinocchio/nose-long.svg"

# ---------------------------------------------------------------- options
OPTION_LABELS: dict[str, dict[str, Promise]] = {
    "words_language": {
        "label": _("Langue des mots (vêtements et couleurs)"),
        "help": _(
            "Les mots écrits sous les cartes et dits par le bouton 🔊. "
            "Ils ne dépendent pas de la langue de l'écran : une classe française peut s'entraîner en allemand."
        ),
    },
}
CHOICE_LABELS: dict[str, dict[str, Promise]] = {
    "words_language": {
        "fr": _("Français (un bonnet rouge)"),
        "de": _("Allemand (eine rote Mütze)"),
        "en": _("Anglais (a red hat)"),
    },
}

# ---------------------------------------------------------------- how to play
# (picture, sentence): a picture is a static path or an emoji.
HOW_TO_PLAY: list[tuple[str, Promise]] = [
    ("img/pinocchio/back.svg", _("Prends la carte du dessus de ta pile : toi seul la vois.")),
    (
        "🗣",
        _("Pose-la face cachée et annonce un vêtement. Garde le vêtement ou la couleur d'avant."),
    ),
    ("🤔", _("Tu crois l'annonce d'avant ? Ou tu doutes ? Si tu doutes, on retourne la carte.")),
    (
        "img/pinocchio/nose-long.svg",
        _("Qui a menti prend un nez. Si la carte disait vrai, c'est celui qui a douté."),
    ),
    ("🏆", _("Quand les piles sont vides, le moins de nez gagne !")),
]

# ---------------------------------------------------------------- refusals
REFUSALS: dict[str, Promise] = {
    "not_your_turn": _("Ce n'est pas ton tour : attends ton tour."),
    "cannot_doubt": _("Pas de doute possible maintenant : annonce ta carte."),
    "respond_first": _("D'abord, dis si tu crois l'annonce d'avant ou si tu doutes."),
    "must_follow": _("Garde le vêtement ou la couleur de l'annonce d'avant."),
    "game_over": _("La partie est terminée."),
    # An end-of-game answer (``kind: answer``): Pinocchio asks none.
    "no_question": _("Il n'y a pas de question à répondre : continue à jouer !"),
}

# The sentence for a code without context: ours first, then the runtime's
# ("malformed", "stale"...).
refusal_message = generic.refusal_wording(REFUSALS)


def _must_follow_text(lang: str, last: Mapping[str, Any]) -> str:
    return gettext(
        "Tu dois garder le vêtement ou la couleur de l'annonce d'avant : « %(phrase)s »."
    ) % {"phrase": phrase(lang, str(last["garment"]), str(last["colour"]))}


def _language(view: Mapping[str, Any]) -> str:
    lang = view.get("words_language")
    return lang if isinstance(lang, str) and lang in LANGUAGES else "fr"


def explain_refusal(
    code: str,
    *,
    action: Mapping[str, Any],
    view: Mapping[str, Any],
    history: Sequence[Mapping[str, Any]],
    seat_names: Sequence[str],
) -> str | None:
    """The refusals that say more from the (public) announcement to follow.

    ``must_follow`` names the announcement to follow, in the table's words;
    ``cannot_doubt`` says why this one may not be doubted. ``None``: the plain one."""
    last = view.get("last_announcement")
    if code == "must_follow" and isinstance(last, Mapping):
        return _must_follow_text(_language(view), last)
    if code == "cannot_doubt" and isinstance(last, Mapping) and not last.get("doubtable", True):
        return gettext("Annonce libre après un doute : on ne peut pas douter.")
    return None


# ---------------------------------------------------------------- form → action
def form_to_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """The tablet's form → ``doubt``, ``believe`` or ``announce`` (garment and
    colour among the engine's words). The engine judges the rest (whose turn,
    whether it follows)."""
    move = data.get("move")
    if move in ("doubt", "believe"):
        return {"type": move}
    if move != "announce":
        raise IllegalAction("malformed", "Unknown move.")
    garment = data.get("garment")
    colour = data.get("colour")
    if garment not in GARMENTS or colour not in COLOURS:
        raise IllegalAction("malformed", "Unknown garment or colour.")
    return {"type": "announce", "garment": garment, "colour": colour}


# ---------------------------------------------------------------- words and pictures
def face_info(lang: str, garment: str, colour: str) -> dict[str, Any]:
    """What draws one garment in one colour: its picture (colour and pattern),
    its words in ``lang`` and the voice that says them."""
    return {
        "garment": garment,
        "colour": colour,
        "key": f"{garment}:{colour}",
        # The path and the colour fragment apart: ``{% static %}`` escapes a "#"
        # in development (StaticFilesStorage), so templates write
        # ``{% static face.src %}#{{ face.colour }}``.
        "src": art.pinocchio_garment_src(garment),
        "phrase": phrase(lang, garment, colour),
        "garment_word": garment_word(lang, garment),
        "colour_word": colour_word(lang, colour),
        "pattern": art.PINOCCHIO_PATTERNS[colour],
        "speech": SPEECH_LANG[lang],
    }


def _face_of(lang: str, data: Any) -> dict[str, Any] | None:
    if not isinstance(data, Mapping):
        return None
    garment, colour = data.get("garment"), data.get("colour")
    if garment not in GARMENTS or colour not in COLOURS:
        return None
    return face_info(lang, str(garment), str(colour))


def _name(seat_names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seat_names):
        return seat_names[seat]
    return gettext("Quelqu'un")


NOSE_BASE = 26
NOSE_STEP = 9
NOSE_MAX = 110


def nose_width(noses: int) -> int:
    """The stretchable nose's width in px: it grows with the count, up to a
    width that still fits a player's card at six seats (the count is written too)."""
    return min(NOSE_BASE + NOSE_STEP * max(noses, 0), NOSE_MAX)


# ---------------------------------------------------------------- the seat
def seat_context(
    *,
    view: Mapping[str, Any],
    legal: list[dict[str, Any]],
    choice: Mapping[str, Any] | None,
    seed: int,
    version: int,
) -> dict[str, Any]:
    """Everything the Pinocchio screen draws from the seat's own view (or the
    public one), under one key, ``pn``."""
    lang = _language(view)
    me = view.get("seat")
    kinds = {action.get("type") for action in legal}
    can_judge = "doubt" in kinds
    can_announce = "announce" in kinds
    last = view.get("last_announcement")
    last_face = _face_of(lang, last)
    to_follow = None if view.get("announcement_free") or not isinstance(last, Mapping) else last
    drawn = _face_of(lang, view.get("drawn_card"))
    grid: list[dict[str, Any]] = []
    forced_lie = False
    if can_announce:
        allowed = set(
            allowed_faces(
                None if to_follow is None else (to_follow["garment"], to_follow["colour"])
            )
        )
        why = _must_follow_text(lang, to_follow) if to_follow is not None else ""
        for garment, colour in ALL_FACES:
            tile = face_info(lang, garment, colour)
            tile["allowed"] = (garment, colour) in allowed
            tile["why"] = "" if tile["allowed"] else why
            tile["mine"] = drawn is not None and drawn["key"] == tile["key"]
            grid.append(tile)
        forced_lie = drawn is not None and (drawn["garment"], drawn["colour"]) not in allowed
    noses = [int(n or 0) for n in view.get("noses") or []]
    piles = [int(n or 0) for n in view.get("pile_sizes") or []]
    current = view.get("current_seat")
    seats = [
        {
            "index": index,
            "noses": count,
            "nose_width": nose_width(count),
            "pile": piles[index] if index < len(piles) else 0,
            "is_current": index == current,
        }
        for index, count in enumerate(noses)
    ]
    revealed = []
    for item in reversed(view.get("revealed") or []):
        card = _face_of(lang, item.get("card"))
        announced = _face_of(lang, item.get("announced"))
        if card is None or announced is None:
            continue
        revealed.append(
            {
                "seat": item.get("seat"),
                "card": card,
                "announced": announced,
                "truthful": card["key"] == announced["key"],
            }
        )
    my_last = _face_of(lang, view.get("my_last_laid"))
    return {
        "pn": {
            "lang": lang,
            "speech": SPEECH_LANG[lang],
            "me": me,
            "my_pile": piles[me] if isinstance(me, int) and 0 <= me < len(piles) else None,
            "rangement": int(view.get("rangement_count") or 0),
            "removed": int(view.get("removed_count") or 0),
            "last": last_face,
            "last_seat": last.get("seat") if isinstance(last, Mapping) else None,
            "last_doubtable": bool(last.get("doubtable")) if isinstance(last, Mapping) else True,
            "can_judge": can_judge,
            "can_announce": can_announce,
            # Announcing now without having judged: the last announcement followed
            # a doubt, so the screen says why there was no "Je doute !".
            "no_doubt_why": can_announce
            and isinstance(last, Mapping)
            and not last.get("doubtable", True),
            "free": bool(view.get("announcement_free")),
            "next_doubtable": bool(view.get("announcement_doubtable")),
            "drawn": drawn,
            "forced_lie": forced_lie,
            "grid": grid,
            "my_last": my_last,
            "seats": seats,
            "revealed": revealed,
        }
    }


# ---------------------------------------------------------------- sentences
def _verdict(event: Mapping[str, Any], lang: str, seat_names: Sequence[str], me: int | None) -> str:
    """ "C'était bien un bonnet rouge : Léo prend un nez." / "C'était une chemise
    jaune : Inès a menti et prend un nez." (with "tu" for the seat's own part)."""
    card = event.get("card") or {}
    words = phrase(lang, str(card.get("garment")), str(card.get("colour")))
    doubter, target = event.get("seat"), event.get("target")
    if event.get("truthful"):
        if me is not None and doubter == me:
            return gettext("C'était bien %(card)s : tu prends un nez.") % {"card": words}
        return gettext("C'était bien %(card)s : %(name)s prend un nez.") % {
            "card": words,
            "name": _name(seat_names, doubter),
        }
    if me is not None and target == me:
        return gettext("C'était %(card)s : tu as menti et tu prends un nez.") % {"card": words}
    return gettext("C'était %(card)s : %(name)s a menti et prend un nez.") % {
        "card": words,
        "name": _name(seat_names, target),
    }


def explain(
    event: Mapping[str, Any], seat_names: Sequence[str], me: int | None, lang: str = "fr"
) -> dict[str, str] | None:
    """One line a child reads for an event (``None``: nothing worth a line).
    ``me`` turns "Léo" into "tu" for the seat's own events; ``lang`` is the
    table's word language."""
    kind = event.get("type")
    seat = event.get("seat")
    you = me is not None and seat == me
    name = _name(seat_names, seat)
    if kind == "card_laid":
        words = phrase(lang, str(event.get("garment")), str(event.get("colour")))
        if not event.get("doubtable", True):
            text = (
                gettext("Tu annonces librement : « %(card)s ». Personne ne peut en douter.")
                if you
                else gettext(
                    "%(name)s annonce librement : « %(card)s ». Personne ne peut en douter."
                )
            )
        else:
            text = (
                gettext("Tu annonces : « %(card)s ».")
                if you
                else gettext("%(name)s annonce : « %(card)s ».")
            )
        return {"kind": "info", "icon": "🗣", "text": text % {"name": name, "card": words}}
    if kind == "believed":
        target = event.get("target")
        if you:
            text = gettext("Tu crois %(name)s.") % {"name": _name(seat_names, target)}
        elif me is not None and target == me:
            text = gettext("%(name)s te croit.") % {"name": name}
        else:
            text = gettext("%(name)s croit %(target)s.") % {
                "name": name,
                "target": _name(seat_names, target),
            }
        return {"kind": "info", "icon": "👍", "text": text}
    if kind == "doubted":
        opener = gettext("Tu doutes !") if you else gettext("%(name)s doute !") % {"name": name}
        return {
            "kind": "round",
            "icon": "🤔",
            "text": f"{opener} {_verdict(event, lang, seat_names, me)}",
        }
    if kind == "nose_taken":
        count = int(event.get("noses") or 0)
        if you:
            text = ngettext(
                "Tu prends un nez : tu en as %(n)s.", "Tu prends un nez : tu en as %(n)s.", count
            ) % {"n": count}
        else:
            text = ngettext(
                "%(name)s prend un nez : %(n)s en tout.",
                "%(name)s prend un nez : %(n)s en tout.",
                count,
            ) % {"name": name, "n": count}
        return {"kind": "penalty", "icon": "👃", "text": text}
    if kind == "card_seen":
        # Private: only ever in the history of the seat that drew the card.
        card = event.get("card") or {}
        if not you:
            return None
        return {
            "kind": "info",
            "icon": "🃏",
            "text": gettext("Tu prends ta carte : « %(card)s ».")
            % {"card": phrase(lang, str(card.get("garment")), str(card.get("colour")))},
        }
    if kind == "game_over":
        winners = ", ".join(_name(seat_names, s) for s in event.get("winners") or [])
        return {
            "kind": "over",
            "icon": "🏆",
            "text": gettext("Partie terminée ! Bravo %(names)s !") % {"names": winners},
        }
    return None


def describe_event(
    event: Mapping[str, Any],
    seat_names: Sequence[str],
    options: Mapping[str, Any] | None = None,
) -> str:
    """One sentence for the log, the monitor and the replay (no "tu"). The
    garment words are in the table's ``words_language`` (its ``options``):
    a French class practising German reads German words on the monitor too."""
    words_language = (options or {}).get("words_language")
    lang = words_language if words_language in LANGUAGES else "fr"
    if event.get("type") == "card_seen":
        return gettext("Une carte est prise.")
    line = explain(event, seat_names, None, lang)
    return line["text"] if line else gettext("Un coup a été joué.")


def public_summary(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[tuple[str, str]]:
    """The monitor's line for a table: the last announcement, whose turn, noses.
    Public only: never a card's face unless a doubt revealed it."""
    lang = _language(view)
    last = view.get("last_announcement")
    current = view.get("current_seat")
    noses = view.get("noses") or []
    rows = [
        (
            gettext("Dernière annonce"),
            gettext("%(name)s : « %(card)s »")
            % {
                "name": _name(seat_names, last.get("seat")),
                "card": phrase(lang, str(last.get("garment")), str(last.get("colour"))),
            }
            if isinstance(last, Mapping)
            else gettext("aucune"),
        ),
        (
            gettext("Au tour de"),
            _name(seat_names, current)
            if current is not None
            else gettext("personne (partie finie)"),
        ),
        (
            gettext("Nez"),
            counts_line([(_name(seat_names, seat), n) for seat, n in enumerate(noses)]),
        ),
        (gettext("Cartes posées"), str(view.get("rangement_count") or 0)),
    ]
    if view.get("over"):
        rows.append((gettext("État"), gettext("Partie terminée")))
    return rows


# ---------------------------------------------------------------- what happened


def _reveal(
    history: Sequence[Mapping[str, Any]], lang: str, seat_names: Sequence[str], me: int | None
) -> dict[str, Any] | None:
    """The last doubt's turned card and its verdict, shown until the next
    judgement (a child reads slowly). ``new`` while nothing was laid since: only
    then does the card flip."""
    for index in range(len(history) - 1, -1, -1):
        event = history[index]
        kind = event.get("type")
        if kind == "believed":
            return None
        if kind != "doubted":
            continue
        card = _face_of(lang, event.get("card"))
        announced = _face_of(lang, event.get("announced"))
        if card is None or announced is None:
            return None
        later = history[index + 1 :]
        truthful = bool(event.get("truthful"))
        loser = event.get("seat") if truthful else event.get("target")
        return {
            "key": index,
            "new": not any(e.get("type") == "card_laid" for e in later),
            "card": card,
            "announced": announced,
            "truthful": truthful,
            "doubter": _name(seat_names, event.get("seat")),
            "target": _name(seat_names, event.get("target")),
            "loser": loser,
            "mine": me is not None and me in (event.get("seat"), event.get("target")),
            "verdict": _verdict(event, lang, seat_names, me),
        }
    return None


def ranking(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[dict[str, Any]]:
    """Fewest noses first; equal counts share a place (and the win)."""
    noses = [int(n or 0) for n in view.get("noses") or []]
    order = sorted(range(len(noses)), key=lambda s: (noses[s], s))
    rows: list[dict[str, Any]] = []
    for position, seat in enumerate(order):
        place = rows[-1]["place"] if rows and rows[-1]["noses"] == noses[seat] else position + 1
        rows.append(
            {
                "place": place,
                "seat": seat,
                "name": _name(seat_names, seat),
                "noses": noses[seat],
                "nose_width": nose_width(noses[seat]),
                "medal": {1: "🥇", 2: "🥈", 3: "🥉"}.get(place, ""),
            }
        )
    return rows


def events_context(
    *,
    history: list[dict[str, Any]],
    view: Mapping[str, Any],
    seat: int | None,
    seat_names: Sequence[str],
) -> dict[str, Any]:
    """What this seat has seen happen, explained in the table's words: the
    recent lines, the last reveal, the ranking at the end, whose announcement
    is being judged, and whether "how to play" opens by itself."""
    lang = _language(view)
    last = view.get("last_announcement")
    acted = seat is not None and any(
        e.get("seat") == seat and e.get("type") in ("card_laid", "doubted", "believed")
        for e in history
    )
    noses = [int(n or 0) for n in view.get("noses") or []]
    over = bool(view.get("over"))
    return {
        **generic.event_log(history, lambda index: explain(history[index], seat_names, seat, lang)),
        "reveal": _reveal(history, lang, seat_names, seat),
        "ranking": ranking(view, seat_names) if over else [],
        # The view names no winners: fewest noses win, ties share.
        "winners": [_name(seat_names, s) for s, n in enumerate(noses) if n == min(noses)]
        if over and noses
        else [],
        "last_name": _name(seat_names, last.get("seat")) if isinstance(last, Mapping) else "",
        "how_to_play_open": seat is not None and not acted and not view.get("over"),
    }


# ---------------------------------------------------------------- what a teacher learns
LANGUAGE_NAMES: dict[str, Promise] = {"fr": _("français"), "de": _("allemand"), "en": _("anglais")}



# Pinocchio's own columns in the pupil and class reports and their CSV (counted
# by classroom from its records; see cardgames.ui.ReportColumn for the keys).
REPORT_COLUMNS = (
    ReportColumn("tables", _("Parties"), _("parties")),
    ReportColumn("stat:doubts", _("Doutes"), _("doutes")),
    ReportColumn("stat:good_doubts", _("Doutes justes"), _("doutes justes")),
    ReportColumn("stat:bluffs", _("Bluffs"), _("bluffs")),
    ReportColumn("stat:caught", _("Bluffs découverts"), _("bluffs découverts")),
    ReportColumn("score", _("Nez"), _("nez (parties finies, moins = mieux)"), lower_is_better=True),
    ReportColumn("option:words_language", _("Mots en"), _("mots en"), values=LANGUAGE_NAMES),
)


def report_places(view: Mapping[str, Any]) -> dict[int, int]:
    """Seat → place of a finished game, as the end screen ranks it (fewest
    noses first, equal noses sharing a place)."""
    return {row["seat"]: row["place"] for row in ranking(view, ())}
