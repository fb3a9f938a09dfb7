"""``python manage.py seed_demo``: demo data for a first look. Idempotent."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from classroom import services
from classroom.models import Level, SchoolClass
from classroom.selectors import open_session_of_class

DEMO_EMAIL = "demo@example.org"
DEMO_PASSWORD = "souris-demo-2026"
DEMO_CLASS = "CE1 Les Chats"
DEMO_PUPILS = [
    "Léo", "Inès", "Maël", "Jade", "Noah", "Louise", "Adam", "Ambre", "Sacha", "Lina",
    "Gabriel", "Rose", "Raphaël", "Chloé", "Arthur", "Mila", "Louis", "Anna", "Jules", "Zoé",
    "Nino", "Lou", "Hugo", "Emma",
]  # fmt: skip


class Command(BaseCommand):
    help = "Create (or refresh) the demo teacher, class and session. Safe to run again."

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        teacher, created = user_model.objects.get_or_create(
            username=DEMO_EMAIL, defaults={"email": DEMO_EMAIL, "first_name": "Camille"}
        )
        if created or not teacher.check_password(DEMO_PASSWORD):
            teacher.set_password(DEMO_PASSWORD)
            teacher.save()
        school_class, _created = SchoolClass.objects.get_or_create(
            teacher=teacher, name=DEMO_CLASS, defaults={"level": Level.CE1}
        )
        existing = set(school_class.pupils.values_list("display_name", flat=True))
        missing = [name for name in DEMO_PUPILS if name not in existing]
        if missing:
            services.pupils_add(school_class=school_class, names=missing)
        class_session = open_session_of_class(school_class=school_class)
        if class_session is None:
            class_session = services.session_start(
                school_class=school_class, game="chasse", options={}
            )
        self.stdout.write(f"Demo teacher: {DEMO_EMAIL} / {DEMO_PASSWORD}")
        self.stdout.write(f"Demo class: {DEMO_CLASS} ({school_class.pupils.count()} pupils)")
        self.stdout.write(f"Open session join code: {class_session.join_code}")
