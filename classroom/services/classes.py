"""A teacher's classes: create, rename, delete (with everything in them)."""

from __future__ import annotations

from typing import Any

from classroom.models import SchoolClass


def class_create(
    *, teacher: Any, name: str, level: str, practice_allowed: bool = True, language: str = ""
) -> SchoolClass:
    return SchoolClass.objects.create(
        teacher=teacher,
        name=name.strip(),
        level=level,
        practice_allowed=practice_allowed,
        language=language,
    )


def class_update(
    *,
    school_class: SchoolClass,
    name: str,
    level: str,
    practice_allowed: bool | None = None,
    language: str | None = None,
) -> SchoolClass:
    """Rename the class, change its level and (when given) whether its pupils
    may practise alone with the class link while no session is open, and the
    language of its tablets and parent letters (a tablet already signed in
    picks it up when it next joins)."""
    school_class.name = name.strip()
    school_class.level = level
    fields = ["name", "level"]
    if practice_allowed is not None:
        school_class.practice_allowed = practice_allowed
        fields.append("practice_allowed")
    if language is not None:
        school_class.language = language
        fields.append("language")
    school_class.save(update_fields=fields)
    return school_class


def class_delete(*, school_class: SchoolClass) -> None:
    """Deletes the pupils, sessions, tablets and (through the ClassSession
    ``post_delete`` receiver) every game table of the class."""
    school_class.delete()
