"""``{% table_notice %}`` and ``{% table_state %}``: the two small units at the
top of every table screen, drawn in Python.

Every screen of every change draws both (the notice says the change aloud for
screen readers; the state line carries the version the tablet acts on). As
included templates they cost more to include than to draw; drawn here from the
same context values they cost next to nothing (``docs/performance.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.template.context import Context
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()


def _text(value: Any) -> str:
    return "" if value is None else str(conditional_escape(value))


def notice_html(
    *,
    notice: Any = "",
    oob: bool = False,
    announce: bool = False,
    started: bool = False,
    latest: Any = (),
    log: Any = (),
    view: Mapping[str, Any] | None = None,
    my_turn: bool = False,
    kept: Any = "",
) -> SafeString:
    """The table screen's one live region (polite): a refusal, and after each
    change of the table one short spoken line (what happened, the total, whose
    turn). Swapped by its content, so the region itself stays and screen
    readers hear it. ``kept``: a refusal already said, still shown until the
    child's next tap (``kept_html``)."""
    swap = ' hx-swap-oob="innerHTML"' if oob else ""
    parts = [f'<div id="table-notice" data-unit class="cg-notice"{swap} aria-live="polite" aria-atomic="true">']
    if notice:
        parts.append(f'<p class="cg-notice-text"><span aria-hidden="true">⚠️</span> {_text(notice)}</p>')
    elif kept:
        parts.append(kept_html(kept))
    if announce and started:
        parts.append('<p class="visually-hidden cg-say">')
        if latest:
            parts.extend(f"{_text(line.get('text'))} " for line in latest)
        elif log:
            parts.append(f"{_text(log[0])} ")
        total = (view or {}).get("total")
        if total is not None:
            # As {% blocktranslate %} does: the value escaped, the sentence as translated.
            parts.append(gettext("Total : %(total)s.") % {"total": _text(total)} + " ")
        if my_turn:
            parts.append(gettext("C'est ton tour !"))  # a sentence we wrote: not escaped, as {% translate %}
        parts.append("</p>")
    parts.append("</div>")
    return mark_safe("".join(parts))  # every value above is escaped


def kept_html(message: Any) -> str:
    """A refusal already said, drawn again on the redraws that follow it
    (``rendering.notice_keep``): the child still reads it, but the region is
    atomic, so a screen reader would say it again with every change of the
    table; hidden from it, the refusal is said once."""
    return (
        f'<p class="cg-notice-text" data-kept aria-hidden="true">'
        f'<span>⚠️</span> {_text(message)}</p>'
    )


def state_html(
    *,
    version: Any,
    seat: int | None,
    view: Mapping[str, Any] | None,
    status: Any,
    over: bool,
    nonce: str = "",
) -> SafeString:
    """The hidden state line: the version the tablet's next move is made on,
    and what the page's script reads (whose turn, the table's status)."""
    current = (view or {}).get("current_seat")
    nonce_input = (
        f'<input type="hidden" id="table-nonce" name="nonce" value="{_text(nonce)}">' if nonce else ""
    )
    return mark_safe(  # every value is escaped
        f'<div id="table-state" data-unit hidden data-version="{_text(version)}"'
        f' data-seat="{_text(seat)}" data-current-seat="{_text(current)}"'
        f' data-status="{_text(status)}" data-over="{1 if over else 0}">'
        f'<input type="hidden" id="table-version" name="version" value="{_text(version)}">'
        f"{nonce_input}</div>"
    )


@register.simple_tag(takes_context=True)
def table_notice(context: Context) -> SafeString:
    return notice_html(
        notice=context.get("notice", ""),
        oob=bool(context.get("oob")),
        announce=bool(context.get("announce")),
        started=bool(context.get("started")),
        latest=context.get("latest") or (),
        log=context.get("log") or (),
        view=context.get("view"),
        my_turn=bool(context.get("my_turn")) and bool(context.get("turn_based", True)),
    )


@register.simple_tag(takes_context=True)
def table_state(context: Context) -> SafeString:
    table = context.get("table")
    return state_html(
        version=context.get("version"),
        seat=context.get("seat"),
        view=context.get("view"),
        status=getattr(table, "status", ""),
        over=bool(context.get("over")),
        nonce=context.get("nonce", "") if context.get("state_nonce") else "",
    )
