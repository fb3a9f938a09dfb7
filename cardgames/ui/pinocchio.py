"""Pinocchio in words a child reads: for now the refusals of its engine (the table
itself is drawn by the generic adapter; rules in ``docs/rules/pinocchio.md``)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.ui import generic

TITLE = _("Pinocchio")
PITCH = _("Pose une carte face cachée et annonce-la : vérité ou bluff ? Les vêtements et les couleurs en trois langues.")
ICON = "img/pinocchio/nose-long.svg"

REFUSALS: dict[str, Promise] = {
    "cannot_doubt": _("Il n'y a pas d'annonce à croire ou à mettre en doute."),
    "game_over": _("La partie est terminée."),
    "must_follow": _("Ton annonce doit garder le vêtement ou la couleur de la précédente."),
    "not_your_turn": _("Ce n'est pas ton tour : attends ton tour."),
    "respond_first": _("Crois ou mets en doute l'annonce d'avant, d'abord."),
}

refusal_message = generic.refusal_wording(REFUSALS)
