"""The end of a Purrfect game: the ranking (the winners first, then by paws)
and the columns the teacher's reports count from the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from cardgames.ui import ReportColumn, generic


def ranking(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[dict[str, Any]]:
    """The winners first, then most paws; equal paws share a place, but a
    winner never shares one with a player who did not win."""
    paws = [int(n or 0) for n in view.get("paws") or []]
    winners = set(view.get("winners") or [])
    order = sorted(range(len(paws)), key=lambda s: (s not in winners, -paws[s], s))
    return generic.ranking_rows(
        order,
        seat_names,
        lambda seat: {"paws": paws[seat], "winner": seat in winners},
        standing=lambda seat: (paws[seat], seat in winners),
    )


# ---------------------------------------------------------------- the teacher's reports
# Purrfect's own columns in the pupil and class reports and their CSV (counted
# by classroom from its records; see cardgames.ui.ReportColumn for the keys).
REPORT_COLUMNS = (
    ReportColumn("tables", _("Parties"), _("parties")),
    ReportColumn("finished", _("Finies"), _("parties finies")),
    ReportColumn("trades", _("Échanges"), _("échanges")),
    ReportColumn("offers_withdrawn", _("Offres retirées"), _("offres retirées")),
    ReportColumn("mistaken_claims", _("« Purrfect! » trop tôt"), _("« Purrfect! » trop tôt")),
    ReportColumn("wrong_count_accepts", _("Miaous mal lus"), _("miaous mal lus")),
    ReportColumn("score", _("Pattes"), _("pattes (parties finies)")),
    ReportColumn("best_place", _("Meilleure place"), _("meilleure place")),
)


def report_places(view: Mapping[str, Any]) -> dict[int, int]:
    """Seat → place of a finished game, as the end screen ranks it (the
    winners first, equal paws sharing a place)."""
    return {row["seat"]: row["place"] for row in ranking(view, ())}
