"""``python manage.py purge --older-than DAYS [--dry-run]``: forget old sessions.

Deletes the class sessions that *ended* more than DAYS days ago, with
everything hanging off them: attendances, groups, tablet logins, every game
table of the session (seats, states, events, moves — removed by the
``ClassSession`` ``post_delete`` receiver), and any learning data added later,
as long as it points at the session or its tables with ``on_delete=CASCADE``.
The dry run counts the same cascade without deleting anything.

It also applies the retention rules of the README's "What is kept, and for
how long" (settings ``RETENTION_*``, or the options below):

- practice sessions left open (a tablet put down mid-game) end after
  ``--stale-practice-hours`` (default 12);
- lessons left open end once idle for ``LESSON_IDLE_HOURS`` (default 4: no
  join, no sign-in, no move): their tables end and their tablets are signed
  out, as "Terminer la séance" does, so a forgotten lesson's join code dies
  (a join code already refuses them meanwhile: ``selectors.open_sessions``);
- expired Django sessions (tablet and teacher logins) are deleted;
- django-axes' login attempts and access logs older than ``--logs-days``
  (default 30) are deleted;
- a tablet's browser name (user agent) is blanked after ``--tablet-days``
  (default 7): the teacher needs it during the lesson, not afterwards;
- draft teacher accounts (a sign-up whose address was never proven) go with
  what they hold once their activation link has expired
  (``PASSWORD_RESET_TIMEOUT``): an address typed by someone who never proved
  it is not kept longer than its link lives.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management.base import BaseCommand, CommandParser
from django.db import router, transaction
from django.db.models.deletion import Collector
from django.utils import timezone

from cardgames.models import Table
from classroom.auth_backends import DRAFT_PREFIX
from classroom.keys import session_key
from classroom.models import ClassSession, TabletLogin
from classroom.selectors.sessions import idle_lessons
from classroom.services import sessions_to_purge
from classroom.services.sessions import sessions_idle_end


def retention_rows(*, stale_practice_hours: int, logs_days: int, tablet_days: int) -> dict[str, Any]:
    """The rows each retention rule touches (querysets), for counting or acting."""
    now = timezone.now()
    return {
        "idle lessons (ended)": idle_lessons(now=now),
        "stale practice sessions (ended)": ClassSession.objects.filter(
            practice=True,
            ended_at__isnull=True,
            started_at__lt=now - timedelta(hours=stale_practice_hours),
        ),
        "expired Django sessions": Session.objects.filter(expire_date__lt=now),
        "axes login attempts": AccessAttempt.objects.filter(
            attempt_time__lt=now - timedelta(days=logs_days)
        ),
        "axes failure logs": AccessFailureLog.objects.filter(
            attempt_time__lt=now - timedelta(days=logs_days)
        ),
        "axes access logs": AccessLog.objects.filter(
            attempt_time__lt=now - timedelta(days=logs_days)
        ),
        "tablet user agents (blanked)": TabletLogin.objects.filter(
            logged_in_at__lt=now - timedelta(days=tablet_days)
        ).exclude(device_label=""),
        "unconfirmed teacher drafts": get_user_model().objects.filter(
            username__startswith=DRAFT_PREFIX,
            is_active=False,
            date_joined__lt=now - timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT),
        ),
    }


def _count_cascade(queryset: Any) -> Counter[str]:
    """How many rows of each model deleting ``queryset`` would remove."""
    counts: Counter[str] = Counter()
    if not queryset.exists():
        return counts
    collector = Collector(using=router.db_for_write(queryset.model))
    collector.collect(queryset)
    for model, instances in collector.data.items():
        counts[model._meta.label] += len(instances)
    for fast in collector.fast_deletes:
        counts[fast.model._meta.label] += fast.count()
    return counts


class Command(BaseCommand):
    help = "Delete finished class sessions (and all their game and learning data) older than DAYS."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--older-than", type=int, required=True, metavar="DAYS")
        parser.add_argument(
            "--dry-run", action="store_true", help="Count what would go, delete nothing."
        )
        parser.add_argument(
            "--stale-practice-hours",
            type=int,
            default=getattr(settings, "RETENTION_STALE_PRACTICE_HOURS", 12),
        )
        parser.add_argument(
            "--logs-days", type=int, default=getattr(settings, "RETENTION_LOG_DAYS", 30)
        )
        parser.add_argument(
            "--tablet-days", type=int, default=getattr(settings, "RETENTION_TABLET_LABEL_DAYS", 7)
        )

    def handle(self, *args: Any, **options: Any) -> None:
        days: int = options["older_than"]
        if days < 0:
            self.stderr.write("DAYS must be 0 or more.")
            return
        self._retention(options)
        sessions = sessions_to_purge(older_than_days=days)
        keys = [session_key(pk) for pk in sessions.values_list("pk", flat=True)]
        counts = _count_cascade(sessions)
        counts.update(_count_cascade(Table.objects.filter(group_key__in=keys)))
        verb = "Would delete" if options["dry_run"] else "Deleted"
        if not options["dry_run"]:
            with transaction.atomic():
                Table.objects.filter(group_key__in=keys).delete()
                sessions.delete()
        if not counts:
            self.stdout.write(f"Nothing to purge (no session ended more than {days} days ago).")
            return
        for label, n in sorted(counts.items()):
            self.stdout.write(f"{verb} {n} {label}")

    def _retention(self, options: dict[str, Any]) -> None:
        rows = retention_rows(
            stale_practice_hours=max(0, options["stale_practice_hours"]),
            logs_days=max(0, options["logs_days"]),
            tablet_days=max(0, options["tablet_days"]),
        )
        dry = options["dry_run"]
        for label, queryset in rows.items():
            n = queryset.count()
            if not n:
                continue
            if not dry:
                if label.startswith("idle lessons"):
                    n = sessions_idle_end()
                elif label.startswith("stale practice"):
                    queryset.update(ended_at=timezone.now())
                elif label.startswith("tablet user agents"):
                    queryset.update(device_label="")
                else:
                    queryset.delete()
            self.stdout.write(f"{'Would purge' if dry else 'Purged'} {n} {label}")
