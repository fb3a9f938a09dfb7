"""Picktura: the game's UI (rules: ``docs/rules/picktura.md``).

Everything a page needs to know about Picktura lives in this package, one
module per subject:

- here: how the game is offered to a teacher (title, options, "how to play")
  and the adapter surface that ``cardgames.ui.get("picktura")`` reads;
- :mod:`.forms`: the tablet's form → an engine action;
- :mod:`.sentences`: the refusals and the events a child reads, the monitor's line;
- :mod:`.cards` and :mod:`.cartels`: what draws a card, an exhibit, a work's cartel;
- :mod:`.screen`: the seat's and the projector's contexts;
- :mod:`.end`: the scoring table, the question a pupil answers after the game
  ("Combien de points as-tu ?"), the ranking and the teacher's report columns.

Templates: ``templates/cardgames/picktura/``; the browser side (choosing
cards, the draw choices pile by pile, the cartels, the keypad) is
``static/js/picktura.js``.

A turn on the tablet: tap a pile to **take** its top card (then tap a card
and **discard** it, the second half of the same turn), or lay cards (tap 2-4
cards of one work and **Exposer**, or a button under one of your exhibits:
**Compléter**, **Toile blanche**, **Remplacer la toile**), then tap a pile for
each card to draw, as many as the engine asks. The engine takes the whole lay
with its ``draw_from`` list in one action, so the pile-by-pile choice is made
on the tablet and sent at once.

Secrecy: the seat's view holds its own hand only; the visible pile drawn here
(down to five cards) is rebuilt from the public log with the engine's own
``PileMemory``, so it shows only cards that everyone saw face up.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.engines.picktura import HIDDEN, VISIBLE
from cardgames.ui import art
from cardgames.ui.picktura.end import REPORT_COLUMNS, end_question, report_places, written_sum
from cardgames.ui.picktura.forms import form_to_action
from cardgames.ui.picktura.screen import events_context, seat_context
from cardgames.ui.picktura.sentences import (
    REFUSALS,
    describe_event,
    public_summary,
    refusal_message,
)

TWO_STEP = False
SEAT_TEMPLATE = "cardgames/picktura/seat.html"
PUBLIC_TEMPLATE = "cardgames/picktura/public.html"
SCRIPT = "js/picktura.js"

TITLE = _("Picktura")
PITCH = _("Réunis les quatre quarts de tableaux célèbres et expose-les. À la fin, compte tes points.")
ICON = art.picktura_work_src(1)

# ---------------------------------------------------------------- options
OPTION_LABELS: dict[str, dict[str, Promise]] = {
    "blank_canvases": {
        "label": _("Toiles blanches"),
        "help": _("Une toile blanche par joueur : elle remplace n'importe quelle carte."),
    },
    "complete_three_with_one": {
        "label": _("Compléter 3 cartes avec 1 carte"),
        "help": _("Une exposition de 3 cartes peut aussi se compléter avec la carte qui manque."),
    },
    "score_sums": {
        "label": _("Les élèves comptent leurs points"),
        "help": _("À la fin, chaque élève additionne ses points avant de voir le score."),
    },
}
CHOICE_LABELS: dict[str, dict[str, Promise]] = {}

# ---------------------------------------------------------------- how to play
HOW_TO_PLAY: list[tuple[str, Promise]] = [
    (art.picktura_work_src(1), _("Le but : réunir les 4 quarts d'un tableau.")),
    (art.picktura_back_src(), _("Prends une carte d'une pile, puis défausse une carte.")),
    ("🖼", _("Ou pose 2, 3 ou 4 cartes d'un même tableau : « Exposer ».")),
    (art.picktura_blank_src(), _("La toile blanche complète une exposition de 3 cartes.")),
    ("🧮", _("À la fin, additionne les points de tes expositions.")),
]

__all__ = [
    "CHOICE_LABELS",
    "HIDDEN",
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
    "VISIBLE",
    "describe_event",
    "end_question",
    "events_context",
    "form_to_action",
    "public_summary",
    "refusal_message",
    "report_places",
    "seat_context",
    "written_sum",
]
