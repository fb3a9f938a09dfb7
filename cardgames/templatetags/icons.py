"""``{% icon "star" %}``: the app's own pictures for icons that carry
meaning, drawn from ``static/img/icons/``.

Why not emoji: a projector PC or a school's old Linux laptop often has no
emoji font, and an emoji then shows as an empty box (issue 48) — the special
card's effect, whose turn it is, the steps of "Comment jouer". An SVG file is
drawn the same on every machine, and the CSP allows same-origin images.

Text alternative: ``alt`` is the icon's translated name when the icon stands
for a word (``{% icon "effect-skip" alt=True %}``); next to a sentence that
already says it ("⭐ C'est ton tour !"), it is ``alt=""`` so a screen reader
does not read the same thing twice (the sentence *is* its text alternative).

``EMOJI_ICONS`` maps the emoji the game adapters put in their event lines and
how-to steps to a picture, so a line's ``"icon": "🤝"`` is drawn by the app
without every adapter changing; an emoji with no picture stays text, hidden
from screen readers (a decoration: its line says what happened).
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.templatetags.static import static
from django.utils.functional import Promise
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

register = template.Library()

# name → its translated name (the alt text when the icon stands alone).
ICONS: dict[str, Promise] = {
    "star": _("Étoile"),
    "hourglass": _("Attends"),
    "effect-sleep": _("Chat qui dort"),
    "effect-reverse": _("Demi-tour"),
    "effect-skip": _("Saut"),
    "effect-again": _("Rejoue"),
    "card": _("Carte"),
    "numbers": _("Nombres"),
    "warning": _("Attention"),
    "target": _("Cible"),
    "trophy": _("Victoire"),
    "speak": _("Annonce"),
    "think": _("Doute"),
    "frame": _("Tableau"),
    "sum": _("Addition"),
    "cat": _("Chat"),
    "offer": _("Offre"),
    "swap": _("Échange"),
    "trash": _("Défausse"),
    "flag": _("Fin"),
    "gift": _("Cartes reçues"),
    "robot": _("Robot"),
    "oops": _("Oups"),
    "believe": _("Je te crois"),
    "secret": _("Carte cachée"),
    "speaker": _("Écouter"),
    "lock": _("Bloqué"),
    "no": _("Interdit"),
    "first": _("Début"),
    "last": _("Fin"),
    "streak": _("Série"),
    "blank": _("Toile blanche"),
    "puzzle": _("Compléter"),
}

# The emoji of event lines and how-to steps → the picture drawn instead.
# Emoji absent here are those a text font draws anyway (↩ ♻ ⚠ ✓ ✗ ▶) or
# pictures the games already have (EMOJI_ART).
EMOJI_ICONS: dict[str, str] = {
    "⭐": "star",
    "⏳": "hourglass",
    "💤": "effect-sleep",
    "🔄": "effect-reverse",
    "🔃": "effect-reverse",
    "⏭": "effect-skip",
    "🔁": "effect-again",
    "🎴": "card",
    "🔢": "numbers",
    "⚠️": "warning",
    "⚠": "warning",
    "🎯": "target",
    "🏆": "trophy",
    "🗣": "speak",
    "🤔": "think",
    "🖼": "frame",
    "🧮": "sum",
    "🐱": "cat",
    "🙀": "offer",
    "🤝": "swap",
    "🗑": "trash",
    "🏁": "flag",
    "🎁": "gift",
    "🤖": "robot",
    "🙈": "oops",
    "👍": "believe",
    "🤫": "secret",
    "🔊": "speaker",
    "🔒": "lock",
    "🚫": "no",
    "⏮": "first",
    "🔥": "streak",
    "🃏": "card",
    "🂠": "card",
    "⬜": "blank",
    "🧩": "puzzle",
}
# Emoji a game already has a drawing for (static paths).
EMOJI_ART: dict[str, str] = {
    "🐭": "img/mouse.svg",
    "👃": "img/pinocchio/nose-long.svg",
    "🤥": "img/pinocchio/nose-long.svg",
}


def icon_src(name: str) -> str:
    """The URL of icon ``name`` (a key of ``ICONS``)."""
    return static(f"img/icons/{name}.svg")


@lru_cache(maxsize=512)
def _icon_html(name: str, alt: bool, size: int, css: str, language: str) -> str:
    # ``language`` is only a cache key: the alt text is translated now.
    # alt="" is what hides a decorative image from screen readers; the markup
    # is kept short, as event lines travel on every move (test_move_cost).
    text = conditional_escape(str(ICONS[name])) if alt else ""
    return (
        f'<img src="{icon_src(name)}" alt="{text}" width="{size}" height="{size}"'
        f' class="icon{" " + conditional_escape(css) if css else ""}" data-icon="{name}">'
    )


def icon_html(name: str, alt: bool = False, size: int = 24, css: str = "") -> str:
    """``<img>`` of icon ``name``; ``alt`` gives it its name as text
    alternative (otherwise it is hidden: the words next to it say it)."""
    return _icon_html(name, alt, size, css, get_language() or "")


def emoji_html(emoji: str, size: int = 24, css: str = "") -> str:
    """An adapter's emoji drawn by the app when it has a picture for it, else
    left as hidden text (decoration). Always hidden from screen readers: the
    line or step it leads says what it means."""
    key = emoji.strip()
    if key in EMOJI_ICONS:
        return icon_html(EMOJI_ICONS[key], size=size, css=css)
    if key in EMOJI_ART:
        return (
            f'<img src="{static(EMOJI_ART[key])}" alt="" width="{size}" height="{size}"'
            f' class="icon{" " + conditional_escape(css) if css else ""}" data-icon="{key}">'
        )
    return f'<span aria-hidden="true">{conditional_escape(emoji)}</span>' if emoji else ""


@register.simple_tag
def icon(name: str, alt: bool = False, size: int = 24, css: str = "") -> SafeString:
    """``{% icon "star" %}``, ``{% icon "effect-skip" alt=True size=32 %}``."""
    return mark_safe(icon_html(name, alt, size, css))  # every value is escaped


@register.simple_tag
def emoji_icon(emoji: str, size: int = 24, css: str = "") -> SafeString:
    """``{% emoji_icon step.emoji %}``: see ``emoji_html``."""
    return mark_safe(emoji_html(str(emoji or ""), size, css))  # escaped above
