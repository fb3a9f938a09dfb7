"""factory-boy factories for every model of the project (shared by all tests).

Classroom objects are built the way the app builds them (unique names, a
picture code of two different pictures); game tables of a class session carry
``group_key = session.group_key``, as ``classroom.services.tables_start`` does.
"""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

from cardgames.models import GameEvent, GameState, Move, Table
from classroom.models import Attendance, ClassSession, Pupil, SchoolClass, SessionGroup, TabletLogin

# Table and seat rows are built by the one definition in tests/cardgames.
from tests.cardgames.factories import SeatFactory as SeatFactory
from tests.cardgames.factories import TableFactory

PASSWORD = "un-mot-de-passe-solide-42"


class TeacherFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    email = factory.Sequence(lambda n: f"enseignant{n}@ecole.example")
    username = factory.LazyAttribute(lambda o: o.email)
    first_name = "Camille"
    password = factory.django.Password(PASSWORD)


class SchoolClassFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SchoolClass

    teacher = factory.SubFactory(TeacherFactory)
    name = factory.Sequence(lambda n: f"CE1 Classe {n}")
    level = "CE1"
    # A class whose teacher allowed solo practice (the model's default is off).
    practice_allowed = True


class PupilFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pupil

    school_class = factory.SubFactory(SchoolClassFactory)
    display_name = factory.Sequence(lambda n: f"Élève {n}")
    avatar = factory.Iterator(["chat", "renard", "lapin", "hibou"])
    picture_code = factory.Sequence(lambda n: [n % 9, (n + 1) % 9])


class ClassSessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClassSession

    school_class = factory.SubFactory(SchoolClassFactory)
    game = "chasse"
    options = factory.LazyFunction(dict)
    join_code = factory.Sequence(lambda n: f"{(104729 * (n + 1)) % 10**6:06d}")


class TabletLoginFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TabletLogin

    class_session = factory.SubFactory(ClassSessionFactory)
    pupil = factory.SubFactory(
        PupilFactory, school_class=factory.SelfAttribute("..class_session.school_class")
    )
    session_key = factory.Sequence(lambda n: f"tablet-session-{n:040d}")


class SessionGroupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SessionGroup

    class_session = factory.SubFactory(ClassSessionFactory)
    number = factory.Sequence(lambda n: n + 1)
    size = 3


class AttendanceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Attendance

    class_session = factory.SubFactory(ClassSessionFactory)
    pupil = factory.SubFactory(
        PupilFactory, school_class=factory.SelfAttribute("..class_session.school_class")
    )
    group = None


class GameStateFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = GameState

    table = factory.SubFactory(TableFactory)
    state = factory.LazyFunction(dict)
    version = 0


class GameEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = GameEvent

    table = factory.SubFactory(TableFactory)
    seq = factory.Sequence(lambda n: n)
    version = 0
    kind = "round_started"
    payload = factory.LazyFunction(lambda: {"type": "round_started", "round": 1, "first_seat": 0})


class MoveFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Move

    table = factory.SubFactory(TableFactory)
    seat = 0
    version = factory.Sequence(lambda n: n)
    nonce = factory.Sequence(lambda n: f"nonce-{n}")
    action = factory.LazyFunction(lambda: {"type": "discard", "card": 1})


def session_table(class_session: ClassSession, **kwargs: Any) -> Table:
    """A game table of ``class_session`` (found by its ``group_key``)."""
    return TableFactory(group_key=class_session.group_key, **kwargs)
