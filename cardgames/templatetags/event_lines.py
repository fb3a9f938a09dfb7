"""``{% event_lines lines "list-name" latest_key %}``: the lines that explain what
happened (a move, its penalty, a new round), drawn in Python.

They are the commonest markup of a live screen: the log, the short history and
the seat's own last move, on every screen of every change. As a template they
were a large part of a change's render (``docs/performance.md``); a line never
changes once drawn, so each is drawn once per worker and kept (``_line``).

With a list name, the lines are those of a list a socket is sent a line at a
time (``screen_units.Screen.update``): each line is named ``data-line``, and a
hidden separator marks where the newest move's lines end (the CSS reads it for
the slide-in and the dimmed older lines, ``.cg-sep ~ .cg-event``). Without one,
the newest lines carry ``is-new`` themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from cardgames.templatetags.icons import emoji_html

register = template.Library()


@lru_cache(maxsize=8192)
def _line(name: str, kind: str, icon: str, text: str, is_new: bool) -> str:
    named = f' data-line="{conditional_escape(name)}"' if name else ""
    new = " is-new" if is_new else ""
    return (
        f'<li{named} class="cg-event cg-event-{conditional_escape(kind)}{new}">'
        # The adapter's emoji, drawn by the app (icons.py): a projector PC
        # without an emoji font showed an empty box here.
        f'<span class="cg-event-icon" aria-hidden="true">{emoji_html(icon, 22)}</span>'
        f" <span>{conditional_escape(text)}</span></li>"
    )


@register.simple_tag
def event_lines(lines: Iterable[Mapping[str, Any]], items: str = "", latest_key: Any = "") -> SafeString:
    """The ``<li>`` of each line; with ``items`` (the list's name), named lines
    and the separator after the newest move's lines."""
    separator = f'<li data-line="{conditional_escape(items)}-sep-{conditional_escape(latest_key)}" class="cg-sep" hidden></li>'
    parts: list[str] = []
    previous: object = object()
    new = False
    for line in lines:
        new = bool(line.get("new"))
        if items and new != previous and not new:
            parts.append(separator)
        previous = new
        line_id = line.get("id")
        parts.append(
            _line(
                f"{items}-{line_id}" if items and line_id else "",
                str(line.get("kind", "")),
                str(line.get("icon", "")),
                str(line.get("text", "")),
                new and not items,
            )
        )
    if items and parts and new:
        parts.append(separator)
    return mark_safe("".join(parts))  # every value above is escaped
