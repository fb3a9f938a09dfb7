"""French says "0 élève", not "0 élèves".

French is the source language, so its catalogue had empty translations; for
a plural, gettext then falls back to the English rule (``n != 1``) and the
teacher read "0 élèves sont là". Every French plural entry now carries its
forms, so the catalogue's own rule (``n > 1``) applies."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import ngettext

ROOT = Path(__file__).resolve().parents[2]


def test_every_french_plural_entry_has_its_forms() -> None:
    catalogue = polib.pofile(str(ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    assert "n > 1" in catalogue.metadata["Plural-Forms"]
    empty = [
        e.msgid
        for e in catalogue
        if e.msgid_plural and not e.obsolete and not all(e.msgstr_plural.values())
    ]
    assert not empty, f"{len(empty)} French plural entries without forms: {empty[:5]}"


@pytest.mark.parametrize(("count", "said"), [(0, "0 élève"), (1, "1 élève"), (2, "2 élèves")])
def test_zero_is_singular_in_french(count: int, said: str) -> None:
    with translation.override("fr"):
        text = ngettext("%(n)s élève est là", "%(n)s élèves sont là", count) % {"n": count}
    assert text.startswith(said + " ")


def test_the_joined_list_says_zero_in_the_singular() -> None:
    with translation.override("fr"):
        html = render_to_string("classroom/teacher/_joined.html", {"pupils": []})
    assert "0 élèves" not in html
