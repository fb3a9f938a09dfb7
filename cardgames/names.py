"""Names in sentences: the one helper.

A translated sentence knows its words but not the name that will fill it, and
French changes the word *before* a name that starts with a vowel sound:
"de Adam" is "d'Adam", "le Ambre" is "l'Ambre", "que Inès" is "qu'Inès".
Translators cannot write that into a catalogue entry, so the code does it:

* ``name_mark(name)`` wraps a name in two invisible private-use characters
  before it goes into a sentence (``%(name)s`` or ``{% blocktranslate %}``);
* ``names_place(text)`` then elides the French word right before each marked
  name when the name starts with a vowel sound, and removes the marks.

``with_names(message, name=...)`` does both for Python code; templates use the
``namemark`` and ``placenames`` filters (``cardgames.templatetags.names``).
German and English need no change before a name: their sentences are written
so (``von Adam``, ``Adam ist dran``; ``Adam's``) and the test table checks them.

Choices: a name starting with "h" keeps "de" ("de Hugo", "de Hélène" are both
heard; the elided "d'Hugo" is not wrong either, but "de" never reads as a
mistake to a child); "Y" before a consonant is a vowel ("d'Yves"), before a
vowel it is not ("de Yanis").
"""

from __future__ import annotations

import html
import re

from django.utils import translation
from django.utils.safestring import SafeData, mark_safe

OPEN = "\ue000"
CLOSE = "\ue001"

# The French words that elide before a vowel, and their elided forms.
_ELIDING = {
    "de": "d'",
    "le": "l'",
    "la": "l'",
    "que": "qu'",
    "jusque": "jusqu'",
    "lorsque": "lorsqu'",
    "puisque": "puisqu'",
}
_TAGS = re.compile(r"<[^>]*>")
_VOWELS = "aeiouàâäéèêëîïôöùûüœæ"
# The word, its space, then any markup opening the name (``<bdi>``), then the mark.
_BEFORE_NAME = re.compile(
    r"(?<![\w'\u2019])(" + "|".join(_ELIDING) + r")\s+((?:<[^>]*>)*)" + OPEN, re.IGNORECASE
)


def name_mark(name: object) -> str:
    """``name`` ready to go into a sentence that ``names_place`` will finish
    (a name already made safe HTML, e.g. wrapped in ``<bdi>``, stays safe)."""
    marked = f"{OPEN}{name}{CLOSE}"
    return mark_safe(marked) if isinstance(name, SafeData) else marked


def starts_with_vowel_sound(name: str) -> bool:
    """Whether French elides before ``name`` (see the module's choices)."""
    letters = [ch for ch in name.lower() if ch.isalnum()]
    if not letters or not letters[0].isalpha():
        return False
    first = letters[0]
    if first in _VOWELS:
        return True
    if first == "y" and len(letters) > 1:
        return letters[1] not in _VOWELS + "y"
    return False


def _elide(match: re.Match[str], text: str) -> str:
    word = match.group(1)
    end = text.find(CLOSE, match.end())
    # The name as read: without the markup around it (``<bdi>``) or entities.
    name = html.unescape(_TAGS.sub("", text[match.end() : end if end >= 0 else None]))
    if not starts_with_vowel_sound(name):
        return match.group(0)
    elided = _ELIDING[word.lower()]
    if word[0].isupper():
        elided = elided[0].upper() + elided[1:]
    return elided + match.group(2) + OPEN


def names_place(text: str, language: str | None = None) -> str:
    """Finish a sentence built with ``name_mark``: French elision before each
    marked name, then the marks removed. Keeps a safe string safe."""
    safe = isinstance(text, SafeData)
    language = (language or translation.get_language() or "").split("-")[0].lower()
    out = str(text)
    if language == "fr" and OPEN in out:
        out = _BEFORE_NAME.sub(lambda m: _elide(m, out), out)
    out = out.replace(OPEN, "").replace(CLOSE, "")
    return mark_safe(out) if safe else out


def with_names(message: str, /, **names: object) -> str:
    """``message % names`` with every value placed as a name:
    ``with_names(gettext("C'est au tour de %(name)s."), name="Ambre")``."""
    return names_place(str(message) % {key: name_mark(value) for key, value in names.items()})


def counts_line(counts: list[tuple[str, object]]) -> str:
    """ "Inès : 2 · Jules : 0" for the monitor's summary of a table, with the
    colon as the reader writes it (a space before it in French only)."""
    # Translators: a player's name and a count (tokens, points…) in a summary line.
    each = translation.gettext("%(name)s : %(count)s")
    return " · ".join(each % {"name": name, "count": count} for name, count in counts)
