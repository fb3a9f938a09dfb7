"""A teacher's classes: create, rename, delete (with everything in them)."""

from __future__ import annotations

from typing import Any

from classroom.models import SchoolClass


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
