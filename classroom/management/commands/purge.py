"""``python manage.py purge --older-than DAYS [--dry-run]``: forget old sessions.

Deletes the class sessions that *ended* more than DAYS days ago, with
everything hanging off them: attendances, groups, tablet logins, every game
table of the session (seats, states, events, moves — removed by the
``ClassSession`` ``post_delete`` receiver), and any learning data added later,
as long as it points at the session or its tables with ``on_delete=CASCADE``.
The dry run counts the same cascade without deleting anything.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import router, transaction
from django.db.models.deletion import Collector

from cardgames.models import Table
from classroom.keys import session_key
from classroom.services import sessions_to_purge


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

    def handle(self, *args: Any, **options: Any) -> None:
        days: int = options["older_than"]
        if days < 0:
            self.stderr.write("DAYS must be 0 or more.")
            return
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
