"""A teacher's classes: create, rename, delete (with everything in them)."""

from __future__ import annotations

from typing import Any

from classroom.models import SchoolClass


def class_create(*, teacher: Any, name: str, level: str, language: str = "") -> SchoolClass:
    return SchoolClass.objects.create(
        teacher=teacher, name=name.strip(), level=level, language=language
    )


def class_update(
    *, school_class: SchoolClass, name: str, level: str, language: str | None = None
) -> SchoolClass:
    """``language``: the class's tablets and parent letters (``None``: unchanged).
    A tablet already signed in picks it up on its next page or socket."""
    school_class.name = name.strip()
    school_class.level = level
    fields = ["name", "level"]
    if language is not None:
        school_class.language = language
        fields.append("language")
    school_class.save(update_fields=fields)
    return school_class


def class_delete(*, school_class: SchoolClass) -> None:
    """Deletes the pupils, sessions, tablets and (through the ClassSession
    ``post_delete`` receiver) every game table of the class."""
    school_class.delete()
