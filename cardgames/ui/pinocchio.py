"""Pinocchio: the game's UI. Until its own screen exists, the table is drawn by
the generic adapter; the refusals are already worded for a child here, since
the engine's English messages are for developers (rules: ``docs/rules/pinocchio.md``)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.ui import generic

REFUSALS: dict[str, Promise] = {
    "cannot_doubt": _("Il n'y a pas d'annonce à croire ou à mettre en doute."),
    "game_over": _("La partie est terminée."),
    "must_follow": _("Ton annonce doit garder le vêtement ou la couleur de la précédente."),
    "not_your_turn": _("Ce n'est pas ton tour : attends ton tour."),
    "respond_first": _("Crois ou mets en doute l'annonce d'avant, d'abord."),
}


def refusal_message(code: str) -> str:
    return generic.refusal_message(code, REFUSALS)
