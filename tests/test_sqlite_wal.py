"""The embedded SQLite file's log is checkpointed by a thread of the worker, not
by the move that happens to fill it (``config/sqlite_wal.py``)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.utils import ConnectionHandler

from config.sqlite_wal import checkpoints_start, checkpoints_stop


def _handler(path: Path) -> ConnectionHandler:
    database = dict(settings.DATABASES["default"])
    database.update(
        ENGINE="django.db.backends.sqlite3",
        NAME=str(path),
        OPTIONS={"init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
        TEST={},
    )
    return ConnectionHandler({"default": database})


def test_moves_never_checkpoint_and_the_worker_thread_does(
    tmp_path: Path, django_db_blocker: Any
) -> None:
    path = tmp_path / "school.sqlite3"
    handler = _handler(path)
    django_db_blocker.unblock()  # a file of this test's own, not the test database
    try:
        assert checkpoints_start(handler=handler, interval=0.05) is True
        assert checkpoints_start(handler=handler, interval=0.05) is False  # once per file
        connection = handler["default"]
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_autocheckpoint")
            assert cursor.fetchone()[0] == 0  # a commit never stops to checkpoint
            cursor.execute("CREATE TABLE state (id INTEGER PRIMARY KEY, body TEXT)")
            # About the size of a few hundred moves' states.
            for number in range(300):
                cursor.execute("INSERT INTO state (body) VALUES (%s)", ["x" * 4000 + str(number)])
        # The rows reach the database file itself (not only its log) without
        # any commit of ours doing it: the worker's thread copied them.
        deadline = time.monotonic() + 10
        while os.path.getsize(path) < 300 * 4000 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert os.path.getsize(path) >= 300 * 4000
    finally:
        checkpoints_stop(handler=handler)
        handler.close_all()
        django_db_blocker.restore()


def test_no_checkpoint_thread_for_a_database_in_memory() -> None:
    handler = ConnectionHandler(
        {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:", "TEST": {}}}
    )
    assert checkpoints_start(handler=handler) is False
