"""Ending a browser session's access to its live tables, at once.

A table socket resolves who it is when it connects. When that browser session
ends (the teacher signs a tablet out, the session ends, a practice login
expires), two things happen here:

- every socket of that session is told to close, through its own channel-layer
  group (``session_group``: a hash of the session key, never the key itself);
- the session's *generation* number goes up in the shared cache. Each socket
  remembers the generation it was resolved under and compares it before every
  message: one cache read (measured in ``benchmarks/bench_access_check.py``)
  instead of reloading the session and the seat from the database each time.
  A different (or missing) number makes the socket re-check its access from
  the database, so a lost cache entry costs a query, never a wrong answer.
"""

from __future__ import annotations

import hashlib
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import transaction


def _digest(session_key: str) -> str:
    return hashlib.sha256(session_key.encode()).hexdigest()[:40]


def session_group(session_key: str) -> str:
    return f"session-{_digest(session_key)}"


def _generation_key(session_key: str) -> str:
    return f"cardgames:sessiongen:{_digest(session_key)}"


def session_generation(session_key: str) -> int | None:
    """The session's current generation (``None`` if the cache lost it)."""
    value = cache.get(_generation_key(session_key))
    return int(value) if value is not None else None


def session_generation_remember(session_key: str) -> int:
    """The generation a socket starts under (created at 0 if none yet)."""
    key = _generation_key(session_key)
    cache.add(key, 0, None)
    value = cache.get(key)
    return int(value) if value is not None else 0


# Why a socket is told to close. A code, not a sentence: each socket says it in
# its own reader's language (the teacher who signs a tablet out may read German,
# the child on it French).
SIGNED_OUT = "signed_out"


def session_revoke(*, session_key: str) -> None:
    """This browser session lost its access (signed out): bump its generation
    and close its sockets, table and lobby alike. Call it after the session is
    gone from the store; inside a transaction both happen on commit."""
    if not session_key:
        return

    def revoke() -> None:
        key = _generation_key(session_key)
        if not cache.add(key, 1, None):
            try:
                cache.incr(key)
            except ValueError:  # evicted meanwhile: any new value differs
                cache.set(key, 1, None)
        layer: Any = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(
                session_group(session_key), {"type": "table.close", "reason": SIGNED_OUT}
            )

    transaction.on_commit(revoke)
