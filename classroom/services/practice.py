"""Solo practice: a pupil plays Chasse against 1 to 5 robots, with no lesson
running. Each game is a ``ClassSession(practice=True)`` of its own, without a
join code, so its learning records are flagged ``practice`` and the reports
keep them apart. It stays open while the pupil plays (and presses
"Rejouer"), and ends when they start another practice or the teacher opens
a lesson."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from cardgames import services as cardgames_services
from cardgames.engines.base import BOT_LEVELS
from cardgames.models import Table
from classroom.models import ClassSession, Pupil
from classroom.services.tables import pupil_seat

GAME = "chasse"
MIN_BOTS, MAX_BOTS = 1, 5


def practice_end(*, pupil: Pupil) -> None:
    """End the pupil's practice games still open (a new one starts, or one ended)."""
    ClassSession.objects.filter(
        school_class_id=pupil.school_class_id,
        practice=True,
        ended_at__isnull=True,
        attendances__pupil=pupil,
    ).update(ended_at=timezone.now())


@transaction.atomic
def practice_start(*, pupil: Pupil, bots: int, level: str) -> Table:
    """A new practice game: its own practice session, a table with the pupil
    first then ``bots`` robots of ``level``, dealt at once. The class's
    options for practice are the game's defaults."""
    if not MIN_BOTS <= bots <= MAX_BOTS or level not in BOT_LEVELS:
        raise ValueError("bad practice settings")
    practice_end(pupil=pupil)
    class_session = ClassSession.objects.create(
        school_class_id=pupil.school_class_id, game=GAME, options={}, practice=True
    )
    class_session.attendances.create(pupil=pupil)
    seats = [pupil_seat(pupil)] + [
        cardgames_services.bot_seat(level=level, number=n + 1) for n in range(bots)
    ]
    table = cardgames_services.table_create(
        game=GAME,
        seats=seats,
        options={},
        group_key=class_session.group_key,
        number=1,
        label=gettext_noop("Entraînement"),  # translated when shown
    )
    cardgames_services.table_start(table=table)
    return table
