"""SQLite's write-ahead log is checkpointed by a thread of its own, not by
whichever move happens to commit when the log is full.

In WAL mode a commit only appends to ``db.sqlite3-wal``; by default, the
commit that takes the log past 1000 pages also copies it back into the
database and syncs both files to disk (the *checkpoint*) before it returns.
On the embedded default that commit is a child's move (or a robot's, or a
learning record queued before the next move): about one commit in a hundred
here, each of them a few milliseconds longer while every other table's move
waits behind it on the database thread. Those were the slowest moves of
``benchmarks/bench_ws.py``.

So a worker turns the automatic checkpoint off on its own connections and a
daemon thread checkpoints every ``interval`` seconds instead, in ``PASSIVE``
mode: it never waits for a writer or a reader, and copies what it can. The
Python ``sqlite3`` module lets go of the GIL while SQLite works, so the
checkpoint's disk work costs the moves nothing. Other processes (``manage.py``
commands, the tests) keep SQLite's default; and SQLite itself checkpoints
when the last connection to the file closes.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.db import connections
from django.db.backends.signals import connection_created
from django.db.utils import ConnectionHandler

logger = logging.getLogger(__name__)

# The database files this process checkpoints, each with its thread and stop.
_started: dict[str, tuple[threading.Thread, threading.Event]] = {}
_started_lock = threading.Lock()


def _automatic_checkpoint_off(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor == "sqlite" and str(connection.settings_dict["NAME"]) in _started:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_autocheckpoint=0")


def _checkpoint_forever(
    handler: ConnectionHandler, alias: str, interval: float, stop: threading.Event
) -> None:
    while not stop.wait(interval):
        try:
            with handler[alias].cursor() as cursor:
                cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:
            # A busy or missing file this once: the log only grows until the next.
            logger.exception("SQLite checkpoint failed")
    handler[alias].close()


def checkpoints_start(
    *, alias: str = "default", interval: float = 2.0, handler: ConnectionHandler = connections
) -> bool:
    """In a server worker on a SQLite file: checkpoint on a thread of its own
    from now on (once per process and file). False when the database is not
    such a file, or is checkpointed so already. Cheap to ask again: the ASGI
    application asks on its first connection (``config/asgi.py``), when the
    database it serves is settled (a test's is then in memory)."""
    connection = handler[alias]
    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        return False
    name = str(connection.settings_dict["NAME"])
    with _started_lock:
        if name in _started:
            return False
        stop = threading.Event()
        thread = threading.Thread(
            target=_checkpoint_forever,
            args=(handler, alias, interval, stop),
            name="sqlite-checkpoint",
            daemon=True,
        )
        _started[name] = (thread, stop)
    # The connections opened from now on (a connection this thread opened
    # before, to run checks, may still checkpoint once in a while: harmless).
    connection_created.connect(_automatic_checkpoint_off, dispatch_uid="sqlite-wal-checkpoints")
    thread.start()
    return True


def checkpoints_stop(*, alias: str = "default", handler: ConnectionHandler = connections) -> None:
    """Stop the thread of ``checkpoints_start``; SQLite's own automatic
    checkpoint is back on the connections opened from now on. The app never
    stops it (the thread lives as long as the worker); a test that starts one
    on a file of its own must, or the thread outlives the test, checkpointing a
    file already deleted, and the file's name stays marked as started."""
    name = str(handler[alias].settings_dict["NAME"])
    with _started_lock:
        started = _started.pop(name, None)
    if started is not None:
        thread, stop = started
        stop.set()
        thread.join()
