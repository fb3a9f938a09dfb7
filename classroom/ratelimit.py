"""Limits on wrong join codes that never lock a class out.

The rules (the README's limits table states them with the arithmetic, and
``tests/classroom/test_readme_limits.py`` checks the table against these
constants):

- **Only a POST checks a code** (Django's CSRF check first). ``GET
  /join?code=…`` (the projector's QR, a link) only prefills the keypad: a page
  on another site looping ``<img src=".../join?code=…">`` checks nothing,
  counts nothing and creates no session row.
- **A correct code gets through at once** whenever the tablet and its network
  are within their budget, and *always* from a network that already brought a
  tablet into that lesson (the school's own network: see ``lesson_home``): a
  school behind one public IP keeps joining while someone there mistypes or
  guesses. The code is looked up first, so a right code never costs budget.
- **Only wrong codes count**, per network (an IPv4 address, an IPv6 /64:
  one household or phone owns a whole /64) and per tablet (its session
  cookie; without one, only the network's budget applies, so dropping the
  cookie gains nothing).
- **Beyond a budget, codes are checked one at a time**: one check per
  ``SLOW_LANE_SECONDS`` per network (per tablet when only the tablet is over).
  A request that finds the slot taken is answered "un instant" *without* the
  answer depending on its code (else "un instant" would tell a guesser "wrong"
  at full speed); the tablet keeps its digits and gets through on the next
  tap. See :func:`guesses_per_hour` for what one network can test.

Counters live in the database (``classroom.services.counters``), never in the
cache: a flood of other cache keys evicted a cache counter and bought a fresh
budget (issue 44, item 4).
"""

from __future__ import annotations

import ipaddress
from enum import Enum

from classroom.selectors.counters import counter_value
from classroom.services.counters import counter_claim, counter_hit

DEVICE_LIMIT = 10
DEVICE_WINDOW = 5 * 60
IP_LIMIT = 200
IP_WINDOW = 10 * 60
SLOW_LANE_SECONDS = 4
# How long a network stays the "home" of a lesson once a tablet joined it from
# there: longer than any lesson.
HOME_WINDOW = 12 * 60 * 60
IPV6_PREFIX = 64


class Gate(Enum):
    OPEN = "open"  # check the code as usual
    SLOW = "slow"  # over budget: check it, this request holds the slot
    WAIT = "wait"  # over budget and the slot is taken: say "un instant", whatever the code


def client_net(ip: str) -> str:
    """The budget a request draws on: an IPv4 address, or the /64 of an IPv6
    one (a single subscriber gets a whole /64, so per-address budgets were
    unlimited). An IPv4-mapped IPv6 address counts as its IPv4 address. An
    unreadable address is its own (odd) budget, never an error."""
    try:
        address = ipaddress.ip_address(ip.strip())
    except ValueError:
        return f"raw:{ip[:60]}"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/{IPV6_PREFIX}", strict=False))
    return str(address)


def _key(kind: str, who: str) -> str:
    return f"joincode:{kind}:{who}"


def _device_over(device: str) -> bool:
    return bool(device) and counter_value(key=_key("device", device)) >= DEVICE_LIMIT


def _net_over(net: str) -> bool:
    return counter_value(key=_key("ip", net)) >= IP_LIMIT


def over_budget(*, device: str, net: str) -> bool:
    """Whether this tablet or its network has used up its wrong-code budget."""
    return _net_over(net) or _device_over(device)


def join_code_gate(*, device: str, net: str) -> Gate:
    """May a *wrong-or-unknown* code from this request be answered now? Under
    budget: yes. Over: one answer per slot (per network when the network is
    over, else per tablet); the others wait, whatever their code."""
    if _net_over(net):
        slot = _key("slot", net)
    elif _device_over(device):
        slot = _key("devslot", device)
    else:
        return Gate.OPEN
    return Gate.SLOW if counter_claim(key=slot, window=SLOW_LANE_SECONDS) else Gate.WAIT


def lesson_home(*, class_session_id: int, net: str) -> bool:
    """Did a tablet already join this lesson from this network? Then a right
    code from it always gets in, whatever the budget: it is the classroom's own
    network (the first right code proved it; a guesser who finds a code
    gains nothing more by the same code)."""
    return counter_value(key=_key("home", f"{class_session_id}:{net}")) > 0


def lesson_home_remember(*, class_session_id: int, net: str) -> None:
    counter_hit(key=_key("home", f"{class_session_id}:{net}"), window=HOME_WINDOW)


def join_code_failed(*, device: str, net: str) -> None:
    """Count one wrong code against the tablet (if it has a cookie) and its network."""
    if device:
        counter_hit(key=_key("device", device), window=DEVICE_WINDOW)
    counter_hit(key=_key("ip", net), window=IP_WINDOW)


def guesses_per_hour() -> int:
    """The most codes one network can have answered in an hour: its budget of
    wrong codes per window, plus one per slow-lane slot."""
    return IP_LIMIT * 3600 // IP_WINDOW + 3600 // SLOW_LANE_SECONDS


def hours_to_find_an_open_code(*, open_lessons: int, codes: int = 1_000_000) -> float:
    """On average, how long one network needs to hit *some* open join code:
    (codes + 1) / (open + 1) guesses (drawing without replacement), at
    ``guesses_per_hour``."""
    return (codes + 1) / (open_lessons + 1) / guesses_per_hour()
