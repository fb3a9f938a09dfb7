"""Purrfect: the game's UI (rules: ``docs/rules/purrfect.md``).

Everything a page needs to know about Purrfect lives in this package, one
module per subject:

- here: how the game is offered to a teacher (title, options, "how to play")
  and the adapter surface that ``cardgames.ui.get("purrfect")`` reads;
- :mod:`.forms`: the tablet's form → an engine action;
- :mod:`.cats`: what draws a cat, a meow's language, a seat's paws;
- :mod:`.sentences`: the refusals and the events a child reads, the monitor's line;
- :mod:`.screen`: the seat's and the projector's contexts;
- :mod:`.end`: the ranking and the columns of the teacher's reports.

Templates: ``templates/cardgames/purrfect/``; the browser side (choosing
cards, the 🔊 button) is ``static/js/purrfect.js``.

Secrecy: the view of a seat holds only that seat's cards. An offer is shown by
its meow word only, as one face-down pile whatever its size, so nothing on the
screen (not even the number of card backs) gives its count or its cat away.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.ui import art
from cardgames.ui.purrfect.end import REPORT_COLUMNS, report_places
from cardgames.ui.purrfect.forms import form_to_action
from cardgames.ui.purrfect.screen import events_context, seat_context
from cardgames.ui.purrfect.sentences import (
    REFUSALS,
    describe_event,
    explain_refusal,
    public_summary,
    refusal_message,
)

TWO_STEP = False
SEAT_TEMPLATE = "cardgames/purrfect/seat.html"
PUBLIC_TEMPLATE = "cardgames/purrfect/public.html"
SCRIPT = "js/purrfect.js"

TITLE = _("Purrfect")
PITCH = _("Échangez des cartes en secret pour réunir 9 chats pareils. Tout le monde joue en même temps.")
ICON = art.purrfect_cat_src(0)

# ---------------------------------------------------------------- options
OPTION_LABELS: dict[str, dict[str, Promise]] = {
    "paws_to_win": {
        "label": _("Pattes pour gagner"),
        "help": _("La partie s'arrête quand quelqu'un a autant de pattes (1 à 15)."),
    },
    "round_actions": {
        "label": _("Coups au plus par manche"),
        "help": _("Une manche qui n'avance plus s'arrête après ce nombre de coups (100 à 2000)."),
    },
    "new_meows_each_round": {
        "label": _("Nouveaux miaous à chaque manche"),
        "help": _("Sinon, le tableau des miaous reste le même toute la partie (plus facile)."),
    },
}
CHOICE_LABELS: dict[str, dict[str, Promise]] = {}

# ---------------------------------------------------------------- how to play
# (picture, sentence): a picture is a static path or an emoji.
HOW_TO_PLAY: list[tuple[str, Promise]] = [
    (art.purrfect_cat_src(0), _("Le but : 9 cartes du même chat.")),
    ("🙀", _("Touche 1 à 4 cartes d'un chat, puis « Proposer ».")),
    ("🔢", _("Une offre dit un miaou. Le tableau dit combien de cartes.")),
    ("🤝", _("Touche une offre, autant de cartes d'un chat, puis « Échanger ».")),
    (art.purrfect_paw_src(), _("9 chats pareils ? « Purrfect! » : 2 pattes.")),
]

__all__ = [
    "CHOICE_LABELS",
    "HOW_TO_PLAY",
    "ICON",
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
