# The typographic minus "−" and times "×" are what the pupils and parents read.
# ruff: noqa: RUF001, RUF003
"""Tips for parents: the skills to practise turned into small games at home,
in the language of the request (translated when built)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.translation import gettext_lazy as _

from classroom.insights.plays import Play
from classroom.insights.practice import PracticeItem, practise_next
from classroom.insights.summary import PupilSummary, pupil_summary

_COMPLEMENTS = "1 + 9, 2 + 8, 3 + 7, 4 + 6, 5 + 5"


def _carry_example(digit: int) -> str:
    before = 37 if digit != 3 else 38
    after = before + digit
    to_ten = 10 - before % 10
    return f"{before} + {digit} = {before} + {to_ten} + {digit - to_ten} = {after}"


def _borrow_example(digit: int) -> str:
    before = 52 if digit > 2 else 51
    first = before % 10
    return f"{before} − {digit} = {before} − {first} − {digit - first} = {before - digit}"


def parent_tips(
    *,
    plays: Iterable[Play],
    items: Sequence[PracticeItem] | None = None,
    summary: PupilSummary | None = None,
) -> list[str]:
    """Two or three concrete things a parent can do at home, in plain French,
    chosen from the child's own records: the skills of :func:`practise_next`
    turned into games, then general encouragement so there are always at
    least two. Strings are translated in the active language.

    ``items`` and ``summary`` may be passed when the page has them already,
    which spares a second pass over the records."""
    plays = list(plays) if not isinstance(plays, list) else plays
    if items is None:
        items = practise_next(plays=plays, n=3)
    if summary is None:
        summary = pupil_summary(plays=plays)
    tips: list[str] = []
    facts: list[str] = []
    for item in items:
        if item.code.startswith("fact:"):
            a, b = item.code.split(":")[1].split("+")
            facts.append(f"{a} + {b}")
        elif (tip := _skill_tip(item)) is not None:
            tips.append(tip)
    if facts:
        tips.insert(
            0,
            str(
                _(
                    "Révisez ensemble %(facts)s : écrivez-les sur des petites cartes et "
                    "tirez-en une chaque soir, en voiture ou à table."
                )
            )
            % {"facts": ", ".join(facts)},
        )
    if len(tips) < 3 and summary.median_compute_ms is not None and summary.median_compute_ms > 6000:
        tips.append(
            str(
                _(
                    "Calculez de tête à voix haute pendant 5 minutes par jour (les prix en "
                    "courses, les points d'un jeu) : la vitesse vient avec l'habitude."
                )
            )
        )
    if len(tips) < 2:
        tips.append(
            str(
                _(
                    "Demandez à votre enfant de vous expliquer comment il calcule 38 + 14 : "
                    "expliquer sa méthode aide à la retenir."
                )
            )
        )
    if len(tips) < 2:
        tips.append(
            str(
                _(
                    "Jouez à deux à la Chasse aux Souris avec un jeu de cartes : annoncez "
                    "chacun le total à voix haute."
                )
            )
        )
    return tips[:3]


def _skill_tip(item: PracticeItem) -> str | None:
    """The game at home for one skill (avoiding tens, the carry, the borrow);
    ``None`` for a kind without one (a fact goes into the shared fact tip)."""
    code = item.code
    if code == "avoid_tens":
        return str(
            _(
                "Entraînez les compléments à 10 : %(pairs)s… Demandez « combien pour "
                "aller à la prochaine dizaine ? » (27 → 3, 45 → 5). Votre enfant verra "
                "venir 30, 50… et choisira une autre carte."
            )
        ) % {"pairs": _COMPLEMENTS}
    if code == "carry":
        digit = _tip_digit(item)
        if digit == 9:
            return str(
                _(
                    "Jouez à ajouter 9 : ajouter 9, c'est ajouter 10 puis enlever 1. "
                    "Par exemple 36 + 9 = 46 − 1 = 45. Essayez avec 27, 54, 68…"
                )
            )
        return str(
            _(
                "Jouez à ajouter %(digit)s en passant par la dizaine : "
                "%(example)s. Quelques calculs par jour suffisent."
            )
        ) % {"digit": digit, "example": _carry_example(digit)}
    if code == "borrow":
        digit = _tip_digit(item)
        return str(
            _("Jouez à enlever %(digit)s en descendant d'abord à la dizaine : %(example)s.")
        ) % {"digit": digit, "example": _borrow_example(digit)}
    return None


def _tip_digit(item: PracticeItem) -> int:
    """The units digit the child missed most when crossing a ten (``digit``
    of a ``carry`` or ``borrow`` item), so the tip is about the numbers they
    actually stumble on; 7 when the item does not say (or names 1 or 2,
    which cross a ten from too few totals to make a good example)."""
    digit = dict(item.params).get("digit")
    return digit if isinstance(digit, int) and 3 <= digit <= 9 else 7
