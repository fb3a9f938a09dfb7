"""Whole numbers from form strings and JSON values.

One rule for every place that reads a number a client sent: a plain whole number
or nothing. Callers turn ``None`` into their own polite refusal."""

from __future__ import annotations


def whole_number(value: object, *, max_digits: int = 9) -> int | None:
    """An ``int`` that is not a ``bool``, or a string of ASCII digits (surrounding
    spaces allowed, at most ``max_digits`` digits); anything else is ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text and len(text) <= max_digits and text.isascii() and text.isdigit():
            return int(text)
    return None
