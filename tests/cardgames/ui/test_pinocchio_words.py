"""Every garment and colour phrase in every word language, written out by hand.

The list is literal on purpose: a table bug (a wrong gender, a missing plural)
shows as one readable line that differs from what a teacher would write.
"""

from __future__ import annotations

import pytest

from cardgames.engines.pinocchio import COLOURS, GARMENTS
from cardgames.ui.pinocchio.words import LANGUAGES, SPEECH_LANG, colour_word, garment_word, phrase

EXPECTED: dict[str, dict[tuple[str, str], str]] = {
    "fr": {
        ("bonnet", "rouge"): "un bonnet rouge",
        ("bonnet", "bleu"): "un bonnet bleu",
        ("bonnet", "jaune"): "un bonnet jaune",
        ("noeud_papillon", "rouge"): "un nœud papillon rouge",
        ("noeud_papillon", "bleu"): "un nœud papillon bleu",
        ("noeud_papillon", "jaune"): "un nœud papillon jaune",
        ("chemise", "rouge"): "une chemise rouge",
        ("chemise", "bleu"): "une chemise bleue",
        ("chemise", "jaune"): "une chemise jaune",
        ("pantalon", "rouge"): "un pantalon rouge",
        ("pantalon", "bleu"): "un pantalon bleu",
        ("pantalon", "jaune"): "un pantalon jaune",
        ("sabots", "rouge"): "des sabots rouges",
        ("sabots", "bleu"): "des sabots bleus",
        ("sabots", "jaune"): "des sabots jaunes",
    },
    "de": {
        ("bonnet", "rouge"): "eine rote Mütze",
        ("bonnet", "bleu"): "eine blaue Mütze",
        ("bonnet", "jaune"): "eine gelbe Mütze",
        ("noeud_papillon", "rouge"): "eine rote Fliege",
        ("noeud_papillon", "bleu"): "eine blaue Fliege",
        ("noeud_papillon", "jaune"): "eine gelbe Fliege",
        ("chemise", "rouge"): "ein rotes Hemd",
        ("chemise", "bleu"): "ein blaues Hemd",
        ("chemise", "jaune"): "ein gelbes Hemd",
        ("pantalon", "rouge"): "eine rote Hose",
        ("pantalon", "bleu"): "eine blaue Hose",
        ("pantalon", "jaune"): "eine gelbe Hose",
        ("sabots", "rouge"): "rote Holzschuhe",
        ("sabots", "bleu"): "blaue Holzschuhe",
        ("sabots", "jaune"): "gelbe Holzschuhe",
    },
    "en": {
        ("bonnet", "rouge"): "a red hat",
        ("bonnet", "bleu"): "a blue hat",
        ("bonnet", "jaune"): "a yellow hat",
        ("noeud_papillon", "rouge"): "a red bow tie",
        ("noeud_papillon", "bleu"): "a blue bow tie",
        ("noeud_papillon", "jaune"): "a yellow bow tie",
        ("chemise", "rouge"): "a red shirt",
        ("chemise", "bleu"): "a blue shirt",
        ("chemise", "jaune"): "a yellow shirt",
        ("pantalon", "rouge"): "red trousers",
        ("pantalon", "bleu"): "blue trousers",
        ("pantalon", "jaune"): "yellow trousers",
        ("sabots", "rouge"): "red clogs",
        ("sabots", "bleu"): "blue clogs",
        ("sabots", "jaune"): "yellow clogs",
    },
}


def test_the_expected_list_covers_every_card_of_the_engine() -> None:
    assert set(EXPECTED) == set(LANGUAGES) == set(SPEECH_LANG)
    for table in EXPECTED.values():
        assert set(table) == {(g, c) for g in GARMENTS for c in COLOURS}


@pytest.mark.parametrize("lang", ["fr", "de", "en"])
def test_every_phrase_agrees(lang: str) -> None:
    got = {(g, c): phrase(lang, g, c) for g in GARMENTS for c in COLOURS}
    assert got == EXPECTED[lang]


def test_single_words_for_captions() -> None:
    assert [garment_word("fr", g) for g in GARMENTS] == ["bonnet", "nœud papillon", "chemise", "pantalon", "sabots"]
    assert [garment_word("de", g) for g in GARMENTS] == ["Mütze", "Fliege", "Hemd", "Hose", "Holzschuhe"]
    assert [garment_word("en", g) for g in GARMENTS] == ["hat", "bow tie", "shirt", "trousers", "clogs"]
    assert [colour_word("fr", c) for c in COLOURS] == ["rouge", "bleu", "jaune"]
    assert [colour_word("de", c) for c in COLOURS] == ["rot", "blau", "gelb"]
    assert [colour_word("en", c) for c in COLOURS] == ["red", "blue", "yellow"]


@pytest.mark.parametrize(
    ("lang", "garment", "colour"),
    [("it", "bonnet", "rouge"), ("fr", "chapeau", "rouge"), ("de", "bonnet", "vert"), ("en", "sabots", "")],
)
def test_unknown_words_are_refused(lang: str, garment: str, colour: str) -> None:
    with pytest.raises(ValueError):
        phrase(lang, garment, colour)
