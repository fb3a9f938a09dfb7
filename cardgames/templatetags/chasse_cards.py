"""The parts of a Chasse screen a move redraws most, drawn in Python:
``{% hand_cards hand my_turn %}`` (the hand's cards) and
``{% chasse_players players over %}`` (the players' row).

A hand is drawn again on every screen whose cards or turn changed: the mover's
(a card played, one drawn) and the next player's (their cards can now be
tapped), so twice per move. As a template loop it was the costliest part of a
seat's screen (``docs/performance.md``); a card's form never changes for the
same card, state and language, so each is drawn once per worker and kept
(``_card_form``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext

from cardgames.templatetags.icons import icon_html
from cardgames.templatetags.names import is_long_name

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



@lru_cache(maxsize=4096)
def _player_line(
    language: str,
    index: int,
    is_me: bool,
    name: str,
    avatar_url: str,
    is_bot: bool,
    tokens: Any,
    hand_count: Any,
    is_current: bool,
    over: bool,
    turn_by_state: bool,
) -> str:
    """One player's line: avatar, name, white cards and cards in hand (each
    said in words for screen readers), and the "plays now" tag. Kept per worker
    by everything it is drawn from, the language included."""
    classes = "cg-player"
    if is_current and not turn_by_state:
        classes += " is-current"
    if is_me:
        classes += " is-me"
    if is_bot:
        # The app's robot, not the emoji: no emoji font on a projector PC.
        avatar = icon_html("robot", size=44)
    elif avatar_url:
        avatar = f'<img src="{_text(avatar_url)}" alt="" width="44" height="44">'
    else:
        avatar = _text(name[:1].upper())
    me_tag = f'<span class="cg-me-tag">{gettext("toi")}</span>' if is_me else ""
    token_row = '<span class="cg-token"></span>' * int(tokens or 0)
    tokens_said = ngettext("%(n)s carte blanche", "%(n)s cartes blanches", tokens) % {"n": _text(tokens)}
    hand_said = ngettext("%(n)s carte en main", "%(n)s cartes en main", hand_count) % {
        "n": _text(hand_count)
    }
    turn_tag = ""
    if not over and (turn_by_state or is_current):
        extra = " cg-turn-if-current" if turn_by_state else ""
        says = gettext("à toi") if is_me else gettext("joue")
        turn_tag = f'<span class="cg-turn-tag{extra}"><span aria-hidden="true">▶</span> {says}</span>'
    return (
        f'\n<li id="cg-player-{index}" data-unit class="{classes}" data-seat="{index}">\n'
        f'<span class="cg-avatar" aria-hidden="true">{avatar}</span>\n'
        '<span class="cg-player-body">\n'
        f'<span class="cg-player-name"{" data-long" if is_long_name(name) else ""} title="{_text(name)}">'
        f"<bdi>{_text(name)}</bdi></span>{me_tag}\n"
        '<span class="cg-player-meta">\n'
        f'<span class="cg-tokens"><span class="cg-token-row" aria-hidden="true">{token_row}</span>'
        f'<span class="cg-count" aria-hidden="true">{_text(tokens)}</span>'
        f'<span class="visually-hidden">{tokens_said}</span></span>\n'
        '<span class="cg-handcount"><span aria-hidden="true"><i class="cg-mini-card" aria-hidden="true"></i>'
        f' {_text(hand_count)}</span><span class="visually-hidden">{hand_said}</span></span>\n'
        "</span>\n"
        "</span>\n"
        f"\n{turn_tag}\n"
        "</li>"
    )


@register.simple_tag(takes_context=True)
def chasse_players(context: Any, players: Iterable[Mapping[str, Any]], over: Any) -> SafeString:
    """The players' row: every line kept per worker, so a change costs a
    look-up per player."""
    language = context.get("kept_language") or get_language() or ""
    turn_by_state = bool(context.get("turn_by_state"))
    players = list(players)
    lines = "".join(
        _player_line(
            language,
            p.get("index"),
            bool(p.get("is_me")),
            str(p.get("name", "")),
            str(p.get("avatar_url") or ""),
            bool(p.get("is_bot")),
            p.get("tokens"),
            p.get("hand_count"),
            bool(p.get("is_current")),
            bool(over),
            turn_by_state,
        )
        + "\n"
        for p in players
    )
    label = gettext("Les joueurs")
    return mark_safe(  # every value is escaped
        f'<ul class="cg-players" aria-label="{label}" data-n="{len(players)}">\n{lines}\n</ul>'
    )
