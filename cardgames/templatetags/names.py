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
