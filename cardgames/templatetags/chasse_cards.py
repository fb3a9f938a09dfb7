"""``{% hand_cards hand my_turn %}``: the cards of a Chasse hand, drawn in Python.

A hand is drawn again on every screen whose cards or turn changed: the mover's
(a card played, one drawn) and the next player's (their cards can now be
tapped), so twice per move. As a template loop it was the costliest part of a
seat's screen (0.39 ms of a change's 4.0 ms of rendering, measured per
block); a card's form never changes for the same card, state and language, so
each is drawn once per worker and kept (``_card_form``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()


def _text(value: Any) -> str:
    # As the template printed a value: None as "None", everything escaped.
    return str(conditional_escape(value))


@lru_cache(maxsize=4096)
def _card_form(
    card_id: Any, kind: Any, value: Any, legal: bool, chosen: bool, aria: Any, face: Any, enabled: bool
) -> str:
    """One card of the hand: a form a tap sends (``choose``), its button
    disabled when the card cannot be played now."""
    return (
        f'<form data-line="cg-card-{_text(card_id)}" ws-send class="cg-card-form">'
        '<input type="hidden" name="kind" value="choose">'
        f'<input type="hidden" name="card" value="{_text(card_id)}">\n'
        f'<button class="cg-card cg-card-{_text(kind)}{" is-chosen" if chosen else ""}"'
        f' data-card="{_text(card_id)}" data-legal="{1 if legal else 0}"'
        f' aria-label="{_text(aria)}" data-kind="{_text(kind)}" data-value="{_text(value)}"'
        f' aria-pressed="{"true" if chosen else "false"}"{"" if enabled else " disabled"}>'
        f"{_text(face)}</button></form>"
    )


@register.simple_tag
def hand_cards(hand: Iterable[Mapping[str, Any]], my_turn: bool) -> SafeString:
    """The hand's card forms, in order (or a line saying it is empty)."""
    forms = [
        _card_form(
            card.get("id"),
            card.get("kind"),
            card.get("value"),
            bool(card.get("legal")),
            bool(card.get("chosen")),
            card.get("aria"),
            card.get("face"),
            bool(card.get("legal")) and bool(my_turn),
        )
        for card in hand
    ]
    if not forms:
        # A sentence we wrote: not escaped, as {% translate %}.
        return mark_safe(f'<p class="cg-muted">{gettext("Ta main est vide.")}</p>')
    return mark_safe("".join(forms))  # every value above is escaped

