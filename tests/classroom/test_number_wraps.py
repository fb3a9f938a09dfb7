"""A number and its unit are one word: "100,0 %" on a report tile wrapped as
"100,0" / "%", and "60 %" on a parent's phone split over two lines (issue 48).
The helpers glue them with a no-break space; the CSV export keeps plain
numbers a spreadsheet can read."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from classroom.numbers import NO_BREAK_SPACE, number_text, percent_text


@pytest.mark.parametrize(
    ("language", "value", "unit", "text"),
    [
        ("fr", 100.0, " %", "100\u00a0%"),
        ("fr", 92.34, " %", "92,3\u00a0%"),
        ("de", 92.34, " %", "92,3\u00a0%"),
        ("en", 92.34, " %", "92.3%"),
        ("fr", 6.5, " s", "6,5\u00a0s"),
        ("de", 6.5, " s", "6,5\u00a0s"),
    ],
)
def test_a_number_and_its_unit_never_part(
    language: str, value: float, unit: str, text: str
) -> None:
    with translation.override(language):
        written = number_text(value, unit)
    assert written == text
    assert " " not in written


def test_percent_text_and_the_filter_use_the_no_break_space() -> None:
    with translation.override("fr"):
        assert percent_text(60) == f"60{NO_BREAK_SPACE}%"
        html = Template("{% load numbers %}{{ value|percent:1 }}").render(Context({"value": 100}))
    assert html == "100\u00a0%"


def test_a_bare_number_is_unchanged() -> None:
    with translation.override("fr"):
        assert number_text(12.25) == "12,2" or number_text(12.25) == "12,3"
        assert number_text(None, " %") == "—"
