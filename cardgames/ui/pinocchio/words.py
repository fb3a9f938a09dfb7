"""Pinocchio's garment and colour words in French, German and English: pure data, no Django.

The words are vocabulary for the children, chosen by the table's
``words_language`` and independent of the interface language, so they are
*not* gettext strings: a French class practising German must see German words
whatever its locale. Each language has a small grammar table (noun, gender,
number; the adjective's forms) and the phrase is built from it, because plain
concatenation breaks agreement ("une chemise bleu", "ein rot Hemd", "a red trousers").

The phrase is the indefinite noun phrase in the nominative, the way a player
announces a card: "un bonnet rouge", "eine rote Mütze", "red trousers".
Identifiers are the engine's (``cardgames.engines.pinocchio.GARMENTS`` and
``COLOURS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal, NamedTuple

Gender = Literal["m", "f", "n"]
LANGUAGES: Final[tuple[str, ...]] = ("fr", "de", "en")

# The voice the browser's speech synthesis should use for each word language.
SPEECH_LANG: Final[dict[str, str]] = {"fr": "fr-FR", "de": "de-DE", "en": "en-GB"}


class Noun(NamedTuple):
    word: str
    gender: Gender  # English nouns are all "n": English adjectives do not agree
    plural: bool


NOUNS: Final[dict[str, dict[str, Noun]]] = {
    "fr": {
        "bonnet": Noun("bonnet", "m", False),
        "noeud_papillon": Noun("nœud papillon", "m", False),
        "chemise": Noun("chemise", "f", False),
        "pantalon": Noun("pantalon", "m", False),
        "sabots": Noun("sabots", "m", True),
    },
    "de": {
        "bonnet": Noun("Mütze", "f", False),
        "noeud_papillon": Noun("Fliege", "f", False),
        "chemise": Noun("Hemd", "n", False),
        "pantalon": Noun("Hose", "f", False),
        "sabots": Noun("Holzschuhe", "m", True),
    },
    "en": {
        "bonnet": Noun("hat", "n", False),
        "noeud_papillon": Noun("bow tie", "n", False),
        "chemise": Noun("shirt", "n", False),
        # Pluralia tantum and pairs: no "a", the noun is plural.
        "pantalon": Noun("trousers", "n", True),
        "sabots": Noun("clogs", "n", True),
    },
}

# French adjectives: (masc. sing., fem. sing., masc. pl., fem. pl.).
_FR_COLOURS: Final[dict[str, tuple[str, str, str, str]]] = {
    "rouge": ("rouge", "rouge", "rouges", "rouges"),
    "bleu": ("bleu", "bleue", "bleus", "bleues"),
    "jaune": ("jaune", "jaune", "jaunes", "jaunes"),
}
# German adjective stems; the ending comes from the article in front of it.
_DE_COLOURS: Final[dict[str, str]] = {"rouge": "rot", "bleu": "blau", "jaune": "gelb"}
_EN_COLOURS: Final[dict[str, str]] = {"rouge": "red", "bleu": "blue", "jaune": "yellow"}

# German nominative after the indefinite article ("ein roter", "eine rote",
# "ein rotes") and the strong plural without an article ("rote Holzschuhe").
_DE_ARTICLE: Final[dict[Gender, str]] = {"m": "ein", "f": "eine", "n": "ein"}
_DE_ENDING: Final[dict[Gender, str]] = {"m": "er", "f": "e", "n": "es"}
_DE_PLURAL_ENDING: Final[str] = "e"


def _noun(lang: str, garment: str) -> Noun:
    try:
        return NOUNS[lang][garment]
    except KeyError:
        raise ValueError(f"no word for {garment!r} in {lang!r}") from None


def garment_word(lang: str, garment: str) -> str:
    """The garment's noun alone, as a picture caption: "nœud papillon", "Hemd", "trousers"."""
    return _noun(lang, garment).word


def colour_word(lang: str, colour: str) -> str:
    """The colour's dictionary form: "bleu", "blau", "blue"."""
    table = {"fr": {c: forms[0] for c, forms in _FR_COLOURS.items()}, "de": _DE_COLOURS, "en": _EN_COLOURS}
    try:
        return table[lang][colour]
    except KeyError:
        raise ValueError(f"no word for {colour!r} in {lang!r}") from None


def phrase(lang: str, garment: str, colour: str) -> str:
    """The indefinite noun phrase with agreement: "une chemise bleue", "ein gelbes Hemd", "a blue bow tie"."""
    noun = _noun(lang, garment)
    adjective = colour_word(lang, colour)  # validates the colour for every language
    if lang == "fr":
        forms = _FR_COLOURS[colour]
        form = forms[(2 if noun.plural else 0) + (1 if noun.gender == "f" else 0)]
        article = "des" if noun.plural else ("une" if noun.gender == "f" else "un")
        return f"{article} {noun.word} {form}"
    if lang == "de":
        if noun.plural:
            return f"{adjective}{_DE_PLURAL_ENDING} {noun.word}"
        return f"{_DE_ARTICLE[noun.gender]} {adjective}{_DE_ENDING[noun.gender]} {noun.word}"
    if noun.plural:
        return f"{adjective} {noun.word}"
    article = "an" if adjective[0] in "aeiou" else "a"
    return f"{article} {adjective} {noun.word}"


def table_language(view: Mapping[str, Any]) -> str:
    """The table's word language, from its view (French when the view names
    none we know: an old table, a forged value)."""
    lang = view.get("words_language")
    return lang if isinstance(lang, str) and lang in LANGUAGES else "fr"
