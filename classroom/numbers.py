"""Numbers as the reader writes them, for reports and their charts."""

from __future__ import annotations

from django.utils.formats import get_format, number_format
from django.utils.translation import gettext as _


def number_text(value: float | None, unit: str = "", digits: int = 1) -> str:
    """``value`` as the reader writes numbers: "92,3 %" in French, "92,3 %" in
    German, "92.3%" in English. ``unit`` is " %" or " s" (the space is the
    French and German habit; each language's catalogue says where it goes)."""
    if value is None:
        return "—"
    # + 0.0: a small negative rounds to -0.0, which would print "-0".
    text = number_format(round(value, digits) + 0.0, decimal_pos=digits)
    separator = get_format("DECIMAL_SEPARATOR")
    if text.endswith(separator + "0" * digits):
        text = text[: -(len(separator) + digits)]
    if unit.strip() == "%":
        # Translators: a percentage; "%%" is the per cent sign.
        return _("%(number)s %%") % {"number": text}
    if unit.strip() == "s":
        # Translators: a duration in seconds.
        return _("%(number)s s") % {"number": text}
    return f"{text}{unit}"


def percent_text(value: float | None, digits: int = 0) -> str:
    """A percentage the reader's way ("97 %", "97%")."""
    return number_text(value, " %", digits)
