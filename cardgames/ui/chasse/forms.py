"""What the teacher and the child type for Chasse: the option labels of the
teacher's form, the child's announce form turned into an engine action, and
the refusals the child reads when the engine says no.

The engine knows only option keys, types and bounds; the labels and help texts
below are what the teacher's options form shows, translated through gettext.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.engines.base import IllegalAction
from cardgames.parsing import whole_number
from cardgames.ui import generic

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
