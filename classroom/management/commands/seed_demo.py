"""``python manage.py seed_demo``: demo data for a first look. Idempotent."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_EMAIL = "demo@example.org"
DEMO_PASSWORD = "souris-demo-2026"


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
        self.stdout.write(f"Demo teacher: {DEMO_EMAIL} / {DEMO_PASSWORD}")
