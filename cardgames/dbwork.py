"""Where the live path's database work runs.

Channels runs every ``database_sync_to_async`` call of a worker on one thread,
one call after another. On SQLite that is right: its writers take turns anyway.
On PostgreSQL it made every move of every table wait in one queue while the
thread sat waiting for the server's answers, and a child's move waited behind
other tables' moves and robots (measured: ``docs/performance.md``).

``db_work`` runs such calls on ``CARDGAMES_DB_THREADS`` threads instead (set
from ``DB_THREADS``; 1 keeps Channels' single thread). Moves of different
tables then overlap; two moves of one table still take turns on the table's row
lock, and one socket's messages are handled one after another by its consumer.
Each thread holds one pooled connection while it works, so the threads, the two
snapshot readers and the HTTP thread must fit in ``DB_POOL_MAX_SIZE``.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from django.conf import settings

P = ParamSpec("P")
R = TypeVar("R")

_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def db_threads() -> int:
    return max(1, int(getattr(settings, "CARDGAMES_DB_THREADS", 1)))


def _executor() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(
                max_workers=db_threads(), thread_name_prefix="db-work"
            )
        return _pool


def db_work(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func`` as a coroutine function run on the database threads (closing
    stale connections around each call, as ``database_sync_to_async`` does)."""
    if db_threads() <= 1:
        return database_sync_to_async(func)  # type: ignore[no-any-return]
    wrapped: Any = database_sync_to_async(func, thread_sensitive=False, executor=_executor())
    return wrapped  # type: ignore[no-any-return]


class NoLoopConnectionClose:
    """For a consumer whose every database call goes through ``db_work`` (or
    another wrapper that closes stale connections around itself): skip the
    ``close_old_connections`` that Channels (4.2 and later) runs before *each*
    message a consumer handles.

    That call runs on Channels' database thread. On the live path it put every
    message of every socket, a move's broadcast included, in the queue of the
    one database thread (SQLite) behind other tables' moves and robots, only to
    close connections the handler does not use on the event loop: each socket's
    update waited a turn of the database thread first."""

    async def dispatch(self, message: Any) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
