"""Numbers as the reader writes them, for reports and their charts."""

from __future__ import annotations

from django.utils.formats import get_format, number_format
from django.utils.translation import gettext as _

# A no-break space: "100,0 %" on a narrow report tile or a parent's phone must
# never wrap as "100,0" / "%". U+00A0 rather than French's narrow U+202F: every
# font of a school PC has it, and it is the width of the space it replaces.
NO_BREAK_SPACE = "\u00a0"


def number_text(value: float | None, unit: str = "", digits: int = 1) -> str:
    """``value`` as the reader writes numbers: "92,3 %" in French, "92,3 %" in
    German, "92.3%" in English. ``unit`` is " %" or " s" (the space is the
    French and German habit; each language's catalogue says where it goes).
    Every space of the result is a no-break space (``NO_BREAK_SPACE``), so a
    line never ends between a number and its unit. Not for CSV cells: those
    are plain numbers a spreadsheet reads."""
    if value is None:
        return "—"
    # + 0.0: a small negative rounds to -0.0, which would print "-0".
    text = number_format(round(value, digits) + 0.0, decimal_pos=digits)
    separator = get_format("DECIMAL_SEPARATOR")
    if text.endswith(separator + "0" * digits):
        text = text[: -(len(separator) + digits)]
    if unit.strip() == "%":
        # Translators: a percentage; "%%" is the per cent sign.
        written = _("%(number)s %%") % {"number": text}
    elif unit.strip() == "s":
        # Translators: a duration in seconds.
        written = _("%(number)s s") % {"number": text}
    else:
        written = f"{text}{unit}"
    # The catalogues write a plain space (translators type one); the number
    # and its unit are one word to the reader, so they are glued here.
    return written.replace(" ", NO_BREAK_SPACE)


def percent_text(value: float | None, digits: int = 0) -> str:
    """A percentage the reader's way ("97 %", "97%")."""
    return number_text(value, " %", digits)
