"""Pupils of a class: names, avatars, picture codes and the lock that stops a
code being guessed. Functions that change a pupil or a class's list take the
row lock first and say so."""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.models import ClassSession, Pupil, SchoolClass
from classroom.names import name_key
from classroom.pictures import AVATARS, CODE_LENGTH, PICTURES
from classroom.services.events import notify_on_commit, projector_group

# Picture-code brute force: a pupil's *card* locks, never an IP, so a class that
# shares one address keeps logging in while one card cools down. The lock
# escalates: the 5th wrong code in a row locks the card for 1 minute, and each
# further wrong code (before a right one) for 5, then 15 minutes; the one after
# that locks it until the teacher unlocks it. So at most 8 of the 72 codes can
# be tried without the teacher (README, "Limits"). A right code resets it all.
PICTURE_MAX_FAILURES = 5
PICTURE_LOCK_STEPS = (60, 5 * 60, 15 * 60)  # then: the teacher only
PICTURE_LOCK_SECONDS = PICTURE_LOCK_STEPS[0]
TEACHER_ONLY_LEVEL = len(PICTURE_LOCK_STEPS) + 1
# A card counts as "recently attacked" for the teacher this long after a wrong code.
ATTACK_MEMORY = timedelta(hours=1)


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
        update_fields=["picture_code", "failed_attempts", "locked_until", "lock_level", "needs_teacher"]
    )
    return locked


@transaction.atomic
def pupil_unlock(*, pupil: Pupil) -> Pupil:
    """The teacher clears a locked card. Locks the pupil row. The escalation
    is kept: 5 more wrong codes lock the card for the teacher again at once (a
    guesser gains 5 tries per unlock, not a fresh schedule); a right code
    resets everything."""
    locked = Pupil.objects.select_for_update().get(pk=pupil.pk)
    locked.failed_attempts = 0
    locked.locked_until = None
    locked.needs_teacher = False
    locked.lock_level = min(locked.lock_level, len(PICTURE_LOCK_STEPS))
    if locked.lock_level:
        locked.lock_level = len(PICTURE_LOCK_STEPS)
    locked.save(update_fields=["failed_attempts", "locked_until", "needs_teacher", "lock_level"])
    return locked


def pupil_delete(*, pupil: Pupil) -> None:
    """Deletes the pupil, their tablets and attendances; the ``post_delete``
    receiver wipes their name from game seats."""
    pupil.delete()


def pupil_is_locked(pupil: Pupil) -> bool:
    return pupil.needs_teacher or (
        pupil.locked_until is not None and pupil.locked_until > timezone.now()
    )


def pupil_recently_attacked(pupil: Pupil) -> bool:
    """Wrong picture codes in the last hour: the teacher's warning sign."""
    return bool(pupil.failed_attempts or pupil.lock_level) and (
        pupil.last_failed_at is not None and pupil.last_failed_at > timezone.now() - ATTACK_MEMORY
    )


@dataclass(frozen=True)
class CodeCheck:
    ok: bool
    locked: bool
    seconds_left: int = 0
    needs_teacher: bool = False


@transaction.atomic
def pupil_check_code(*, pupil: Pupil, code: list[int]) -> CodeCheck:
    """Check a picture code. Locks the pupil row, so parallel guesses from
    several tablets all count. The 5th wrong code in a row locks the card for
    1 minute, each further one for 5 then 15 minutes, the next one until the
    teacher unlocks it (``PICTURE_LOCK_STEPS``); other pupils are not affected.
    Every new lock tells the teacher's live pages, on commit."""
    locked = Pupil.objects.select_for_update().get(pk=pupil.pk)
    now = timezone.now()
    if locked.needs_teacher:
        return CodeCheck(ok=False, locked=True, needs_teacher=True)
    if locked.locked_until and locked.locked_until > now:
        return CodeCheck(ok=False, locked=True, seconds_left=_seconds_until(locked.locked_until))
    if list(code) == list(locked.picture_code):
        if locked.failed_attempts or locked.locked_until or locked.lock_level:
            locked.failed_attempts = 0
            locked.locked_until = None
            locked.lock_level = 0
            locked.save(update_fields=["failed_attempts", "locked_until", "lock_level"])
        return CodeCheck(ok=True, locked=False)
    locked.failed_attempts += 1
    locked.last_failed_at = now
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
    return CodeCheck(ok=False, locked=False)


def _open_session_id(class_id: int) -> int:
    session = ClassSession.objects.filter(school_class_id=class_id, ended_at__isnull=True).first()
    return session.pk if session else 0


def _seconds_until(when: Any) -> int:
    return max(1, math.ceil((when - timezone.now()).total_seconds()))
