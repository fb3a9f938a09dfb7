"""What re-checking a table socket's access costs per message.

Every message on a table socket first checks that its browser session was not
signed out (``cardgames.revocation``). Two ways, timed on the real code:

- the per-socket generation number: one cache read (``session_generation``);
- a full re-check: load the session from the store and resolve the seat again
  (``SessionStore.exists`` + ``resolve_table_access``), what the socket does
  when the generation changed.

Run with the configured cache/database (locmem + SQLite by default; set
``REDIS_URL``/``DATABASE_URL`` for Redis and PostgreSQL):
``.venv/bin/python benchmarks/bench_access_check.py [rounds]``
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
if not os.environ.get("DATABASE_URL"):
    os.environ.setdefault("SQLITE_PATH", str(Path(tempfile.mkdtemp()) / "bench.sqlite3"))

import django

django.setup()

from importlib import import_module  # noqa: E402

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from cardgames import revocation  # noqa: E402
from cardgames.access import resolve_table_access  # noqa: E402
from cardgames.models import Table  # noqa: E402


def main(rounds: int) -> None:
    if not os.environ.get("DATABASE_URL"):
        call_command("migrate", verbosity=0)
    from classroom import services
    from tests.factories import ClassSessionFactory, PupilFactory

    class_session = ClassSessionFactory()
    pupils = [PupilFactory(school_class=class_session.school_class) for _ in range(2)]
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    session = store_class()
    session.update(
        {
            "player_key": pupils[0].player_key,
            "pupil_id": pupils[0].pk,
            "class_session_id": class_session.pk,
        }
    )
    session.save()
    for pupil in pupils:
        services.tablet_login(class_session=class_session, pupil=pupil, session=session)
    services.groups_make(class_session=class_session, size=2)
    table = services.tables_start(class_session=class_session).started[0]
    key = session.session_key
    assert key
    remembered = revocation.session_generation_remember(key)

    start = time.perf_counter()
    for _ in range(rounds):
        assert revocation.session_generation(key) == remembered
    cache_us = (time.perf_counter() - start) / rounds * 1e6

    start = time.perf_counter()
    for _ in range(rounds):
        fresh = store_class(session_key=key)
        assert fresh.exists(key)
        table_row = Table.objects.get(pk=table.pk)
        assert resolve_table_access(user=None, session=fresh, table=table_row) is not None
    db_us = (time.perf_counter() - start) / rounds * 1e6

    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"access check per message ({rounds} rounds, cache {backend}, database {engine}):")
    print(f"  generation number (one cache read): {cache_us:8.1f} µs")
    print(f"  full re-check (session + seat from the database): {db_us:8.1f} µs")
    print(f"  ratio: {db_us / cache_us:.0f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
