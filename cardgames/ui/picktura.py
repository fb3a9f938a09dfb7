"""What Picktura says when a move is refused (``docs/rules/picktura.md``); the
generic adapter draws its table until the game has its own screen."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.ui import generic

TITLE = _("Picktura")
PITCH = _("Réunis les quatre quarts de tableaux célèbres pour les exposer, puis compte tes points.")
ICON = "img/picktura/work-1.svg"

REFUSALS: dict[str, Promise] = {
    "blank_not_allowed": _("La toile blanche ne va pas ici."),
    "cannot_collect": _("Pour ramasser, il faut une carte dans chaque pile."),
    "card_not_in_hand": _("Cette carte n'est pas dans ta main."),
    "collect_first": _("Ramasse d'abord une carte, puis défausse."),
    "complete_three_not_allowed": _(
        "Une exposition de 3 cartes se complète avec une toile blanche."
    ),
    "discard_required": _("Défausse une carte pour finir de ramasser."),
    "exhibit_complete": _("Cette exposition est déjà complète."),
    "game_over": _("La partie est terminée."),
    "needs_three_cards": _("Une toile blanche complète seulement une exposition de 3 cartes."),
    "no_blank_canvases": _("Cette partie se joue sans toile blanche."),
    "no_blank_in_exhibit": _("Cette exposition n'a pas de toile blanche."),
    "not_a_blank": _("Cette carte n'est pas une toile blanche."),
    "not_same_artwork": _("Les cartes doivent montrer la même œuvre."),
    "not_your_turn": _("Ce n'est pas ton tour : attends ton tour."),
    "wrong_card_count": _("Ce n'est pas le bon nombre de cartes."),
    "wrong_draw_count": _("Choisis une pile pour chaque carte à piocher."),
}

refusal_message = generic.refusal_wording(REFUSALS)
