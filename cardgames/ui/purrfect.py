"""Purrfect's UI. Its table is still drawn by the generic adapter; its refusals
are already in words a child reads (rules: ``docs/rules/purrfect.md``)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.ui import generic

REFUSALS: dict[str, Promise] = {
    "card_locked": _("Cette carte est dans ton offre : retire d'abord ton offre."),
    "card_not_in_hand": _("Cette carte n'est pas dans ta main."),
    "claim_blocked": _("Tu ne peux pas réclamer de nouveau tant que ta main n'a pas changé."),
    "game_over": _("La partie est terminée."),
    "no_open_offer": _("Tu n'as pas d'offre à retirer."),
    "not_same_cat": _("Ces cartes ne vont pas ensemble."),
    "offer_already_open": _("Tu as déjà une offre : retire-la d'abord."),
    "offer_closed": _("Cette offre s'est terminée avec la manche."),
    "offer_taken": _("Quelqu'un a été plus rapide que toi."),
    "offer_withdrawn": _("Cette offre a été retirée."),
    "own_offer": _("Tu ne peux pas accepter ta propre offre."),
    "wrong_count": _("Donne exactement autant de cartes que l'offre en demande."),
}

refusal_message = generic.refusal_wording(REFUSALS)
