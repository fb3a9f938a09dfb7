"""How many messages one websocket may send: a token bucket per socket.

Why: every message a consumer handles costs a database thread, and on SQLite a
refused move still opened a write transaction (the write lock of the whole
school). A script sending hundreds of refused moves and ``sync`` from one
socket was served every one, each with its redraw. A message beyond the
budget is refused here, on the event loop, before any parsing or database work.

The numbers (``settings.WS_BUDGET_*``), and why no child reaches them:

- a socket holds at most ``WS_BUDGET_BURST`` (30) messages and earns
  ``WS_BUDGET_PER_SECOND`` (8) more each second. A child's fastest deliberate
  tapping is about 5 taps a second, one message each; a game at its quickest is
  a move every 0.3 s, two messages in a two-step game (the card, then the move),
  under 7 a second. A reconnect's ``sync`` is one message, and htmx's ws
  extension replays the taps queued while offline at once: 30 covers a long
  outage of frantic tapping;
- a child mashing with both hands (10-12 taps a second) runs dry after a few
  seconds and sees "Doucement !" for the taps beyond, once per run of refusals;
- only a script is refused ``WS_BUDGET_CLOSE_AFTER`` (90, three buckets' worth)
  times within ``WS_BUDGET_CLOSE_WINDOW`` (10 s): its socket is then closed
  with ``CLOSE_TOO_MANY`` (1008, the standard "policy violation"; htmx's ws
  extension does not reconnect on it).
"""

from __future__ import annotations

import enum
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from django.conf import settings

CLOSE_TOO_MANY = 1008

_ATTRIBUTE = "_socket_budget"


class Verdict(enum.Enum):
    ALLOWED = "allowed"
    # Refused, and the first refusal since the last allowed message: say so.
    SLOW_DOWN = "slow_down"
    # Refused again: the sender was told already, say nothing (no redraw either).
    QUIET = "quiet"
    # Sustained abuse: close the socket.
    CLOSE = "close"


class SocketBudget:
    """One socket's bucket. Not thread-safe: a consumer's messages are taken on
    its event loop, one at a time."""

    def __init__(
        self,
        *,
        burst: int,
        per_second: float,
        close_after: int,
        close_window: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self.close_window = close_window
        self.clock = clock
        self.tokens = float(burst)
        self.updated = clock()
        # The times of the last refusals (bounded: at most ``close_after``).
        self.refusals: deque[float] = deque(maxlen=max(1, close_after))
        self.told = False
        self.closing = False

    def take(self) -> Verdict:
        """Spend one message of the budget, or say how it is refused. ``CLOSE``
        comes once: the messages still queued behind it are dropped quietly
        (a second close would be an ASGI error at the server)."""
        if self.closing:
            return Verdict.QUIET
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.updated) * self.per_second)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.told = False
            return Verdict.ALLOWED
        self.refusals.append(now)
        if (
            len(self.refusals) == self.refusals.maxlen
            and now - self.refusals[0] <= self.close_window
        ):
            self.closing = True
            return Verdict.CLOSE
        if self.told:
            return Verdict.QUIET
        self.told = True
        return Verdict.SLOW_DOWN


def from_settings() -> SocketBudget:
    return SocketBudget(
        burst=int(settings.WS_BUDGET_BURST),
        per_second=float(settings.WS_BUDGET_PER_SECOND),
        close_after=int(settings.WS_BUDGET_CLOSE_AFTER),
        close_window=float(settings.WS_BUDGET_CLOSE_WINDOW),
    )


def take(consumer: Any) -> Verdict:
    """Spend one message of ``consumer``'s budget, made on its first message
    (so no consumer's ``connect`` needs to know of it)."""
    budget = getattr(consumer, _ATTRIBUTE, None)
    if budget is None:
        budget = from_settings()
        setattr(consumer, _ATTRIBUTE, budget)
    return budget.take()
