"""``python manage.py seed_demo``: demo data for a first look. Idempotent.

Besides the teacher, the class and an open session, the demo class gets about
three months of finished sessions (``classroom.demo_history``: real Chasse
games played by simulated pupils with different profiles), so the reports
look real on the very first run. The history is written once: a class that
already has a finished session gets none.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from classroom import services
from classroom.demo_history import DEMO_GAME, default_profiles
from classroom.management.commands.bench_reports import history_write
from classroom.models import Level, Pupil, SchoolClass
from classroom.selectors import open_session_of_class
from classroom.services.summaries import class_summaries_store

DEMO_EMAIL = "demo@example.org"
DEMO_PASSWORD = "souris-demo-2026"
DEMO_CLASS = "CE1 Les Chats"
DEMO_PUPILS = [
    "Léo", "Inès", "Maël", "Jade", "Noah", "Louise", "Adam", "Ambre", "Sacha", "Lina",
    "Gabriel", "Rose", "Raphaël", "Chloé", "Arthur", "Mila", "Louis", "Anna", "Jules", "Zoé",
    "Nino", "Lou", "Hugo", "Emma",
]  # fmt: skip
# ~3 months of school days, two or three lessons a week, ~20 announcements per
# pupil and lesson: ~14,000 records, written in a few seconds by ``make run``.
HISTORY_SESSIONS = 30
HISTORY_PLAYS_PER_SESSION = 20
HISTORY_SEED = 2026
# Demo games have no table rows (no replay); their numbers stay far above the
# ids of real tables so the (table, move, pupil) uniqueness never collides.
HISTORY_FIRST_TABLE_ID = 1_000_000_000


def demo_history_write(*, school_class: SchoolClass) -> int:
    """Write the demo history once; returns the number of records written (0
    when the class already has finished sessions). Locks the class so two
    concurrent runs cannot both write it."""
    with transaction.atomic():
        SchoolClass.objects.select_for_update().get(pk=school_class.pk)
        if school_class.sessions.filter(ended_at__isnull=False).exists():
            return 0
        order = {name: i for i, name in enumerate(DEMO_PUPILS)}
        pupils: list[Pupil] = sorted(
            school_class.pupils.all(), key=lambda p: (order.get(p.display_name, 99), p.pk)
        )
        if not pupils:
            return 0
        written = history_write(
            school_class=school_class,
            pupils=pupils,
            sessions=HISTORY_SESSIONS,
            seed=HISTORY_SEED,
            first_table_id=HISTORY_FIRST_TABLE_ID + school_class.pk * 10_000,
            profiles=default_profiles(len(pupils)),
            end=timezone.localdate() - timedelta(days=1),
            plays_per_session=HISTORY_PLAYS_PER_SESSION,
        )
    # Build the per-session summaries now, so the first report opens fast.
    class_summaries_store(school_class=school_class)
    return written


class Command(BaseCommand):
    help = "Create (or refresh) the demo teacher, class, history and session. Safe to run again."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--no-history", action="store_true", help="Skip the three months of demo history."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if getattr(settings, "PRODUCTION", False):
            # The demo teacher's password is printed in the README: on a real
            # server this would be a public way into an account (or reset a
            # real teacher's password back to the public one).
            raise CommandError(
                "seed_demo never runs with DJANGO_ENV=production: the demo password is public."
            )
        user_model = get_user_model()
        teacher, created = user_model.objects.get_or_create(
            username=DEMO_EMAIL, defaults={"email": DEMO_EMAIL, "first_name": "Camille"}
        )
        if created or not teacher.check_password(DEMO_PASSWORD):
            teacher.set_password(DEMO_PASSWORD)
            teacher.save()
        school_class, _created = SchoolClass.objects.get_or_create(
            teacher=teacher, name=DEMO_CLASS, defaults={"level": Level.CE1, "practice_allowed": True}
        )
        existing = set(school_class.pupils.values_list("display_name", flat=True))
        missing = [name for name in DEMO_PUPILS if name not in existing]
        if missing:
            services.pupils_add(school_class=school_class, names=missing)
        if not options.get("no_history"):
            start = time.perf_counter()
            written = demo_history_write(school_class=school_class)
            if written:
                self.stdout.write(
                    f"Demo history: {written:,} learning records over {HISTORY_SESSIONS} "
                    f"sessions ({time.perf_counter() - start:.1f} s)"
                )
        class_session = open_session_of_class(school_class=school_class)
        if class_session is None:
            class_session = services.session_start(
                school_class=school_class, game=DEMO_GAME, options={}
            )
        self.stdout.write(f"Demo teacher: {DEMO_EMAIL} / {DEMO_PASSWORD}")
        self.stdout.write(f"Demo class: {DEMO_CLASS} ({school_class.pupils.count()} pupils)")
        self.stdout.write(f"Open session join code: {class_session.join_code}")
