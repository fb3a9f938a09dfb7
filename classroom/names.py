"""Names people type (pupils, classes, teachers) made safe to show and compare.

A name is stored NFC-normalised with its spaces collapsed, and refused if it
holds an invisible or control character: zero-width spaces and joiners, bidi
overrides and isolates (``\\u202e`` turns "Zoé" into a reversed look-alike),
soft hyphens, fillers that render as blank. Two names are the same pupil's
name when their :func:`name_key` match (compatibility forms, case), so
``Zoé`` typed precomposed, decomposed or in full-width letters is one name.
Templates still show names inside ``<bdi>`` (the ``bdi`` filter).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# Unicode categories never legitimate in a name: controls, format characters
# (zero-width, bidi controls, soft hyphen…), line/paragraph separators,
# surrogates, private use, unassigned.
_REFUSED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}
# Letters that render as nothing ("Hangul filler"…) and the blank braille cell.
T = TypeVar("T")

_BLANK_LOOKING = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f", "\u17b4", "\u17b5"}


def name_clean(raw: str, *, max_length: int) -> str:
    """``raw`` as stored: NFC, single spaces, at most ``max_length`` characters.
    Raises ``ValidationError`` (a readable sentence) for an empty name or one
    holding an invisible or control character."""
    text = unicodedata.normalize("NFC", raw)
    bad = [
        ch
        for ch in text
        if ch not in " \t"
        and (unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _BLANK_LOOKING)
    ]
    if bad:
        raise ValidationError(
            _("Ce nom contient un caractère invisible ou de contrôle (%(codes)s) : retapez-le.")
            % {"codes": ", ".join(sorted({f"U+{ord(ch):04X}" for ch in bad}))},
            code="invisible",
        )
    name = " ".join(text.split())[:max_length].strip()
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise ValidationError(
            _("Le nom doit contenir au moins une lettre ou un chiffre."), code="empty"
        )
    return name


def name_key(name: str) -> str:
    """What two names must share to count as the same name: compatibility
    normalisation (full-width ``\\uff3a`` is ``Z``) and case folding."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFC", name)).casefold()


# Letters that are two letters in a name's alphabetical place (French and
# German dictionaries file "Œ" with "OE", "ß" with "ss").
_SPELLED_OUT = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss", "ø": "o", "đ": "d", "ł": "l"})


def name_sort_key(name: str) -> tuple[str, str, str]:
    """Where a name goes in a list, the way French, German and English readers
    look for it: "Éloïse" among the E's, "Léa" before "Lucas", "Maëlle" before
    "Mathis" (sorting by code points put every accented letter after Z: a
    6-year-old looking for their name did not find it). Accents and case only
    break ties, then the name itself, so the order is the same on every
    database and every run."""
    folded = name_key(name)
    bare = "".join(
        ch for ch in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(ch)
    ).translate(_SPELLED_OUT)
    return (bare, folded, name)


def by_name(items: Iterable[T], name: Callable[[T], str]) -> list[T]:
    """``items`` sorted with ``name_sort_key`` on each one's name."""
    return sorted(items, key=lambda item: name_sort_key(name(item)))
