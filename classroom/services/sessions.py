"""Class sessions: open one with a fresh join code, change its options, end it
(by the teacher, by a new lesson of the class, or idle past
``LESSON_IDLE_HOURS``), and find the old ones to purge."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from cardgames import engines
from cardgames import services as cardgames_services
from cardgames.models import Table
from classroom.models import ClassSession, SchoolClass, TabletLogin
from classroom.selectors.monitor import session_tables
from classroom.services.events import lobby_group, notify_on_commit
from classroom.services.joining import tablet_sign_out
from classroom.services.reports import session_summaries_schedule

JOIN_CODE_ATTEMPTS = 20


def new_join_code() -> str:
    return f"{secrets.randbelow(10**6):06d}"


def session_start(
    *,
    school_class: SchoolClass,
    game: str,
    options: dict[str, Any],
    targeted_cards: bool = False,
) -> ClassSession:
    """Open a session with a fresh 6-digit code. The class's other open
    sessions end, so the printed class link always leads to one place. The
    code is unique among open sessions (a database constraint): on a collision
    we simply draw again. ``targeted_cards``: each table's deck will favour
    each pupil's own facts (see ``tables_start``).

    The old lessons end exactly as "Terminer la séance" ends them
    (``session_close``): their tables end, their tablets are signed out and
    their sockets told. Marking them ended alone left their tables
    ``playing``: an open tablet's next move was still accepted, on a table
    the new monitor does not show."""
    valid = engines.get(game).validate_options(options)
    for old in list(
        ClassSession.objects.filter(school_class=school_class, ended_at__isnull=True)
    ):
        session_close(class_session=old)
    for _attempt in range(JOIN_CODE_ATTEMPTS):
        try:
            with transaction.atomic():
                # One opened meanwhile by another request: ended too (its
                # tables, if any, by the next start or by ``purge``).
                for old in ClassSession.objects.select_for_update().filter(
                    school_class=school_class, ended_at__isnull=True
                ):
                    session_end(class_session=old)
                return ClassSession.objects.create(
                    school_class=school_class,
                    game=game,
                    options=valid,
                    join_code=new_join_code(),
                    targeted_cards=targeted_cards,
                )
        except IntegrityError:
            continue
    raise RuntimeError("no free join code")  # pragma: no cover - 10^6 codes


@transaction.atomic
def session_end(*, class_session: ClassSession) -> ClassSession:
    """The code dies with the session. Locks the session row."""
    locked = ClassSession.objects.select_for_update().get(pk=class_session.pk)
    if locked.ended_at is None:
        locked.ended_at = timezone.now()
        locked.join_code = None
        locked.save(update_fields=["ended_at", "join_code"])
        notify_on_commit(lobby_group(locked.pk), {"type": "session.ended"})
        # The report's summaries are built now, not on the teacher's next
        # report (after commit, in the background).
        session_summaries_schedule(class_session_id=locked.pk)
    return locked


def session_close(*, class_session: ClassSession) -> None:
    """End a lesson with everything in it, as "Terminer la séance" does: the
    join code dies, every table ends (its log stays for replay), every tablet
    is signed out and every table socket is closed. The one definition: the
    teacher's button, the monitor and a new lesson all end a lesson here.
    Locks the session and each table (through the services it calls)."""
    tables = session_tables(class_session)
    with transaction.atomic():
        session_end(class_session=class_session)
        for table in tables:
            if table.status != Table.Status.FINISHED:
                cardgames_services.table_end(table=table)
        # No reason given: each tablet says goodbye in its own language.
        cardgames_services.tables_close_sockets(table_ids=[t.pk for t in tables])
    for login in list(TabletLogin.objects.filter(class_session=class_session)):
        tablet_sign_out(login=login)


def sessions_idle_end(*, school_class: SchoolClass | None = None) -> int:
    """End the lessons idle past ``LESSON_IDLE_HOURS`` (of one class, or all):
    what ``purge`` runs, and what a page may run lazily. Returns how many.
    Each is locked and ended by ``session_close``; one touched meanwhile is
    checked again under its lock first."""
    from classroom.selectors.sessions import idle_lessons

    idle = idle_lessons()
    if school_class is not None:
        idle = idle.filter(school_class=school_class)
    ended = 0
    for class_session in list(idle):
        with transaction.atomic():
            still = idle_lessons().select_for_update().filter(pk=class_session.pk).first()
            if still is None:
                continue
            session_close(class_session=still)
        ended += 1
    return ended


def session_update_options(
    *, class_session: ClassSession, options: dict[str, Any], targeted_cards: bool | None = None
) -> ClassSession:
    class_session.options = engines.get(class_session.game).validate_options(options)
    fields = ["options"]
    if targeted_cards is not None:
        class_session.targeted_cards = targeted_cards
        fields.append("targeted_cards")
    class_session.save(update_fields=fields)
    return class_session


def sessions_to_purge(*, older_than_days: int) -> Any:
    """Finished sessions that ended more than ``older_than_days`` days ago."""
    cutoff = timezone.now() - timedelta(days=older_than_days)
    return ClassSession.objects.filter(ended_at__isnull=False, ended_at__lt=cutoff)
