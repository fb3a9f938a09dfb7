"""``{% shared "name" key… %}…{% endshared %}``: a piece of a table screen drawn
once per change and reused by every screen of that change.

After a move every socket's screen is rendered again, and most of it (the
board, the other players' lines) is the same for every seat. The consumer hands
the renders of one change a common dict (``shared_parts`` in the context, one
per table, change and language); the first screen to reach a ``shared`` block
renders it, the others copy it.

The block must depend only on what every viewer may see, plus the values named
after its name (``p.index p.is_me``): those, and nothing secret, make the key.
Without ``shared_parts`` in the context (a page, a test) the block simply renders.

``{% kept "name" value… %}`` goes further for the parts a move seldom changes
(a player's line, a hand, "how to play"): they are kept from one change to the
next in the worker, by *everything* they are drawn from, and drawn again only
when one of those values changed.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import FilterExpression, Node, NodeList, Parser, Token
from django.template.context import Context
from django.utils.translation import get_language

register = template.Library()


class SharedNode(Node):
    def __init__(self, keys: list[FilterExpression], nodelist: NodeList) -> None:
        self.keys = keys
        self.nodelist = nodelist

    def render(self, context: Context) -> str:
        parts: dict[tuple[Any, ...], str] | None = context.get("shared_parts")
        if parts is None:
            return self.nodelist.render(context)
        key = tuple(expression.resolve(context) for expression in self.keys)
        html = parts.get(key)
        if html is None:
            html = parts[key] = self.nodelist.render(context)
        return html


# Parts kept from one change to the next, by what they are drawn from.
_KEPT: dict[tuple[Any, ...], str] = {}
_KEPT_MAX = 8192


class KeptNode(SharedNode):
    def render(self, context: Context) -> str:
        if context.get("shared_parts") is None:
            return self.nodelist.render(context)
        language = context.get("kept_language") or get_language()
        key = (language, *(expression.resolve(context) for expression in self.keys))
        html = _KEPT.get(key)
        if html is None:
            if len(_KEPT) >= _KEPT_MAX:
                _KEPT.clear()
            html = _KEPT[key] = self.nodelist.render(context)
        return html


def _block(parser: Parser, token: Token) -> tuple[list[FilterExpression], NodeList]:
    """The values after the tag's name, and the block up to its end tag."""
    name, *bits = token.split_contents()
    if not bits:
        raise template.TemplateSyntaxError(f"{{% {name} %}} needs a name, e.g. {{% {name} 'board' %}}")
    nodelist = parser.parse((f"end{name}",))
    parser.delete_first_token()
    return [parser.compile_filter(bit) for bit in bits], nodelist


@register.tag("shared")
def do_shared(parser: Parser, token: Token) -> SharedNode:
    return SharedNode(*_block(parser, token))


@register.tag("kept")
def do_kept(parser: Parser, token: Token) -> KeptNode:
    """``{% kept "name" value… %}…{% endkept %}``: like ``shared``, but kept
    across changes, so the values must be *everything* the block is drawn
    from (the language is added): a player's line or a hand that a move did not
    change is not drawn again. Only on the live path (``shared_parts`` given)."""
    return KeptNode(*_block(parser, token))
