"""Pupils of a class: names, avatars, picture codes and the lock that stops a
code being guessed. Functions that change a pupil or a class's list take the
row lock first and say so."""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from cardgames import revocation
from classroom.models import ClassSession, Pupil, RateCounter, SchoolClass, TabletLogin
from classroom.names import name_key
from classroom.picture_limits import (
    ATTACK_MEMORY,
    DEVICE_FREE,
    DEVICE_SLOW_SECONDS,
    DEVICE_STOP,
    NET_FREE,
    NET_SLOW_SECONDS,
    PICTURE_LOCK_STEPS,
    PICTURE_MAX_FAILURES,
    PICTURE_WINDOW,
    TEACHER_ONLY_LEVEL,
    UNLOCK_SPARE,
)
from classroom.pictures import AVATARS, CODE_LENGTH, PICTURES
from classroom.selectors.counters import counter_value
from classroom.services.counters import counter_claim, counter_clear, counter_hit, counters_clear
from classroom.services.events import notify_on_commit, projector_group


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


# A pasted name is cut to this length: the field holds 40, and a duplicate
# gets " 2", " 3"… added (``unique_display_name``).
PASTED_NAME_MAX = 36


def parse_names(text: str) -> list[str]:
    """One first name per line; blank lines and surrounding spaces ignored,
    long names cut to ``PASTED_NAME_MAX`` (``names_cut`` says which)."""
    names = []
    for line in text.splitlines():
        cleaned = " ".join(line.split())[:PASTED_NAME_MAX]
        if cleaned:
            names.append(cleaned)
    return names


def names_cut(text: str) -> list[str]:
    """The pasted names ``parse_names`` shortens, as they will read: the
    teacher is told rather than finding them cut in the list."""
    return [
        " ".join(line.split())[:PASTED_NAME_MAX]
        for line in text.splitlines()
        if len(" ".join(line.split())) > PASTED_NAME_MAX
    ]


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
    locked.lock_level = 0
    locked.needs_teacher = False
    locked.save(
        update_fields=[
            "picture_code",
            "failed_attempts",
            "locked_until",
            "lock_level",
            "needs_teacher",
        ]
    )
    return locked


def _device_key(class_id: int, device: str) -> str:
    return f"pic:dev:{class_id}:{device}"


def _net_prefix(class_id: int, net: str) -> str:
    return f"pic:net:{class_id}:{net}:"


def _card_key(pupil_id: int) -> str:
    return f"pic:card:{pupil_id}"


def _net_failures(class_id: int, net: str) -> int:
    """Wrong codes from this network on this class by tablets that never got
    in (a tablet's right code deletes its own row: its slips are forgiven)."""
    total = RateCounter.objects.filter(
        key__startswith=_net_prefix(class_id, net), expires_at__gt=timezone.now()
    ).aggregate(total=Sum("count"))["total"]
    return int(total or 0)


@transaction.atomic
def pupil_unlock(*, pupil: Pupil) -> Pupil:
    """The teacher clears a locked card. Locks the pupil row.

    The escalation is kept and the card is left ``UNLOCK_SPARE`` wrong code
    from the teacher-only lock: an unlock gives a guesser one try, not 5 (a
    right code resets everything). The class's *tablet* stops are lifted too
    (a child stuck on her own tablet can try again); the network budgets are
    not, so a guesser elsewhere stays slowed."""
    locked = Pupil.objects.select_for_update().get(pk=pupil.pk)
    _unlock(locked)
    counters_clear(prefix=f"pic:dev:{locked.school_class_id}:")
    counters_clear(prefix=f"pic:devslot:{locked.school_class_id}:")
    return locked


def _unlock(locked: Pupil) -> None:
    locked.locked_until = None
    locked.needs_teacher = False
    if locked.lock_level:
        locked.lock_level = len(PICTURE_LOCK_STEPS)
        locked.failed_attempts = PICTURE_MAX_FAILURES - UNLOCK_SPARE
    else:
        locked.failed_attempts = 0
    locked.save(update_fields=["failed_attempts", "locked_until", "needs_teacher", "lock_level"])


@transaction.atomic
def pupils_unlock_all(*, school_class: SchoolClass) -> int:
    """The teacher's one click on "cartes attaquées": every locked card of the
    class unlocked as ``pupil_unlock`` does (same spare), and the class's
    stopped tablets and slowed networks may try again. Locks the class's pupil
    rows; returns how many cards were locked."""
    now = timezone.now()
    count = 0
    for locked in Pupil.objects.select_for_update().filter(school_class=school_class):
        if locked.needs_teacher or (locked.locked_until and locked.locked_until > now):
            count += 1
            _unlock(locked)
    counters_clear(prefix=f"pic:dev:{school_class.pk}:")
    counters_clear(prefix=f"pic:devslot:{school_class.pk}:")
    # The network slow-down too: the children in front of the teacher get in.
    counters_clear(prefix=f"pic:net:{school_class.pk}:")
    counters_clear(prefix=f"pic:netslot:{school_class.pk}:")
    notify_on_commit(projector_group(_open_session_id(school_class.pk)), {"type": "pupils.changed"})
    return count


def pupil_delete(*, pupil: Pupil) -> None:
    """Deletes the pupil, their tablets and attendances; the ``post_delete``
    receiver wipes their name from game seats.

    Their tablets are signed out first (issue 44, item 7): each browser
    session naming the pupil is deleted, and on commit its open sockets are
    told to close and its generation bumped, so a later ``sync`` on a socket
    that missed the close is refused too."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    with transaction.atomic():
        keys = set(TabletLogin.objects.filter(pupil=pupil).values_list("session_key", flat=True))
        for key in keys:
            if key:
                store(session_key=key).delete()
        pupil.delete()
        for key in keys:
            revocation.session_revoke(session_key=key)


def pupil_is_locked(pupil: Pupil) -> bool:
    return pupil.needs_teacher or (
        pupil.locked_until is not None and pupil.locked_until > timezone.now()
    )


def pupil_attack_count(pupil: Pupil) -> int:
    """Wrong codes on this card lately: the ones that count towards its lock,
    plus those of tablets already slowed (they never count on the card, so
    that a guesser cannot lock a class; the teacher still sees them)."""
    return pupil.failed_attempts + counter_value(key=_card_key(pupil.pk))


def pupil_recently_attacked(pupil: Pupil) -> bool:
    """Wrong picture codes in the last hour: the teacher's warning sign."""
    recent = pupil.last_failed_at is not None and (
        pupil.last_failed_at > timezone.now() - ATTACK_MEMORY
    )
    return recent and bool(pupil.failed_attempts or pupil.lock_level or pupil_attack_count(pupil))


@dataclass(frozen=True)
class CodeCheck:
    ok: bool
    locked: bool
    seconds_left: int = 0
    needs_teacher: bool = False
    # Not checked: this tablet or its network must wait first.
    slowed: bool = False
    # Not checked: this tablet failed too often on this class; the teacher helps.
    stopped: bool = False


@transaction.atomic
def pupil_check_code(
    *, pupil: Pupil, code: list[int], device: str = "", net: str = ""
) -> CodeCheck:
    """Check a picture code typed on tablet ``device`` (its session key) from
    network ``net`` (``ratelimit.client_net``). Locks the pupil row, so
    parallel guesses from several tablets all count.

    In order: a locked card answers "locked"; a stopped tablet is not checked;
    a tablet or network beyond its free budget is checked only when it holds
    its slot, else answered "wait" whatever the code (the answer must not tell
    a guesser anything). A wrong code counts against the tablet and the
    network, and against the card only if it was checked within both free
    budgets (see the constants at the top: one tablet can lock no card). A
    right code resets the card and forgives the tablet's own slips. Every new
    card lock tells the teacher's live pages, on commit."""
    locked = Pupil.objects.select_for_update().get(pk=pupil.pk)
    now = timezone.now()
    if locked.needs_teacher:
        return CodeCheck(ok=False, locked=True, needs_teacher=True)
    if locked.locked_until and locked.locked_until > now:
        return CodeCheck(ok=False, locked=True, seconds_left=_seconds_until(locked.locked_until))
    class_id = locked.school_class_id
    device_failures = counter_value(key=_device_key(class_id, device)) if device else 0
    net_failures = _net_failures(class_id, net)
    if device_failures >= DEVICE_STOP:
        return CodeCheck(ok=False, locked=False, stopped=True)
    device_free = device_failures < DEVICE_FREE
    net_free = net_failures < NET_FREE
    if not device_free and not counter_claim(
        key=f"pic:devslot:{class_id}:{device}", window=DEVICE_SLOW_SECONDS
    ):
        return CodeCheck(ok=False, locked=False, slowed=True)
    if not net_free and not counter_claim(
        key=f"pic:netslot:{class_id}:{net}", window=NET_SLOW_SECONDS
    ):
        return CodeCheck(ok=False, locked=False, slowed=True)
    if list(code) == list(locked.picture_code):
        if locked.failed_attempts or locked.locked_until or locked.lock_level:
            locked.failed_attempts = 0
            locked.locked_until = None
            locked.lock_level = 0
            locked.save(update_fields=["failed_attempts", "locked_until", "lock_level"])
        if device:
            counter_clear(key=_device_key(class_id, device))
            counter_clear(key=f"{_net_prefix(class_id, net)}{device}")
        return CodeCheck(ok=True, locked=False)
    if device:
        counter_hit(key=_device_key(class_id, device), window=PICTURE_WINDOW)
    counter_hit(key=f"{_net_prefix(class_id, net)}{device or '-'}", window=PICTURE_WINDOW)
    locked.last_failed_at = now
    stopped = bool(device) and device_failures + 1 >= DEVICE_STOP
    if not (device_free and net_free):
        # A slowed tablet or network never moves the card towards its lock.
        counter_hit(key=_card_key(locked.pk), window=int(ATTACK_MEMORY.total_seconds()))
        locked.save(update_fields=["last_failed_at"])
        return CodeCheck(ok=False, locked=False, stopped=stopped)
    locked.failed_attempts += 1
    fields = ["failed_attempts", "last_failed_at"]
    if locked.failed_attempts >= PICTURE_MAX_FAILURES:
        locked.lock_level += 1
        fields += ["lock_level", "locked_until", "needs_teacher"]
        if locked.lock_level >= TEACHER_ONLY_LEVEL:
            locked.needs_teacher = True
            locked.locked_until = None
            result = CodeCheck(ok=False, locked=True, needs_teacher=True)
        else:
            seconds = PICTURE_LOCK_STEPS[locked.lock_level - 1]
            locked.locked_until = now + timedelta(seconds=seconds)
            result = CodeCheck(ok=False, locked=True, seconds_left=seconds)
        locked.save(update_fields=fields)
        notify_on_commit(
            projector_group(_open_session_id(locked.school_class_id)), {"type": "pupils.changed"}
        )
        return result
    locked.save(update_fields=fields)
    return CodeCheck(ok=False, locked=False, stopped=stopped)


def _open_session_id(class_id: int) -> int:
    session = ClassSession.objects.filter(school_class_id=class_id, ended_at__isnull=True).first()
    return session.pk if session else 0


def _seconds_until(when: Any) -> int:
    return max(1, math.ceil((when - timezone.now()).total_seconds()))
