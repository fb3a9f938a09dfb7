"""How a Chasse card is named and drawn: its label ("7 + 8", "- 12", "Chat
qui dort"), its icon, what a screen reader says of it, and its SVG face."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

EFFECT_LABELS: dict[str, Promise] = {
    "sleep": _("Chat qui dort"),
    "reverse": _("Demi-tour"),
    "skip": _("Saut"),
    "again": _("Rejoue"),
}
EFFECT_ICONS = {"sleep": "💤", "reverse": "🔄", "skip": "⏭", "again": "🔁"}


def card_label(card: Mapping[str, Any] | None) -> str:
    if not card:
        return ""
    kind = card.get("kind")
    if kind == "add":
        return f"{card.get('a')} + {card.get('b')}"
    if kind == "sub":
        return f"\u2212 {card.get('value')}"
    return str(EFFECT_LABELS.get(str(card.get("effect")), _("Carte spéciale")))


# A card's name line holds about 10 bold characters inside its frame (80 of
# the card's 100 viewBox units at 12.5 px): longer names wrap at their spaces.
LABEL_LINE_CHARS = 10


def label_lines(label: str) -> list[str]:
    """A special card's name in at most two lines, cut at spaces ("Chat qui" /
    "dort"), so it is never clipped by the card's edge. A single long word
    stays whole; the template squeezes it into the frame."""
    lines: list[str] = []
    for word in label.split():
        if lines and len(lines[-1]) + 1 + len(word) <= LABEL_LINE_CHARS:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return lines or [label]


# What a card's drawing adds to it (text, icon, aria, its SVG face) depends on
# its values and the language only, not on its id, and a table screen draws up
# to eight cards per render: each is worked out once per worker and language
# (the face's template include alone was a sixth of a seat's render time).
_DRAWN: dict[tuple[Any, ...], dict[str, Any]] = {}
_DRAWN_MAX = 4096


def decorate(card: Mapping[str, Any]) -> dict[str, Any]:
    """A card dict plus what the template needs to draw it (text, icon, aria)."""
    key = (
        get_language(),
        card.get("kind"),
        card.get("a"),
        card.get("b"),
        card.get("value"),
        card.get("effect"),
    )
    drawn = _DRAWN.get(key)
    if drawn is None:
        if len(_DRAWN) >= _DRAWN_MAX:
            _DRAWN.clear()
        drawn = _DRAWN[key] = _drawing(card)
    return {**card, **drawn}


def _drawing(card: Mapping[str, Any]) -> dict[str, Any]:
    """What ``decorate`` adds to a card."""
    out: dict[str, Any] = {"label": card_label(card)}
    out["label_lines"] = label_lines(out["label"])
    out["icon"] = EFFECT_ICONS.get(str(card.get("effect")), "")
    kind = card.get("kind")
    if kind == "add":
        out["aria"] = gettext("Carte addition %(a)s plus %(b)s") % {
            "a": card.get("a"),
            "b": card.get("b"),
        }
    elif kind == "sub":
        out["aria"] = gettext("Carte somme moins %(v)s") % {"v": card.get("value")}
    else:
        out["aria"] = gettext("Carte spéciale : %(name)s") % {"name": out["label"]}
    out["face"] = card_face({**card, **out})
    return out


def card_face(card: Mapping[str, Any]) -> str:
    """The card's picture (an SVG drawn by ``chasse/_card.html``), safe HTML."""
    return mark_safe(render_to_string("cardgames/chasse/_card.html", {"card": card}).strip())
