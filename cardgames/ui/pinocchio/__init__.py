"""Pinocchio: the game's UI (rules: ``docs/rules/pinocchio.md``).

Everything a page needs to know about Pinocchio lives in this package, one
module per subject:

- here: how the game is offered to a teacher (title, options, "how to play")
  and the adapter surface that ``cardgames.ui.get("pinocchio")`` reads;
- :mod:`.forms`: the tablet's form → an engine action;
- :mod:`.words`: the garment and colour words in the table's language;
- :mod:`.faces`: what draws a garment card and a nose;
- :mod:`.sentences`: the refusals, the events and verdicts a child reads, the monitor's line;
- :mod:`.screen`: the seat's and the projector's contexts;
- :mod:`.end`: the ranking and the per-pupil counts of the teacher's reports.

Templates: ``templates/cardgames/pinocchio/``; the browser side (why a choice
is greyed, the 🔊 button) is ``static/js/pinocchio.js``.

Two languages meet on this screen. The sentences are gettext, in the interface
language; the garment and colour words are vocabulary, in the table's
``words_language`` (:mod:`.words`), whatever the interface says: a French
class practising German reads "Inès annonce : « eine rote Mütze »".

Secrecy: everything drawn here comes from the seat's own view and history. A
laid card's face is only ever shown once a doubt revealed it (the public
``doubted`` event and ``view["revealed"]``), or to the seat that drew it.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.ui.pinocchio.end import LANGUAGE_NAMES, REPORT_COLUMNS, report_places
from cardgames.ui.pinocchio.forms import form_to_action
from cardgames.ui.pinocchio.screen import events_context, seat_context
from cardgames.ui.pinocchio.sentences import (
    REFUSALS,
    describe_event,
    explain_refusal,
    public_summary,
    refusal_message,
)

TWO_STEP = False
SEAT_TEMPLATE = "cardgames/pinocchio/seat.html"
PUBLIC_TEMPLATE = "cardgames/pinocchio/public.html"
SCRIPT = "js/pinocchio.js"

TITLE = _("Pinocchio")
PITCH = _(
    "Pose une carte face cachée, annonce un vêtement… et devine qui ment ! "
    "Chaque mensonge découvert coûte un nez. Les mots des vêtements en français, allemand ou anglais."
)
ICON = "img/pinocchio/nose-long.svg"

# ---------------------------------------------------------------- options
OPTION_LABELS: dict[str, dict[str, Promise]] = {
    "words_language": {
        "label": _("Langue des mots (vêtements et couleurs)"),
        "help": _(
            "Les mots écrits sous les cartes et dits par le bouton 🔊. "
            "Ils ne dépendent pas de la langue de l'écran : une classe française peut s'entraîner en allemand."
        ),
    },
}
CHOICE_LABELS: dict[str, dict[str, Promise]] = {
    "words_language": {
        "fr": _("Français (un bonnet rouge)"),
        "de": _("Allemand (eine rote Mütze)"),
        "en": _("Anglais (a red hat)"),
    },
}

# ---------------------------------------------------------------- how to play
# (picture, sentence): a picture is a static path or an emoji.
HOW_TO_PLAY: list[tuple[str, Promise]] = [
    ("img/pinocchio/back.svg", _("Prends la carte du dessus de ta pile : toi seul la vois.")),
    (
        "🗣",
        _("Pose-la face cachée et annonce un vêtement. Garde le vêtement ou la couleur d'avant."),
    ),
    ("🤔", _("Tu crois l'annonce d'avant ? Ou tu doutes ? Si tu doutes, on retourne la carte.")),
    (
        "img/pinocchio/nose-long.svg",
        _("Qui a menti prend un nez. Si la carte disait vrai, c'est celui qui a douté."),
    ),
    ("🏆", _("Quand les piles sont vides, le moins de nez gagne !")),
]

__all__ = [
    "CHOICE_LABELS",
    "HOW_TO_PLAY",
    "ICON",
    "LANGUAGE_NAMES",
    "OPTION_LABELS",
    "PITCH",
    "PUBLIC_TEMPLATE",
    "REFUSALS",
    "REPORT_COLUMNS",
    "SCRIPT",
    "SEAT_TEMPLATE",
    "TITLE",
    "TWO_STEP",
    "describe_event",
    "events_context",
    "explain_refusal",
    "form_to_action",
    "public_summary",
    "refusal_message",
    "report_places",
    "seat_context",
]
