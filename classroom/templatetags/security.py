"""Template helpers for the strict Content-Security-Policy."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_STYLE_OPEN = re.compile(r"<style(?=[\s>])")


@register.filter
def nonced(markup: str, nonce: object) -> SafeString:
    """Trusted server-drawn markup (a chart's SVG, cached without a nonce) with
    this response's CSP nonce on its ``<style>`` elements, so the policy lets
    them apply. Use only on markup the server built itself."""
    # str() first: django-csp's lazy nonce is falsy until evaluated.
    value = escape("" if nonce is None else str(nonce))
    return mark_safe(_STYLE_OPEN.sub(f'<style nonce="{value}"', str(markup)))


@register.filter
def bdi(name: object) -> SafeString:
    """A person's name isolated from the surrounding text direction (``<bdi>``):
    a right-to-left name, or one smuggling a bidi control, cannot reorder the
    sentence around it. For element content only (not attributes, <title>)."""
    return format_html("<bdi>{}</bdi>", name)
