"""``namemark`` and ``placenames``: names in translated template sentences.

    {% load names %}
    {% blocktranslate asvar title with name=pupil.display_name|namemark %}Les progrès de {{ name }}{% endblocktranslate %}
    {{ title|placenames }}

gives "Les progrès d'Adam" in French (see ``cardgames.names``).
"""

from __future__ import annotations

from django import template

from cardgames.names import name_mark, names_place

register = template.Library()


@register.filter
def namemark(name: object) -> str:
    return name_mark(name)


@register.filter(is_safe=True)
def placenames(text: str) -> str:
    return names_place(text)


# A word longer than this ("Maximilienne", "Castelnaudarys") is written one
# step smaller, so it keeps one line in a narrow card (issue 48).
LONG_WORD = 10


def is_long_name(name: object) -> bool:
    """Whether ``name`` has a word (cut at spaces and hyphens: where a name
    may wrap) longer than ``LONG_WORD`` letters."""
    words = str(name or "").replace("-", " ").split()
    return max((len(w) for w in words), default=0) > LONG_WORD


@register.filter
def long_name(name: object) -> bool:
    """``{% if p.name|long_name %} data-long{% endif %}``: see ``is_long_name``."""
    return is_long_name(name)
