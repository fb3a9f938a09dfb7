"""Template helpers for the strict Content-Security-Policy."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# A <style> start tag that has no nonce yet.
_STYLE_OPEN = re.compile(r"<style(?=[\s>])(?![^>]*\snonce=)")


@register.filter
def nonced(markup: str, nonce: object) -> SafeString:
    """Trusted server-drawn markup (a chart's SVG, cached without a nonce) with
    this response's CSP nonce on its ``<style>`` elements, so the policy lets
    them apply. Use only on markup the server built itself."""
    # str() first: django-csp's lazy nonce is falsy until evaluated.
    value = escape("" if nonce is None else str(nonce))
    if not value:
        # Rendered outside a request (a cached page body): the page that shows
        # it applies the filter again, with its own response's nonce.
        return mark_safe(str(markup))
    return mark_safe(_STYLE_OPEN.sub(f'<style nonce="{value}"', str(markup)))


@register.filter
def bdi(name: object) -> SafeString:
    """A person's name isolated from the surrounding text direction (``<bdi>``):
    a right-to-left name, or one smuggling a bidi control, cannot reorder the
    sentence around it. For element content only (not attributes, <title>)."""
    return format_html("<bdi>{}</bdi>", name)


@register.simple_tag(takes_context=True)
def nonced_markup(context: template.Context, markup: str) -> SafeString:
    """``nonced`` with this response's nonce taken from the context, if any:
    works in fragments rendered without a request (cached, then shown by a
    page that applies ``nonced`` again with its own nonce)."""
    nonce = context.get("CSP_NONCE")
    if nonce is None:
        request = context.get("request")
        nonce = getattr(request, "csp_nonce", None) if request is not None else None
    return nonced(markup, nonce)
