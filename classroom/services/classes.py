"""A teacher's classes: create, rename, delete (with everything in them)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from classroom.models import SchoolClass, new_link_token

PRACTICE_FIELDS = ("practice_allowed", "practice_from", "practice_until")


def class_create(
    *, teacher: Any, name: str, level: str, language: str = "", **practice: Any
) -> SchoolClass:
    """A new class; solo practice stays off unless ``practice_allowed`` says so.
    ``language``: its tablets' and parent letters' (blank: each device's own)."""
    extra = {k: v for k, v in practice.items() if k in PRACTICE_FIELDS}
    return SchoolClass.objects.create(
        teacher=teacher, name=name.strip(), level=level, language=language, **extra
    )


def class_update(
    *,
    school_class: SchoolClass,
    name: str,
    level: str,
    language: str | None = None,
    read_aloud: bool | None = None,
    **practice: Any,
) -> SchoolClass:
    """Rename, change the level, or the practice switch and hours, or the
    language of the tablets and parent letters (``None``: unchanged; a tablet
    already signed in picks it up when it next joins), or whether the tablets
    read aloud by themselves (``None``: unchanged; a tablet picks it up at its
    next step through the lobby)."""
    school_class.name = name.strip()
    school_class.level = level
    fields = ["name", "level"]
    if language is not None:
        school_class.language = language
        fields.append("language")
    if read_aloud is not None:
        school_class.read_aloud = read_aloud
        fields.append("read_aloud")
    for key, value in practice.items():
        if key == "practice_allowed" and value is None:
            continue  # not given: unchanged
        if key in PRACTICE_FIELDS:
            setattr(school_class, key, value)
            fields.append(key)
    school_class.save(update_fields=fields)
    return school_class


@transaction.atomic
def class_link_rotate(*, school_class: SchoolClass) -> SchoolClass:
    """A new printed-link token: the old cards stop working at once (their QR
    leads nowhere), new cards must be printed. Locks the class row."""
    locked = SchoolClass.objects.select_for_update().get(pk=school_class.pk)
    token = new_link_token()
    while SchoolClass.objects.filter(link_token=token).exists():  # pragma: no cover - 2^128
        token = new_link_token()
    locked.link_token = token
    locked.save(update_fields=["link_token"])
    return locked


def class_delete(*, school_class: SchoolClass) -> None:
    """Deletes the pupils, sessions, tablets and (through the ClassSession
    ``post_delete`` receiver) every game table of the class."""
    school_class.delete()
