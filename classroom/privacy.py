"""What is kept about a child, in a parent's words: one list for the parent
letter and the parent page.

The letter said "the first name, an avatar and the calculations played,
nothing else" while social-game records, score sums and assigned practice were
kept too. Each entry here names the models it speaks for; a test checks that
every model the child's data export covers (``selectors.export.SECTIONS``,
itself checked against every model that names a pupil) is spoken for, so a
new kind of record cannot be kept without the parents being told.
"""

from __future__ import annotations

from django.db.models import Model
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from cardgames.models import GameEvent, Move, Seat
from classroom.models import (
    AssignedPractice,
    Attendance,
    LearningRecord,
    ParentLink,
    Pupil,
    PupilSessionSummary,
    ScoreSumRecord,
    SocialRecord,
    TabletLogin,
)

KEPT: tuple[tuple[tuple[type[Model], ...], Promise], ...] = (
    (
        (Pupil,),
        _("le prénom (ou un pseudonyme), un avatar et un code de 2 images pour se connecter"),
    ),
    ((Attendance, TabletLogin), _("les séances suivies et l'heure de connexion des tablettes")),
    (
        (LearningRecord, PupilSessionSummary),
        _("pour chaque calcul joué : le calcul, la réponse, le temps mis, et un résumé par séance"),
    ),
    (
        (Seat, Move, GameEvent),
        _("les parties jouées : la place à la table et chaque coup, avec son heure"),
    ),
    (
        (SocialRecord, ScoreSumRecord),
        _("pour les autres jeux de cartes : les échanges, les annonces, la place, les points comptés"),
    ),
    ((AssignedPractice,), _("les entraînements proposés par l'enseignant·e et leur suite")),
    ((ParentLink,), _("les liens parents créés et leur date de fin (jamais le lien lui-même)")),
)


def kept_records() -> list[str]:
    """The list, in the reader's language (translated when called, never at import)."""
    return [str(text) for _models, text in KEPT]


def models_told() -> set[type[Model]]:
    return {model for models, _text in KEPT for model in models}
