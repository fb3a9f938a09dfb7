"""German words a German teacher read as wrong (issue 48): "Tausche" for a
column of trades, "Summenkarten" for the cards that subtract, "● in Arbeit"
for a lesson running now, and the game called "Mäusejagd" in one place only
while every other screen says "La Chasse aux Souris"."""

from __future__ import annotations

from pathlib import Path

import polib
from django.utils import translation
from django.utils.translation import pgettext

ROOT = Path(__file__).resolve().parents[2]


def _german() -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"))


def test_no_german_screen_uses_the_words_teachers_found_wrong() -> None:
    wrong = [
        (e.msgid, e.msgstr)
        for e in _german()
        if not e.obsolete
        and (
            "Mäusejagd" in e.msgstr
            or "Summenkarte" in e.msgstr
            or "in Arbeit" in e.msgstr
            or e.msgstr == "Tausche"
        )
    ]
    assert not wrong, wrong


def test_a_running_lesson_and_a_fact_being_learnt_are_two_words_in_german() -> None:
    with translation.override("de"):
        assert pgettext("a lesson running now", "en cours") == "läuft"
        assert pgettext("a fact being learnt", "en cours") == "wird geübt"


def test_english_dates_are_never_month_first() -> None:
    """'12/05/2026' read as the 12th of May outside the United States."""
    from datetime import date

    from django.utils.formats import date_format

    with translation.override("en"):
        assert date_format(date(2026, 12, 5), "SHORT_DATE_FORMAT") == "5 Dec 2026"
    with translation.override("fr"):
        assert date_format(date(2026, 12, 5), "SHORT_DATE_FORMAT") == "05/12/2026"
