"""Limits on wrong join codes that never lock a class out.

The rules (the README's limits table states them with the arithmetic):

- **A correct code always gets through**, whatever the tablet or its IP
  address tried before: the code is looked up first, and failures never block
  a right answer. A whole school behind one public IP therefore cannot be
  locked out by a few hundred mistypes, nor by someone exhausting its budget.
- **Only wrong codes count**, per IP address: ``IP_LIMIT`` wrong codes per
  ``IP_WINDOW`` seconds. The per-tablet counter (``DEVICE_LIMIT``, to slow a
  single tablet down with a kind message) is keyed on the tablet's session
  cookie *and* capped by the IP's counter, so dropping the cookie buys no
  budget beyond the IP's.
- **Beyond the IP's budget, codes are checked one at a time**: at most one
  check per ``SLOW_LANE_SECONDS`` per IP (a cache slot). A request that finds
  the slot taken is answered "un instant" without looking the code up, and
  the tablet keeps its digits; a correct code gets through on the next tap.
  So one IP can test at most ``IP_LIMIT`` codes per window plus one per
  ``SLOW_LANE_SECONDS``: see :func:`guesses_per_hour`.
- Picture codes lock the pupil's *card* (never the IP), with an escalating
  lock (``classroom.lockout``).

Counters live in the Django cache (local memory, or Redis with ``REDIS_URL``,
shared by every worker).
"""

from __future__ import annotations

from enum import Enum

from django.core.cache import cache

DEVICE_LIMIT = 10
DEVICE_WINDOW = 5 * 60
IP_LIMIT = 300
IP_WINDOW = 10 * 60
SLOW_LANE_SECONDS = 2


class Gate(Enum):
    OPEN = "open"  # check the code as usual
    SLOW = "slow"  # over budget: check it, this request holds the IP's slot
    WAIT = "wait"  # over budget and the slot is taken: do not check, say "un instant"


def _key(kind: str, who: str) -> str:
    return f"joincode:{kind}:{who}"


def _count(key: str) -> int:
    return int(cache.get(key, 0) or 0)


def _incr(key: str, window: int) -> None:
    if not cache.add(key, 1, window):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, window)


def over_budget(*, device: str, ip: str) -> bool:
    """Whether this tablet or its IP has used up its wrong-code budget. A
    request without a cookie (``device`` empty) has only its IP's budget."""
    if _count(_key("ip", ip)) >= IP_LIMIT:
        return True
    return bool(device) and _count(_key("device", device)) >= DEVICE_LIMIT


def join_code_gate(*, device: str, ip: str) -> Gate:
    """May this request have its code checked now? Under budget: yes. Over
    budget: one check per ``SLOW_LANE_SECONDS`` per IP (the first to take the
    slot), the others wait. Never a flat refusal: a right code gets through."""
    if not over_budget(device=device, ip=ip):
        return Gate.OPEN
    if cache.add(_key("slot", ip), 1, SLOW_LANE_SECONDS):
        return Gate.SLOW
    return Gate.WAIT


def join_code_failed(*, device: str, ip: str) -> None:
    """Count one wrong code against the tablet (if it has a cookie) and its IP."""
    if device:
        _incr(_key("device", device), DEVICE_WINDOW)
    _incr(_key("ip", ip), IP_WINDOW)


def guesses_per_hour() -> int:
    """The most codes one IP can have checked in an hour: its budget of wrong
    codes per window, plus one per slow-lane slot."""
    return IP_LIMIT * 3600 // IP_WINDOW + 3600 // SLOW_LANE_SECONDS
