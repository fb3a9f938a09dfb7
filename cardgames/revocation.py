"""Ending a browser session's (or an account's) access to its live sockets, at once.

A socket resolves who it is when it connects. When that stops being true, two
things happen here:

- every socket concerned is told to close, through a channel-layer group: the
  browser session's (``session_group``: a hash of the session key, never the
  key itself) when a tablet is signed out, a session ends, a practice login
  expires or a teacher logs out; the account's (``user_group``) when a
  teacher's password changes or the account is deleted, since every browser
  of that teacher must lose its sockets, not only the one that did it;
- a *generation* number goes up in the shared cache (one per browser session,
  one per account). Each socket remembers the generations it was granted
  under (``Watch``) and compares them before every message: one cache read
  (measured in ``benchmarks/bench_access_check.py``) instead of reloading the
  session, the account and the seat from the database each time. A different
  (or missing) number makes the socket re-check its access from the database
  (``Watch.recheck``), so a lost cache entry costs a query, never a wrong
  answer. That is also why every entry expires (``GENERATION_TTL``): an entry
  that outlives its sockets is only memory, and after a day none is needed.

A socket refused at connect writes nothing here: the generations are only
*read* before its access is resolved and written (``Watch.settle``) once it is
granted, so a stream of refused sockets cannot fill or churn the cache.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils.crypto import constant_time_compare

logger = logging.getLogger(__name__)
T = TypeVar("T")

# How long a generation entry lives. Longer than any lesson and any login
# (``SESSION_COOKIE_AGE``), so a socket's entry does not vanish under it; if it
# does anyway, the socket re-checks once from the database.
GENERATION_TTL = int(getattr(settings, "CARDGAMES_GENERATION_TTL_SECONDS", 60 * 60 * 24))


def _digest(session_key: str) -> str:
    return hashlib.sha256(session_key.encode()).hexdigest()[:40]


def session_group(session_key: str) -> str:
    return f"session-{_digest(session_key)}"


def user_group(user_id: int) -> str:
    """Every socket of one account, whichever browser opened it."""
    return f"user-{_digest(f'user:{user_id}')}"


def _generation_key(session_key: str) -> str:
    return f"cardgames:sessiongen:{_digest(session_key)}"


def _user_generation_key(user_id: int) -> str:
    return f"cardgames:usergen:{_digest(f'user:{user_id}')}"


# Whether the last cache call failed: one log line per outage, not one per message.
_cache_down = False


def _cache(call: Any, *args: Any, default: Any = None) -> Any:
    """``cache.<call>(*args)``, or ``default`` while the cache cannot be reached.

    Why: in production the cache is Redis, and a Redis restart made every
    socket's per-message read raise (HTTP 500 on connect, "Oups" and a
    traceback on every tap; found by ``benchmarks/faults.py``). A missing
    generation is already the safe answer: the socket re-checks its access
    from the database, so an outage costs queries, never a wrong answer."""
    global _cache_down
    try:
        value = getattr(cache, call)(*args)
    except Exception:  # the backend's connection error (redis-py's, or any other)
        if not _cache_down:
            _cache_down = True
            logger.warning("cache unreachable: sockets re-check their access from the database")
        return default
    if _cache_down:
        _cache_down = False
        logger.warning("cache reachable again")
    return value


def session_generation(session_key: str) -> int | None:
    """The session's current generation (``None`` if the cache lost it)."""
    value = _cache("get", _generation_key(session_key))
    return int(value) if value is not None else None


def session_generation_remember(session_key: str) -> int:
    """The generation a socket starts under (created at 0 if none yet). Only
    for a socket already granted its access (see the module docstring)."""
    key = _generation_key(session_key)
    _cache("add", key, 0, GENERATION_TTL)
    value = _cache("get", key)
    return int(value) if value is not None else 0


# Why a socket is told to close. A code, not a sentence: each socket says it in
# its own reader's language (the teacher who signs a tablet out may read German,
# the child on it French).
SIGNED_OUT = "signed_out"
# The teacher logged out, changed their password or deleted their account:
# their own pages' sockets close too (the monitor and projector stay open on
# every other ``table.close``, which only concerns the pupils' tables).
LOGGED_OUT = "logged_out"
# The close code a socket gets then (the same as a signed-out tablet's).
CLOSE_LOGGED_OUT = 4002


def _bump(key: str) -> None:
    """A new generation: any value different from every socket's. With the
    cache away the bump is lost, but so is every socket's known generation:
    each re-checks from the database until it is back."""
    if _cache("add", key, 1, GENERATION_TTL, default=True):
        return
    try:
        cache.incr(key)
        cache.touch(key, GENERATION_TTL)
    except ValueError:  # evicted meanwhile: any new value differs
        _cache("set", key, 1, GENERATION_TTL)
    except Exception:  # unreachable since the add: delete, so nobody trusts it
        _cache("delete", key)


def _close_group(group: str, reason: str) -> None:
    layer: Any = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": "table.close", "reason": reason})
    except Exception:
        # Redis away: the sockets' next message finds the session gone (the
        # database is the truth); signing out must not fail for the teacher.
        logger.warning("could not tell %s to close: the channel layer is unreachable", group)


def session_revoke(*, session_key: str, reason: str = SIGNED_OUT) -> None:
    """This browser session lost its access (signed out, logged out): bump its
    generation and close its sockets, table, lobby and teacher pages alike.
    Call it after the session is gone from the store, or just before (a logout:
    a message racing in between finds the session gone on its re-check);
    inside a transaction both happen on commit."""
    if not session_key:
        return

    def revoke() -> None:
        _bump(_generation_key(session_key))
        _close_group(session_group(session_key), reason)

    transaction.on_commit(revoke)


def user_revoke(*, user_id: int) -> None:
    """Every browser of this account lost its access (the password changed,
    the account is deleted): bump the account's generation and close all its
    sockets. On commit: a rolled-back change revokes nothing."""

    def revoke() -> None:
        _bump(_user_generation_key(user_id))
        _close_group(user_group(user_id), LOGGED_OUT)

    transaction.on_commit(revoke)


def _user_id(user: Any) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return int(user.pk)


class Watch:
    """What one socket's access was granted under: its browser session and,
    for a signed-in teacher, its account; and the generation of each when
    its access was last resolved.

    ``begin`` (a read) before resolving access, ``settle`` (a write) once it
    is granted (``grant`` does both around an access check), ``current``
    before every message, ``recheck`` when it says no (``regrant``: the
    session, then the access, checked again).
    """

    def __init__(self, scope: Mapping[str, Any]) -> None:
        session = scope.get("session")
        self.session_key: str | None = getattr(session, "session_key", None) or None
        # A user without a browser session cannot be logged out: no user part.
        self.user_id = _user_id(scope.get("user")) if self.session_key else None
        self.keys: list[str] = []
        self.groups: list[str] = []
        if self.session_key:
            self.keys.append(_generation_key(self.session_key))
            self.groups.append(session_group(self.session_key))
        if self.user_id is not None:
            self.keys.append(_user_generation_key(self.user_id))
            self.groups.append(user_group(self.user_id))
        self.seen: dict[str, int | None] = dict.fromkeys(self.keys)

    def _read(self) -> dict[str, int | None]:
        found = _cache("get_many", self.keys, default={}) if self.keys else {}
        return {key: (int(found[key]) if key in found else None) for key in self.keys}

    def begin(self) -> None:
        """Read the generations (no write) before access is resolved: a
        revocation after this read is then never missed."""
        self.seen = self._read()

    def settle(self) -> None:
        """Access was granted under ``seen``: create the missing entries at 0.
        If another writer got there first (a revocation meanwhile), the entry
        stays unknown and the next message re-checks."""
        for key, value in self.seen.items():
            if value is None and _cache("add", key, 0, GENERATION_TTL, default=False):
                self.seen[key] = 0

    def current(self) -> bool:
        """Nothing revoked since access was last resolved (one cache read)."""
        if not self.keys:
            return True  # nothing that could be revoked
        now = self._read()
        return all(value is not None and now[key] == value for key, value in self.seen.items())

    def regrant(self, scope: MutableMapping[str, Any], resolve: Callable[[], T | None]) -> T | None:
        """After ``current`` said no: the session (and account) checked again
        from the database (``recheck``), then the access itself (``resolve()``,
        which reads the fresh ``scope``). The generations are read before and
        written only if access is granted again. ``None``: access is lost."""
        return self.grant(lambda: resolve() if self.recheck(scope) else None)

    def grant(self, resolve: Callable[[], T | None]) -> T | None:
        """``resolve()`` (an access check) with the generations read before it
        and written only if it grants access: a refused socket writes nothing."""
        self.begin()
        granted = resolve()
        if granted is not None:
            self.settle()
        return granted

    def recheck(self, scope: MutableMapping[str, Any]) -> bool:
        """From the database: is the browser session still there and, for a
        teacher, still signed in to the same account with the same password?
        Puts the fresh session (and user) in ``scope`` for the access check
        that follows; call ``begin`` first and ``settle`` when access holds."""
        if not self.session_key:
            return True
        from importlib import import_module

        store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=self.session_key)
        if not store.exists(self.session_key):
            return False
        scope["session"] = store
        if self.user_id is None:
            return True
        user = session_user(store, self.user_id)
        if user is None:
            return False
        scope["user"] = user
        return True


def session_user(store: Mapping[str, Any], user_id: int) -> Any | None:
    """The account ``store`` is signed in to, if it is still ``user_id``, active,
    and signed in with its current password (Django's session auth hash, as
    ``django.contrib.auth.get_user`` checks it on every request)."""
    if str(store.get(SESSION_KEY)) != str(user_id):
        return None
    user = get_user_model()._default_manager.filter(pk=user_id).first()
    if user is None or not getattr(user, "is_active", True):
        return None
    stored = store.get(HASH_SESSION_KEY)
    if not isinstance(stored, str):
        return None
    hashes = [user.get_session_auth_hash()]
    fallbacks = getattr(user, "get_session_auth_fallback_hash", None)
    if fallbacks is not None:
        hashes.extend(fallbacks())
    if not any(constant_time_compare(stored, good) for good in hashes):
        return None
    return user


# Messages a watched socket handles without checking its access first: its own
# opening and closing, and the close it is told about.
_UNCHECKED = frozenset({"websocket.connect", "websocket.disconnect", "table.close"})


class WatchedSocketMixin:
    """For a signed-in teacher's live page (the monitor, the projector): every
    message it receives and every change it is told of first checks that the
    login it opened under still holds (``Watch``), and a logout, a new
    password or a deleted account closes it at once (``table.close`` with
    ``LOGGED_OUT`` to its session's or account's group). Without this a
    socket kept the user it resolved at connect for as long as it stayed
    open: on a shared classroom PC the next person could steer the lesson.

    Put it before the consumer's base class (and after ``SocketLanguageMixin``
    when the goodbye is a sentence). Call ``watch_open`` around the connect's
    access check (in a thread), then ``watch_join``; ``watch_leave`` on
    disconnect."""

    watch: Watch | None = None
    watch_lost_already: bool = False
    scope: Any
    channel_layer: Any
    channel_name: str

    def watch_open(self, check: Any) -> Any:
        """``check()`` (the connect's access check) with the generations read
        before it and written only if it grants access: a refused socket
        writes nothing. Runs in a database thread."""
        self.watch = Watch(self.scope)
        granted = self.watch.grant(check)
        if granted is None:
            self.watch = None
        return granted

    async def watch_join(self) -> None:
        for group in self.watch.groups if self.watch is not None else ():
            await self.channel_layer.group_add(group, self.channel_name)

    async def watch_leave(self) -> None:
        for group in self.watch.groups if self.watch is not None else ():
            await self.channel_layer.group_discard(group, self.channel_name)

    def _watch_recheck(self) -> bool:
        watch = self.watch
        if watch is None:
            return True
        watch.begin()
        if not watch.recheck(self.scope):
            return False
        watch.settle()
        return True

    async def watch_holds(self) -> bool:
        """One cache read off the event loop; the database only when a
        generation changed (or the cache lost it)."""
        from asgiref.sync import sync_to_async
        from channels.db import database_sync_to_async

        watch = self.watch
        if watch is None or await sync_to_async(watch.current, thread_sensitive=False)():
            return True
        return bool(await database_sync_to_async(self._watch_recheck)())

    def watch_goodbye(self) -> str:
        """What the page shows as it closes (its own HTML; none by default)."""
        return ""

    async def watch_lost(self) -> None:
        if self.watch_lost_already:
            return
        self.watch_lost_already = True
        goodbye = self.watch_goodbye()
        if goodbye:
            await self.send(text_data=goodbye)  # type: ignore[attr-defined]
        await self.close(code=CLOSE_LOGGED_OUT)  # type: ignore[attr-defined]

    async def dispatch(self, message: Any) -> None:
        if self.watch_lost_already and message.get("type") != "websocket.disconnect":
            return  # closed on purpose: nothing more is answered
        if message.get("type") not in _UNCHECKED and not await self.watch_holds():
            await self.watch_lost()
            return
        await super().dispatch(message)  # type: ignore[misc]

    async def table_close(self, event: dict[str, Any]) -> None:
        """The login ended: close. Any other ``table.close`` (a table or a
        tablet of the lesson) leaves the teacher's page open."""
        if event.get("reason") == LOGGED_OUT:
            await self.watch_lost()
