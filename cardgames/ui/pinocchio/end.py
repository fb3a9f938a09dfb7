"""The end of a Pinocchio game: the ranking (fewest noses first) and the
columns the teacher's reports count from the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.ui import ReportColumn, generic
from cardgames.ui.pinocchio.faces import nose_width


def ranking(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[dict[str, Any]]:
    """Fewest noses first; equal counts share a place (and the win)."""
    noses = [int(n or 0) for n in view.get("noses") or []]
    order = sorted(range(len(noses)), key=lambda s: (noses[s], s))
    return generic.ranking_rows(
        order,
        seat_names,
        lambda seat: {"noses": noses[seat], "nose_width": nose_width(noses[seat])},
        standing=lambda seat: noses[seat],
    )


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
