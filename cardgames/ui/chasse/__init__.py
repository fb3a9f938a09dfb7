"""Chasse aux Souris: the game's UI, split by subject.

- :mod:`.forms`: the teacher's option labels, the child's announce form →
  engine action, the refusals a child reads;
- :mod:`.cards`: how a card is named and drawn;
- :mod:`.sentences`: events in French for the monitor, the replay and the
  tablet's history;
- :mod:`.screen`: the context the table's templates draw from;
- :mod:`.learning`: what a move teaches (learning records, targeted cards,
  solo practice), the capability the ``classroom`` app asks for through
  ``cardgames.ui.get``.

This package's names are the adapter surface ``cardgames.ui.get`` reads (see
:class:`cardgames.ui.GameUI`); the rules the sentences explain are in
``docs/rules/chasse.md``.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.ui.chasse.cards import (
    EFFECT_ICONS,
    EFFECT_LABELS,
    LABEL_LINE_CHARS,
    card_face,
    card_label,
    decorate,
    label_lines,
)
from cardgames.ui.chasse.forms import (
    CHOICE_LABELS,
    MAX_ANNOUNCE_DIGITS,
    OPTION_LABELS,
    REFUSALS,
    form_to_action,
    refusal_message,
)
from cardgames.ui.chasse.learning import (
    SOLO_PRACTICE,
    TARGETED_CARDS,
    focus_line,
    learning_record,
)
from cardgames.ui.chasse.screen import (
    LOG_LINES,
    RECENT_LINES,
    events_context,
    feedback_for,
    ranking,
    seat_context,
)
from cardgames.ui.chasse.sentences import (
    TOKEN_REASONS,
    describe_event,
    explain_move,
    public_summary,
    sum_text,
)

__all__ = [
    "CHOICE_LABELS",
    "EFFECT_ICONS",
    "EFFECT_LABELS",
    "HOW_TO_PLAY",
    "ICON",
    "LABEL_LINE_CHARS",
    "LOG_LINES",
    "MAX_ANNOUNCE_DIGITS",
    "OPTION_LABELS",
    "PITCH",
    "PUBLIC_TEMPLATE",
    "RECENT_LINES",
    "REFUSALS",
    "SEAT_TEMPLATE",
    "SOLO_PRACTICE",
    "TARGETED_CARDS",
    "TITLE",
    "TOKEN_REASONS",
    "TWO_STEP",
    "card_face",
    "card_label",
    "decorate",
    "describe_event",
    "events_context",
    "explain_move",
    "feedback_for",
    "focus_line",
    "form_to_action",
    "label_lines",
    "learning_record",
    "public_summary",
    "ranking",
    "refusal_message",
    "seat_context",
    "sum_text",
]

TITLE = _("La Chasse aux Souris")
PITCH = _(
    "Calcul mental : pose une carte, annonce le nouveau total, évite les dizaines et la cible."
)
ICON = "img/mouse.svg"
HOW_TO_PLAY: list[tuple[str, Promise]] = [
    ("🎴", _("À ton tour, touche une carte de ta main.")),
    ("🔢", _("Calcule le nouveau total et tape-le, puis OK.")),
    ("⚠️", _("Si le total tombe sur une dizaine, tu perds une carte blanche.")),
    (
        "🎯",
        _(
            "Si le total atteint la cible ou plus, tu perds une carte blanche et la manche s'arrête."
        ),
    ),
    ("🏆", _("Garde le plus de cartes blanches possible !")),
]

TWO_STEP = True
SEAT_TEMPLATE = "cardgames/chasse/seat.html"
PUBLIC_TEMPLATE = "cardgames/chasse/public.html"
