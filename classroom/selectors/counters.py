"""Reads of the abuse counters (``classroom.services.counters`` writes them)."""

from __future__ import annotations

from django.utils import timezone

from classroom.models import RateCounter


def counter_value(*, key: str) -> int:
    """The count of ``key``'s running window (0 when none runs)."""
    value = (
        RateCounter.objects.filter(key=key, expires_at__gt=timezone.now())
        .values_list("count", flat=True)
        .first()
    )
    return int(value or 0)
