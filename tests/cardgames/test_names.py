"""Names in sentences: one helper, one table of cases per language.

French elides the word before a name that starts with a vowel sound
("d'Adam", "l'Ambre", "qu'Inès"); German and English sentences are written so
that no name needs a changed word, and the same table checks them through the
real catalogues and templates."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.safestring import SafeString

from cardgames.names import name_mark, names_place, starts_with_vowel_sound, with_names

FRENCH = [
    # (sentence with %(name)s, name, expected)
    ("Les progrès de %(name)s", "Adam", "Les progrès d'Adam"),
    ("C'est au tour de %(name)s.", "Ambre", "C'est au tour d'Ambre."),
    ("C'est au tour de %(name)s.", "Léo", "C'est au tour de Léo."),
    ("C'est au tour de %(name)s.", "Élise", "C'est au tour d'Élise."),
    ("C'est au tour de %(name)s.", "Inès", "C'est au tour d'Inès."),
    ("C'est au tour de %(name)s.", "Oscar", "C'est au tour d'Oscar."),
    ("C'est au tour de %(name)s.", "Ulysse", "C'est au tour d'Ulysse."),
    ("C'est au tour de %(name)s.", "Hugo", "C'est au tour de Hugo."),
    ("C'est au tour de %(name)s.", "Yanis", "C'est au tour de Yanis."),
    ("C'est au tour de %(name)s.", "Yvette", "C'est au tour d'Yvette."),
    ("C'est au tour de %(name)s.", "Œnone", "C'est au tour d'Œnone."),
    ("De %(name)s, bravo.", "Anna", "D'Anna, bravo."),
    ("Je crois que %(name)s gagne.", "Inès", "Je crois qu'Inès gagne."),
    ("Je crois que %(name)s gagne.", "Zoé", "Je crois que Zoé gagne."),
    ("On attend jusque %(name)s.", "Emma", "On attend jusqu'Emma."),
    ("Voici le %(name)s.", "Ours", "Voici l'Ours."),
    ("Voici la %(name)s.", "Abeille", "Voici l'Abeille."),
    # Only the word right before the name changes, and only whole words.
    ("Le monde de %(name)s de la classe", "Adam", "Le monde d'Adam de la classe"),
    ("Aide %(name)s.", "Adam", "Aide Adam."),
    ("Bravo %(name)s !", "Adam", "Bravo Adam !"),
    ("Garde %(name)s.", "Eve", "Garde Eve."),  # "garde" ends in -de, is not "de"
]


@pytest.mark.parametrize(("sentence", "name", "expected"), FRENCH)
def test_french_elision_before_names(sentence: str, name: str, expected: str) -> None:
    with translation.override("fr"):
        assert with_names(sentence, name=name) == expected


def test_two_names_in_one_sentence() -> None:
    with translation.override("fr"):
        said = with_names("La carte de %(a)s et le chat de %(b)s", a="Adam", b="Léa")
    assert said == "La carte d'Adam et le chat de Léa"


def test_other_languages_change_nothing_before_a_name() -> None:
    with translation.override("de"):
        assert with_names("de %(name)s", name="Adam") == "de Adam"


def test_the_marks_never_reach_the_page_and_safety_is_kept() -> None:
    text = names_place(SafeString("de " + name_mark("Adam")), "fr")
    assert text == "d'Adam" and isinstance(text, SafeString)
    assert "\ue000" not in text and "\ue001" not in text


def test_vowel_sounds() -> None:
    assert [starts_with_vowel_sound(n) for n in ("Adam", "Hélène", "Yves", "Yann", "", "1er")] == [
        True,
        False,
        True,
        False,
        False,
        False,
    ]


TEMPLATE = Template(
    "{% load i18n names %}"
    "{% blocktranslate asvar said with name=n|namemark %}C'est au tour de {{ name }}."
    "{% endblocktranslate %}{{ said|placenames }}|"
    "{% blocktranslate asvar said with name=n|namemark %}Les progrès de {{ name }}"
    "{% endblocktranslate %}{{ said|placenames }}"
)

# The same sentences through the real catalogues, in each language.
TEMPLATE_CASES = [
    ("fr", "Adam", "C'est au tour d'Adam.|Les progrès d'Adam"),
    ("fr", "Léo", "C'est au tour de Léo.|Les progrès de Léo"),
    ("de", "Adam", "Adam ist dran.|Die Fortschritte von Adam"),
    ("de", "Hans", "Hans ist dran.|Die Fortschritte von Hans"),
    ("en", "Adam", "It's Adam's turn.|Adam's progress"),
    ("en", "Ambre", "It's Ambre's turn.|Ambre's progress"),
]


@pytest.mark.parametrize(("language", "name", "expected"), TEMPLATE_CASES)
def test_template_sentences_with_names_in_each_language(
    language: str, name: str, expected: str
) -> None:
    with translation.override(language):
        rendered = TEMPLATE.render(Context({"n": name}))
    assert rendered.replace("&#x27;", "'") == expected


def test_a_name_is_still_escaped() -> None:
    with translation.override("fr"):
        rendered = TEMPLATE.render(Context({"n": "<b>Adam</b>"}))
    assert "<b>" not in rendered and "&lt;b&gt;" in rendered
