"""Where the live path's database work runs: one thread on SQLite (its writers
take turns anyway), several on PostgreSQL so one table's move never waits
behind another table's."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from cardgames import dbwork

# db_work closes stale connections around each call, as Channels does.
pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh_pool() -> Any:
    dbwork._pool = None
    yield
    if dbwork._pool is not None:
        dbwork._pool.shutdown(wait=True)
    dbwork._pool = None


@pytest.mark.usefixtures("fresh_pool")
async def test_with_several_threads_two_calls_run_side_by_side(settings: Any) -> None:
    settings.CARDGAMES_DB_THREADS = 3
    # Each call waits for the other: only two threads at once get past it.
    meet = threading.Barrier(2, timeout=5)

    def move() -> str:
        meet.wait()
        return threading.current_thread().name

    first, second = await asyncio.gather(dbwork.db_work(move)(), dbwork.db_work(move)())
    assert first != second and first.startswith("db-work")


@pytest.mark.usefixtures("fresh_pool")
async def test_with_one_thread_calls_take_turns_on_one_thread(settings: Any) -> None:
    settings.CARDGAMES_DB_THREADS = 1
    running: list[int] = []
    overlaps: list[int] = []
    lock = threading.Lock()

    def move() -> str:
        with lock:
            running.append(1)
            overlaps.append(len(running))
        threading.Event().wait(0.02)
        with lock:
            running.pop()
        return threading.current_thread().name

    names = await asyncio.gather(*(dbwork.db_work(move)() for _ in range(4)))
    assert max(overlaps) == 1
    assert len(set(names)) == 1
