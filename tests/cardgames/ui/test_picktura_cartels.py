"""Cartels: the catalogue's facts, in the pupil's language, for every work."""

from __future__ import annotations

import pytest
from django.utils import translation

from cardgames.engines.picktura_catalogue import ARTWORKS
from cardgames.ui.picktura.cartels import cartel, cartels


def test_every_work_has_a_cartel_with_its_facts() -> None:
    assert [c["number"] for c in cartels()] == list(range(1, 13))
    for work in ARTWORKS:
        c = cartel(work["number"])
        assert (c["artist"], c["year"], c["title_original"]) == (
            work["artist"], work["year_label"], work["title_original"],
        )


def test_cartel_follows_the_interface_language() -> None:
    with translation.override("fr"):
        c = cartel(12)
        assert str(c["title"]) == "Cheval bleu I"
        assert str(c["credit"]) == "d'après Franz Marc, « Cheval bleu I », 1911"
        assert str(c["about"]).startswith("Franz Marc peint un jeune cheval tout bleu")
    with translation.override("de"):
        assert str(c["title"]) == "Blaues Pferd I"
        assert str(c["credit"]) == "nach Franz Marc, „Blaues Pferd I“, 1911"
        assert "Franz Marc" in str(c["about"]) and "peint" not in str(c["about"])
    with translation.override("en"):
        assert "peint" not in str(c["about"])
        assert str(c["year"]) == "1911"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_cartel_text_is_translated(lang: str) -> None:
    for c in cartels():
        with translation.override("fr"):
            french = (str(c["title"]), str(c["about"]))
        with translation.override(lang):
            # Titles may coincide ("Composition VIII"), the sentences never do.
            assert str(c["about"]) != french[1], (lang, c["number"])
            assert str(c["title"]).strip()


def test_unknown_work_is_refused() -> None:
    with pytest.raises(ValueError):
        cartel(13)
