"""Reading numbers typed or posted by a client, one rule for the whole project."""

from __future__ import annotations


def whole_number(value: object, *, max_digits: int = 9) -> int | None:
    """``value`` as a whole number, or ``None``: an ``int`` that is not a bool,
    or a string of ASCII digits (spaces around allowed) of at most
    ``max_digits`` digits. Signs, decimals, other scripts' digits ("٣", "²")
    and huge numbers are refused, so a forged value never reaches a query."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text or len(text) > max_digits or not (text.isascii() and text.isdigit()):
        return None
    return int(text)
