"""Abuse counters kept in the database (``RateCounter``): wrong join codes,
wrong picture codes, mails sent to an address.

Why not the cache: a flood of other keys evicts entries from the local-memory
cache, and an evicted counter is a fresh budget for the attacker. A row stays
until it expires, and ``purge`` deletes expired rows.

Each counter is a fixed window: the first hit starts it for ``window``
seconds, later hits add to it, and once expired the next hit starts afresh.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from classroom.models import RateCounter


def counter_hit(*, key: str, window: int, amount: int = 1) -> int:
    """Add ``amount`` to ``key``'s running window (starting one of ``window``
    seconds when none runs) and return the new count.

    Race-safe without a lock: the increment is one ``UPDATE … count = count +
    n``, and two first hits that race both try the insert, the loser then
    adds to the winner's row."""
    now = timezone.now()
    for _attempt in range(3):
        with transaction.atomic():
            if RateCounter.objects.filter(key=key, expires_at__gt=now).update(
                count=F("count") + amount
            ):
                return int(
                    RateCounter.objects.filter(key=key).values_list("count", flat=True).get()
                )
            RateCounter.objects.filter(key=key, expires_at__lte=now).delete()
        try:
            with transaction.atomic():
                RateCounter.objects.create(
                    key=key, count=amount, expires_at=now + timedelta(seconds=window)
                )
        except IntegrityError:  # another request started the window first
            continue
        return amount
    raise RuntimeError(f"counter {key!r} could not be counted")  # pragma: no cover


def counter_claim(*, key: str, window: int) -> bool:
    """Take a slot for ``window`` seconds: True for the first caller, False
    while the slot is held (one check at a time, per IP for instance)."""
    return counter_hit(key=key, window=window) == 1


def counter_clear(*, key: str) -> None:
    """Forget ``key``'s counter (a teacher unlocked a card, for instance)."""
    RateCounter.objects.filter(key=key).delete()


def counters_clear(*, prefix: str) -> int:
    """Forget every counter whose key starts with ``prefix``; how many."""
    deleted, _ = RateCounter.objects.filter(key__startswith=prefix).delete()
    return deleted


def counters_expired_delete() -> int:
    """Delete the counters whose window has ended (``purge``); how many."""
    deleted, _ = RateCounter.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted
