"""``{{ value|percent }}``: a percentage written the reader's way ("97 %" in
French and German, "97%" in English), the sign placed by the catalogue."""

from __future__ import annotations

from django import template

from classroom.numbers import percent_text

register = template.Library()


@register.filter
def percent(value: float | None, digits: int = 0) -> str:
    """A value that is not a number shows "—", like a missing one (never a 500)."""
    try:
        number = None if value is None or value == "" else float(value)
        return percent_text(number, int(digits))
    except (TypeError, ValueError):
        return "—"
