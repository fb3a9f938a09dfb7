"""The end of a Picktura game: the scoring table, the sum a pupil adds up
before the scores are shown, why the game stopped, the ranking, and the
columns the teacher's reports count from it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cardgames.ui import ReportColumn, generic


def scoring_rows() -> list[dict[str, Any]]:
    """The scoring table, in words (the engine's ``SCORING``)."""
    return [
        {"what": gettext("Exposition de 2 cartes"), "cards": 2, "points": 2},
        {"what": gettext("Exposition de 3 cartes"), "cards": 3, "points": 3},
        {"what": gettext("Exposition complète (4 cartes)"), "cards": 4, "points": 6},
        {"what": gettext("Toile blanche gardée en main"), "cards": 0, "points": 1},
        {"what": gettext("Autre carte en main"), "cards": 0, "points": 0},
    ]


def end_question(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The sum a pupil adds up after the game, or ``None`` when the table asks
    none (the game goes on, the option is off, or this is no player's view).

    ``addends``: each exhibit's points, then 1 per blank canvas kept in hand,
    from the seat's own view; ``total``: the engine's score for the seat."""
    seat = view.get("seat")
    if not view.get("over") or not isinstance(seat, int) or view.get("hand") is None:
        return None
    if not (view.get("options") or {}).get("score_sums", True):
        return None
    exhibits = (view.get("exhibits") or [])[seat]
    blanks = sum(1 for card in view.get("hand") or [] if card.get("blank"))
    addends = [int(ex["points"]) for ex in exhibits] + [1] * blanks
    total = int(view.get("my_score") or 0)
    return {"addends": addends, "total": total, "blanks_in_hand": blanks}


def written_sum(addends: Sequence[int], total: int) -> str:
    """"6 + 3 + 2 = 11"; with nothing to add, "0"."""
    if not addends:
        return str(total)
    if len(addends) == 1:
        return f"{addends[0]} = {total}" if addends[0] != total else str(total)
    return " + ".join(str(n) for n in addends) + f" = {total}"


def end_reason(reason: Any) -> str:
    """Why the game stopped, in the words of the end screen, the log and the monitor."""
    if reason == "rebuilds":
        return gettext(
            "La pile cachée a été refaite deux fois : la partie s'arrête à la fin du tour."
        )
    if reason == "no_action":
        return gettext("Plus personne ne peut jouer : la partie est finie.")
    return gettext("La partie est finie.")


def ranking(view: Mapping[str, Any], seat_names: Sequence[str]) -> list[dict[str, Any]]:
    """The engine's ranking as it stands (the rule book breaks every tie, so
    each player has a place of their own), with each seat's score."""
    result = view.get("result") or {}
    scores = list(result.get("scores") or [])
    return generic.ranking_rows(
        result.get("ranking") or [],
        seat_names,
        lambda seat: {
            "score": scores[seat] if seat < len(scores) else 0,
            "is_me": seat == view.get("seat"),
        },
    )


# ---------------------------------------------------------------- the teacher's reports
# Picktura's own columns in the pupil and class reports and their CSV (counted
# by classroom from its records; see cardgames.ui.ReportColumn for the keys).
REPORT_COLUMNS = (
    ReportColumn("tables", _("Parties"), _("parties")),
    ReportColumn("stat:exhibits", _("Œuvres exposées"), _("œuvres exposées")),
    ReportColumn("score", _("Points"), _("points (parties finies)")),
    ReportColumn("score_sums:right", _("Sommes justes"), _("sommes de points justes")),
    ReportColumn("score_sums:wrong", _("Sommes fausses"), _("sommes de points fausses")),
    ReportColumn("best_place", _("Meilleure place"), _("meilleure place")),
)


def report_places(view: Mapping[str, Any]) -> dict[int, int]:
    """Seat → place of a finished game, as the end screen ranks it: the
    rule book's tie-break (fewer cards in hand, then seat) gives every
    player a place of their own."""
    return {row["seat"]: row["place"] for row in ranking(view, ())}
