"""Limits on wrong join codes — generous, because the users are children.

The limits (also in the README section for the lead):

- **per device** (the tablet's browser session): 10 wrong 6-digit codes in
  5 minutes, then the keypad asks to wait until the 5 minutes are over. A child
  who mistypes a few times never meets it.
- **per IP address**: 300 wrong codes in 10 minutes. A whole school behind one
  address mistyping three times each stays far below; a script trying the
  10^6 codes is slowed to 300 per 10 minutes. Only *wrong* codes count.
- **picture codes** lock the pupil's *card* (not the IP, not the tablet): 5
  wrong picture codes lock that card for 1 minute (see
  ``classroom.services.pupil_check_code``); the teacher sees it and can clear it.

Fixed windows in the Django cache (local memory, or Redis when ``REDIS_URL``
is set, shared by every worker).
"""

from __future__ import annotations

from django.core.cache import cache

DEVICE_LIMIT = 10
DEVICE_WINDOW = 5 * 60
IP_LIMIT = 300
IP_WINDOW = 10 * 60


def _key(kind: str, who: str) -> str:
    return f"joincode:{kind}:{who}"


def _count(key: str) -> int:
    return int(cache.get(key, 0) or 0)


def join_code_blocked(*, device: str, ip: str) -> bool:
    return _count(_key("device", device)) >= DEVICE_LIMIT or _count(_key("ip", ip)) >= IP_LIMIT


def join_code_failed(*, device: str, ip: str) -> None:
    for key, window in ((_key("device", device), DEVICE_WINDOW), (_key("ip", ip), IP_WINDOW)):
        if not cache.add(key, 1, window):
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.add(key, 1, window)
