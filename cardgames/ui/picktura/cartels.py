"""The cartel of each Picktura work, as the screens show it: title, artist, year, a word for children.

The facts and the French texts live in the engine's catalogue
(:mod:`cardgames.engines.picktura_catalogue`), where ``makemessages`` extracts
them; this module only hands them to templates as lazy translations, so the
cartel follows the pupil's interface language while the catalogue stays free of
Django. Artist names, years and original titles are never translated.
"""

from __future__ import annotations

from typing import TypedDict

from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from cardgames.engines.picktura_catalogue import ARTWORK_BY_NUMBER, CREDIT_FORMAT


class Cartel(TypedDict):
    number: int
    title: Promise
    title_original: str
    title_original_language: str
    artist: str
    year: str
    about: Promise
    credit: str | Promise  # a lazy string: str() it in the pupil's language


def cartel(work_id: int) -> Cartel:
    """The cartel of work ``work_id`` (the catalogue's ``number``, 1..12).

    ``year`` is the catalogue's ``year_label`` (a span such as "1929-1930" when
    the work took more than a year). ``credit`` reads "d'après Piet Mondrian,
    « Composition … », 1921": the pictures are the project's drawings, never
    reproductions, and every card that shows one says so.
    """
    try:
        work = ARTWORK_BY_NUMBER[work_id]
    except KeyError:
        raise ValueError(f"no work {work_id!r}") from None
    title = gettext_lazy(work["title"])  # extracted from the catalogue
    return {
        "number": work["number"],
        "title": title,
        "title_original": work["title_original"],
        "title_original_language": work["title_original_language"],
        "artist": work["artist"],
        "year": work["year_label"],
        "about": gettext_lazy(work["cartel"]),
        "credit": format_lazy(gettext_lazy(CREDIT_FORMAT), artist=work["artist"], title=title, year=work["year_label"]),
    }


def cartels() -> list[Cartel]:
    """Every cartel in catalogue order (for a gallery or the rules page)."""
    return [cartel(number) for number in sorted(ARTWORK_BY_NUMBER)]
