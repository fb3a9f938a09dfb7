"""Numbers in reports the reader's way, and never a failure on odd input."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from classroom.numbers import number_text


@pytest.mark.parametrize(
    ("language", "value", "unit", "text"),
    [
        ("fr", 92.34, " %", "92,3 %"),
        ("de", 92.34, " %", "92,3 %"),
        ("en", 92.34, " %", "92.3%"),
        ("en", 80.0, " %", "80%"),
        ("fr", 6.5, " s", "6,5 s"),
        ("fr", -0.04, "", "0"),
        ("fr", None, " %", "—"),
    ],
)
def test_number_text(language: str, value: float | None, unit: str, text: str) -> None:
    with translation.override(language):
        # The space between a number and its unit is a no-break one
        # (test_number_wraps.py); compared here as the reader sees it.
        assert number_text(value, unit).replace("\u00a0", " ") == text


@pytest.mark.parametrize(("value", "text"), [(97.4, "97 %"), (None, "—"), ("", "—"), ("abc", "—")])
def test_the_percent_filter_never_fails(value: object, text: str) -> None:
    with translation.override("fr"):
        html = Template("{% load numbers %}{{ value|percent }}").render(Context({"value": value}))
    assert html.replace("\u00a0", " ") == text
