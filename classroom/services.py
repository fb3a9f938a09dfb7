"""Everything that changes classroom data. Views and consumers stay thin.

Functions take keyword-only arguments. Those that change shared state take a
row lock first (``select_for_update``: a real lock on PostgreSQL; on SQLite
``transaction_mode=IMMEDIATE`` serialises writers anyway) and say so. Live
pages are told "something changed" with ``transaction.on_commit``, so they
never render data that is then rolled back.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardgames import engines
from cardgames import services as cardgames_services
from cardgames.engines.base import BOT_LEVELS
from cardgames.models import Table
from classroom.models import (
    Attendance,
    ClassSession,
    Pupil,
    SchoolClass,
    SessionGroup,
    TabletLogin,
)
from classroom.names import name_key
from classroom.pictures import AVATARS, CODE_LENGTH, PICTURES

# Picture-code brute force: a pupil's *card* locks, never an IP, so a class that
# shares one address keeps logging in while one card cools down.
PICTURE_MAX_FAILURES = 5
PICTURE_LOCK_SECONDS = 60
JOIN_CODE_ATTEMPTS = 20


# ------------------------------------------------------------------ live events
def projector_group(session_id: int) -> str:
    return f"projector.{session_id}"


def lobby_group(session_id: int) -> str:
    return f"lobby.{session_id}"


def _notify_on_commit(group: str, message: dict[str, Any]) -> None:
    """Tell every live page of ``group`` that something changed, after commit."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, message)

    transaction.on_commit(send)


def session_changed(*, class_session_id: int) -> None:
    """The projector and the teacher's pages redraw the joined pupils."""
    _notify_on_commit(projector_group(class_session_id), {"type": "pupils.changed"})


# ------------------------------------------------------------------ classes
def class_create(*, teacher: Any, name: str, level: str) -> SchoolClass:
    return SchoolClass.objects.create(teacher=teacher, name=name.strip(), level=level)


def class_update(*, school_class: SchoolClass, name: str, level: str) -> SchoolClass:
    school_class.name = name.strip()
    school_class.level = level
    school_class.save(update_fields=["name", "level"])
    return school_class


def class_delete(*, school_class: SchoolClass) -> None:
    """Deletes the pupils, sessions, tablets and (through the ClassSession
    ``post_delete`` receiver) every game table of the class."""
    school_class.delete()


# ------------------------------------------------------------------ pupils
def new_picture_code() -> list[int]:
    """Two *different* pictures out of nine (72 codes): a double tap on one
    picture is a child's slip, not a code."""
    first = secrets.randbelow(len(PICTURES))
    second = secrets.choice([i for i in range(len(PICTURES)) if i != first])
    return [first, second][:CODE_LENGTH]


def _next_avatar(used: dict[str, int]) -> str:
    """The least-used animal in the class, so neighbours rarely look alike."""
    least = min(used.get(key, 0) for key in AVATARS)
    choice = secrets.choice([key for key in AVATARS if used.get(key, 0) == least])
    used[choice] = used.get(choice, 0) + 1
    return choice


def unique_name(name: str, taken: set[str]) -> str:
    """``name`` itself, or ``name 2``, ``name 3``… — the teacher may edit the
    suffix later (``Léo 2`` → ``Léo B``). Compared by ``name_key`` (case,
    Unicode normalisation: look-alikes count as the same name)."""
    lowered = {name_key(t) for t in taken}
    if name_key(name) not in lowered:
        return name
    n = 2
    while name_key(f"{name} {n}") in lowered:
        n += 1
    return f"{name} {n}"


def parse_names(text: str) -> list[str]:
    """One first name per line; blank lines and surrounding spaces ignored,
    long names cut to the field's length."""
    names = []
    for line in text.splitlines():
        cleaned = " ".join(line.split())[:36]
        if cleaned:
            names.append(cleaned)
    return names


@transaction.atomic
def pupils_add(*, school_class: SchoolClass, names: list[str]) -> list[Pupil]:
    """Add many pupils at once. Locks the class so two pastes cannot create the
    same display name twice."""
    SchoolClass.objects.select_for_update().get(pk=school_class.pk)
    existing = list(school_class.pupils.values_list("display_name", "avatar"))
    taken = {name for name, _avatar in existing}
    used: dict[str, int] = {}
    for _name, avatar in existing:
        used[avatar] = used.get(avatar, 0) + 1
    created = []
    for raw in names:
        name = unique_name(raw, taken)
        taken.add(name)
        created.append(
            Pupil.objects.create(
                school_class=school_class,
                display_name=name,
                avatar=_next_avatar(used),
                picture_code=new_picture_code(),
            )
        )
    return created


@transaction.atomic
def pupil_update(*, pupil: Pupil, display_name: str, avatar: str) -> Pupil:
    """Rename (or pick another animal). Locks the class; a name already used in
    the class raises ``ValidationError`` with a readable message."""
    SchoolClass.objects.select_for_update().get(pk=pupil.school_class_id)
    name = " ".join(display_name.split())[:40]
    if not name:
        raise ValidationError(_("Le prénom ne peut pas être vide."))
    key = name_key(name)
    clash = any(
        name_key(other) == key
        for other in Pupil.objects.filter(school_class_id=pupil.school_class_id)
        .exclude(pk=pupil.pk)
        .values_list("display_name", flat=True)
    )
    if clash:
        raise ValidationError(
            _("Ce prénom existe déjà dans la classe : ajoutez une lettre ou un chiffre.")
        )
    pupil.display_name = name
    if avatar in AVATARS:
        pupil.avatar = avatar
    pupil.save(update_fields=["display_name", "avatar"])
    return pupil


@transaction.atomic
def pupil_regenerate_code(*, pupil: Pupil) -> Pupil:
    """A new picture code (the old card must be reprinted). Locks the pupil and
    clears any lock, since the old code is no longer worth guessing."""
    locked = Pupil.objects.select_for_update().get(pk=pupil.pk)
    code = new_picture_code()
    while code == locked.picture_code:
        code = new_picture_code()
    locked.picture_code = code
    locked.failed_attempts = 0
    locked.locked_until = None
    locked.save(update_fields=["picture_code", "failed_attempts", "locked_until"])
    return locked


@transaction.atomic
def pupil_unlock(*, pupil: Pupil) -> Pupil:
    """The teacher clears a locked card. Locks the pupil row."""
    locked = Pupil.objects.select_for_update().get(pk=pupil.pk)
    locked.failed_attempts = 0
    locked.locked_until = None
    locked.save(update_fields=["failed_attempts", "locked_until"])
    return locked


def pupil_delete(*, pupil: Pupil) -> None:
    """Deletes the pupil, their tablets and attendances; the ``post_delete``
    receiver wipes their name from game seats."""
    pupil.delete()


def pupil_is_locked(pupil: Pupil) -> bool:
    return pupil.locked_until is not None and pupil.locked_until > timezone.now()


@dataclass(frozen=True)
class CodeCheck:
    ok: bool
    locked: bool
    seconds_left: int = 0


@transaction.atomic
def pupil_check_code(*, pupil: Pupil, code: list[int]) -> CodeCheck:
    """Check a picture code. Locks the pupil row, so parallel guesses from
    several tablets all count. After ``PICTURE_MAX_FAILURES`` misses the card
    locks for ``PICTURE_LOCK_SECONDS``; other pupils are not affected."""
    locked = Pupil.objects.select_for_update().get(pk=pupil.pk)
    now = timezone.now()
    if locked.locked_until and locked.locked_until > now:
        return CodeCheck(ok=False, locked=True, seconds_left=_seconds_until(locked.locked_until))
    if list(code) == list(locked.picture_code):
        if locked.failed_attempts or locked.locked_until:
            locked.failed_attempts = 0
            locked.locked_until = None
            locked.save(update_fields=["failed_attempts", "locked_until"])
        return CodeCheck(ok=True, locked=False)
    locked.failed_attempts += 1
    if locked.failed_attempts >= PICTURE_MAX_FAILURES:
        locked.failed_attempts = 0
        locked.locked_until = now + timedelta(seconds=PICTURE_LOCK_SECONDS)
        locked.save(update_fields=["failed_attempts", "locked_until"])
        _notify_on_commit(
            projector_group(_open_session_id(locked.school_class_id)), {"type": "pupils.changed"}
        )
        return CodeCheck(ok=False, locked=True, seconds_left=PICTURE_LOCK_SECONDS)
    locked.save(update_fields=["failed_attempts"])
    return CodeCheck(ok=False, locked=False)


def _open_session_id(class_id: int) -> int:
    session = ClassSession.objects.filter(school_class_id=class_id, ended_at__isnull=True).first()
    return session.pk if session else 0


def _seconds_until(when: Any) -> int:
    return max(1, math.ceil((when - timezone.now()).total_seconds()))


# ------------------------------------------------------------------ sessions
def new_join_code() -> str:
    return f"{secrets.randbelow(10**6):06d}"


def session_start(*, school_class: SchoolClass, game: str, options: dict[str, Any]) -> ClassSession:
    """Open a session with a fresh 6-digit code. The class's other open
    sessions end, so the printed class link always leads to one place. The
    code is unique among open sessions (a database constraint): on a collision
    we simply draw again."""
    valid = engines.get(game).validate_options(options)
    for _attempt in range(JOIN_CODE_ATTEMPTS):
        try:
            with transaction.atomic():
                for old in ClassSession.objects.select_for_update().filter(
                    school_class=school_class, ended_at__isnull=True
                ):
                    session_end(class_session=old)
                return ClassSession.objects.create(
                    school_class=school_class, game=game, options=valid, join_code=new_join_code()
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
        _notify_on_commit(lobby_group(locked.pk), {"type": "session.ended"})
    return locked


def session_update_options(*, class_session: ClassSession, options: dict[str, Any]) -> ClassSession:
    class_session.options = engines.get(class_session.game).validate_options(options)
    class_session.save(update_fields=["options"])
    return class_session


# ------------------------------------------------------------------ tablets
@transaction.atomic
def tablet_login(
    *, class_session: ClassSession, pupil: Pupil, session: SessionBase, device_label: str = ""
) -> TabletLogin:
    """Record that this tablet (its Django session) is now ``pupil``. The view
    has already cycled the session key. The projector hears of it on commit."""
    if session.session_key is None:
        session.save()
    Attendance.objects.get_or_create(class_session=class_session, pupil=pupil)
    login = TabletLogin.objects.create(
        class_session=class_session,
        pupil=pupil,
        session_key=session.session_key or "",
        device_label=device_label[:80],
    )
    session_changed(class_session_id=class_session.pk)
    return login


def tablet_sign_out(*, login: TabletLogin) -> None:
    """Sign a tablet out by deleting its Django session: whatever the tablet
    does next, it is a stranger again."""
    from importlib import import_module

    from django.conf import settings

    store = import_module(settings.SESSION_ENGINE).SessionStore
    store(session_key=login.session_key).delete()
    session_id = login.class_session_id
    with transaction.atomic():
        login.delete()
        session_changed(class_session_id=session_id)


# ------------------------------------------------------------------ groups
@transaction.atomic
def groups_make(*, class_session: ClassSession, size: int) -> list[SessionGroup]:
    """ "Groupes de N": share the joined pupils who are not yet at a started
    table into ceil(n/N) groups whose sizes differ by at most one. Locks the
    session. Groups already started are kept as they are."""
    engine = engines.get(class_session.game)
    size = max(engine.min_players, min(engine.max_players, size))
    locked = ClassSession.objects.select_for_update().get(pk=class_session.pk)
    started = list(locked.groups.filter(table__isnull=False))
    locked.groups.filter(table__isnull=True).delete()
    free = list(
        Attendance.objects.filter(class_session=locked)
        .exclude(group__in=started)
        .order_by("joined_at", "id")
    )
    count = max(1, math.ceil(len(free) / size)) if free else 0
    first_number = max((g.number for g in started), default=0) + 1
    groups = [
        SessionGroup.objects.create(class_session=locked, number=first_number + i, size=size)
        for i in range(count)
    ]
    for i, attendance in enumerate(free):
        attendance.group = groups[i % count]
        attendance.save(update_fields=["group"])
    _notify_on_commit(projector_group(locked.pk), {"type": "pupils.changed"})
    _notify_on_commit(lobby_group(locked.pk), {"type": "groups.changed"})
    return groups


@transaction.atomic
def group_add(*, class_session: ClassSession) -> SessionGroup:
    """An empty table, to move pupils onto. Locks the session."""
    locked = ClassSession.objects.select_for_update().get(pk=class_session.pk)
    engine = engines.get(locked.game)
    number = (locked.groups.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    return SessionGroup.objects.create(class_session=locked, number=number, size=engine.min_players)


@transaction.atomic
def pupil_move(*, class_session: ClassSession, pupil: Pupil, group: SessionGroup | None) -> None:
    """Move a joined pupil to another table (or back to the waiting list).
    Locks the session. Pupils already playing stay where they are."""
    ClassSession.objects.select_for_update().get(pk=class_session.pk)
    attendance = Attendance.objects.select_related("group").get(
        class_session=class_session, pupil=pupil
    )
    if attendance.group is not None and attendance.group.table_id is not None:
        raise ValidationError(_("Cet élève joue déjà : sa table est lancée."))
    if group is not None and (
        group.class_session_id != class_session.pk or group.table_id is not None
    ):
        raise ValidationError(_("Cette table est déjà lancée."))
    attendance.group = group
    attendance.save(update_fields=["group"])
    _notify_on_commit(lobby_group(class_session.pk), {"type": "groups.changed"})


def group_set_bots(*, group: SessionGroup, level: str, size: int) -> SessionGroup:
    """Fill the empty seats up to ``size`` with bots of ``level`` ("" = none)."""
    engine = engines.get(group.class_session.game)
    if level and level not in BOT_LEVELS:
        raise ValidationError(_("Niveau de robot inconnu."))
    group.bot_level = level
    group.size = max(engine.min_players, min(engine.max_players, size))
    group.save(update_fields=["bot_level", "size"])
    return group


def group_set_options(*, group: SessionGroup, options: dict[str, Any]) -> SessionGroup:
    """Keep only the options that differ from the session's: change the session
    later and tables without an override follow."""
    base = engines.get(group.class_session.game).validate_options(group.class_session.options)
    group.options_override = {k: v for k, v in options.items() if base.get(k) != v}
    group.save(update_fields=["options_override"])
    return group


def group_options(group: SessionGroup) -> dict[str, Any]:
    return {**group.class_session.options, **group.options_override}


def group_seat_count(group: SessionGroup, pupils: int) -> int:
    return max(pupils, group.size) if group.bot_level else pupils


@dataclass
class StartReport:
    started: list[Table]
    problems: list[str]


def tables_start(*, class_session: ClassSession) -> StartReport:
    """Create and deal a ``cardgames`` table for every ready group, each with its
    own seed and its options (the session's plus the table's overrides).

    Each table is its own transaction (``table_create``/``table_start`` take the
    table lock), so one impossible table does not stop the others; its problem
    comes back as a sentence for the teacher. Lobbies hear of it on commit."""
    engine = engines.get(class_session.game)
    report = StartReport(started=[], problems=[])
    groups = class_session.groups.filter(table__isnull=True).order_by("number")
    for group in groups:
        members = list(
            Attendance.objects.filter(group=group)
            .select_related("pupil")
            .order_by("joined_at", "id")
        )
        if not members:
            continue
        seats = [
            cardgames_services.SeatSpec(
                player_key=a.pupil.player_key,
                display_name=a.pupil.display_name,
                avatar=a.pupil.avatar,
            )
            for a in members
        ]
        for n in range(group_seat_count(group, len(members)) - len(members)):
            seats.append(cardgames_services.bot_seat(level=group.bot_level, number=n + 1))
        if not engine.min_players <= len(seats) <= engine.max_players:
            report.problems.append(
                _("Table %(n)s : il faut entre %(lo)s et %(hi)s joueurs (ajoutez des robots).")
                % {"n": group.number, "lo": engine.min_players, "hi": engine.max_players}
            )
            continue
        try:
            with transaction.atomic():
                table = cardgames_services.table_create(
                    game=class_session.game,
                    seats=seats,
                    options=group_options(group),
                    group_key=class_session.group_key,
                    number=group.number,
                    label=_("Table %(n)s") % {"n": group.number},
                )
                cardgames_services.table_start(table=table)
                group.table = table
                group.save(update_fields=["table"])
                _notify_on_commit(lobby_group(class_session.pk), {"type": "tables.started"})
        except ValueError as exc:
            report.problems.append(
                _("Table %(n)s : %(msg)s") % {"n": group.number, "msg": str(exc)}
            )
            continue
        report.started.append(table)
    return report


# ------------------------------------------------------------------ purge
def sessions_to_purge(*, older_than_days: int) -> Any:
    """Finished sessions that ended more than ``older_than_days`` days ago."""
    cutoff = timezone.now() - timedelta(days=older_than_days)
    return ClassSession.objects.filter(ended_at__isnull=False, ended_at__lt=cutoff)


# ------------------------------------------------------------------ rematch
def table_rematch(*, table: Table) -> Table:
    """ "Rejouer": a new game for the same players at the same table number,
    same seats (pupils and bots) and options, with a fresh seed. The old table
    keeps its log (replays, reports); its group now points at the new table,
    and every screen of the old table follows on commit. Takes the old table's
    lock, so two quick taps on "Rejouer" start one new game only."""
    with transaction.atomic():
        old = Table.objects.select_for_update().get(pk=table.pk)
        successor = (
            Table.objects.filter(group_key=old.group_key, number=old.number, pk__gt=old.pk)
            .order_by("pk")
            .first()
        )
        if successor is not None and old.group_key:
            return successor
        seats = [
            cardgames_services.SeatSpec(
                player_key=seat.player_key,
                display_name=seat.display_name,
                avatar=seat.avatar,
                is_bot=seat.is_bot,
                bot_level=seat.bot_level,
            )
            for seat in old.seats.order_by("index")
        ]
        new = cardgames_services.table_create(
            game=old.game,
            seats=seats,
            options=dict(old.options),
            group_key=old.group_key,
            number=old.number,
            label=old.label,
        )
        cardgames_services.table_start(table=new)
        if old.status != Table.Status.FINISHED:
            cardgames_services.table_end(table=old)
        SessionGroup.objects.filter(table=old).update(table=new)
        _notify_on_commit(
            cardgames_services.table_group(old.pk), {"type": "table.moved", "new_table_id": new.pk}
        )
    return new
