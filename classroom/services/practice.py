"""Solo practice: a pupil plays the practice game (the first game whose
adapter offers ``SOLO_PRACTICE``: Chasse) against 1 to 5 robots, with no lesson
running. Each game is a ``ClassSession(practice=True)`` of its own, without a
join code, so its learning records are flagged ``practice`` and the reports
keep them apart. It stays open while the pupil plays (and presses
"Rejouer"), and ends when they start another practice or the teacher opens
a lesson."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from cardgames import services as cardgames_services
from cardgames import ui
from cardgames.engines.base import BOT_LEVELS
from cardgames.models import Table
from classroom.insights import PupilFocus
from classroom.models import AssignedPractice, ClassSession, Pupil
from classroom.services.tables import pupil_seat

MIN_BOTS, MAX_BOTS = 1, 5
# Games one picture-code login may start (the first one, then "Rejouer" or
# "one more game" from the robots page) before the child taps their two
# pictures again. Why not one: a child of 6 retyping after every short game
# is unkind and teaches nothing. Why not unlimited: on a shared tablet the
# login of the child before would play on for the next one (and a copied
# session would last all evening); the idle time
# (``settings.PRACTICE_LOGIN_IDLE_SECONDS``), the class link's rotation and
# the practice hours end a login too.
MAX_GAMES_PER_LOGIN = 3


def practice_game() -> str:
    """The game a pupil practises alone: the first game (in the registry's
    order, the central game first) whose adapter says it can be practised
    solo. Asked of the adapters, so the classroom names no game here."""
    games = ui.practice_games()
    if not games:
        raise LookupError("no game offers solo practice")
    return games[0]


def practice_end(*, pupil: Pupil) -> None:
    """End the pupil's practice games still open (a new one starts, or one ended)."""
    ClassSession.objects.filter(
        school_class_id=pupil.school_class_id,
        practice=True,
        ended_at__isnull=True,
        attendances__pupil=pupil,
    ).update(ended_at=timezone.now())


@transaction.atomic
def practice_start(
    *,
    pupil: Pupil,
    bots: int,
    level: str,
    focus: PupilFocus | None = None,
    assignment: AssignedPractice | None = None,
) -> Table:
    """A new practice game: its own practice session, a table with the pupil
    first then ``bots`` robots of ``level``, dealt at once. The class's
    options for practice are the game's defaults, plus targeted cards on the
    pupil's seat when ``focus`` is given ("Entraînement ciblé"), or the focus
    of ``assignment`` (which then remembers this table, to be marked done
    when its game ends)."""
    if not MIN_BOTS <= bots <= MAX_BOTS or level not in BOT_LEVELS:
        raise ValueError("bad practice settings")
    if assignment is not None:
        if assignment.pupil_id != pupil.pk:
            raise ValueError("not this pupil's assignment")
        focus = PupilFocus.from_json(assignment.focus)
    options: dict[str, Any] = {}
    if focus:
        options["focus"] = [focus.entry(seat=0)]
    practice_end(pupil=pupil)
    game = practice_game()
    class_session = ClassSession.objects.create(
        school_class_id=pupil.school_class_id, game=game, options={}, practice=True
    )
    class_session.attendances.create(pupil=pupil)
    seats = [pupil_seat(pupil)] + [
        cardgames_services.bot_seat(level=level, number=n + 1) for n in range(bots)
    ]
    table = cardgames_services.table_create(
        game=game,
        seats=seats,
        options=options,
        group_key=class_session.group_key,
        number=1,
        # Stored untranslated: each screen says it in its own language.
        label=gettext_noop("Entraînement ciblé") if focus else gettext_noop("Entraînement"),
    )
    cardgames_services.table_start(table=table)
    if assignment is not None:
        AssignedPractice.objects.filter(pk=assignment.pk).update(table_id=table.pk)
    return table


def assignment_create(*, pupil: Pupil, focus: PupilFocus) -> AssignedPractice:
    """The teacher gives ``pupil`` a targeted practice on ``focus`` (what the
    pupil page found). A previous one not finished yet is replaced: the pupil
    sees one, the latest."""
    if not focus:
        raise ValueError("nothing to target")
    with transaction.atomic():
        pupil.assignments.filter(done_at__isnull=True).delete()
        return AssignedPractice.objects.create(pupil=pupil, focus=focus.as_json())


def assignments_finish(*, table_id: int, events: Sequence[Mapping[str, Any]]) -> int:
    """Mark done the assignment played at ``table_id`` when ``events`` end its
    game. Called on every applied move; costs a query only on the move that
    ends a game. Returns the number of assignments marked."""
    if not any(event.get("type") == "game_over" for event in events):
        return 0
    return AssignedPractice.objects.filter(table_id=table_id, done_at__isnull=True).update(
        done_at=timezone.now()
    )
