"""The database abuse counters: windows that count, expire and start afresh."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from classroom.models import RateCounter
from classroom.selectors.counters import counter_value
from classroom.services.counters import (
    counter_claim,
    counter_clear,
    counter_hit,
    counters_clear,
    counters_expired_delete,
)

pytestmark = pytest.mark.django_db


def test_hits_add_up_within_the_window_and_start_afresh_after_it() -> None:
    assert counter_hit(key="k", window=60) == 1
    assert counter_hit(key="k", window=60) == 2
    assert counter_hit(key="k", window=60, amount=3) == 5
    assert counter_value(key="k") == 5
    RateCounter.objects.filter(key="k").update(expires_at=timezone.now() - timedelta(seconds=1))
    assert counter_value(key="k") == 0
    assert counter_hit(key="k", window=60) == 1


def test_a_slot_is_held_until_it_expires() -> None:
    assert counter_claim(key="slot", window=2) is True
    assert counter_claim(key="slot", window=2) is False
    RateCounter.objects.filter(key="slot").update(expires_at=timezone.now() - timedelta(seconds=1))
    assert counter_claim(key="slot", window=2) is True


def test_clearing_and_purging_remove_only_what_they_name() -> None:
    counter_hit(key="a:1", window=60)
    counter_hit(key="a:2", window=60)
    counter_hit(key="b:1", window=60)
    counter_clear(key="a:1")
    assert counter_value(key="a:1") == 0
    assert counters_clear(prefix="a:") == 1
    assert counter_value(key="b:1") == 1
    RateCounter.objects.filter(key="b:1").update(expires_at=timezone.now() - timedelta(seconds=1))
    assert counters_expired_delete() == 1
    assert not RateCounter.objects.exists()
