"""`make soak`: a school morning, compressed, watching for leaks (issue 49).

On a PostgreSQL and a Redis of the run's own (``benchmarks/common.py``),
``manage.py serve --workers 2`` and ``--tablets`` tablets (4 a table: 3 pupils
and a projector; a robot plays the fourth seat) in ``--classes`` classes. Each
class has lessons one after the other, staggered: a lesson's tables are created,
its pupils connect and play at a child's pace (the load test's pupils), pupils
leave and come back (a tablet put down, ``--churn`` seconds between departures
across the school), and at the end of the lesson the teacher ends it
("Terminer la séance": every tablet signed out, every socket told), then the
class's next lesson starts with new tables.

Every ``--every`` seconds it prints each worker's memory (RSS), the open
PostgreSQL connections, Redis' keys and memory, and the server's open
sockets; at the end, the value after the warm-up and at the end of each, and
its growth per hour (least squares over the samples after the warm-up).

Fails (exit status 1) on a refused or dropped socket or an unexpected error in the server
log; never on the figures (a growth is reported, and judged by the reader).

    .venv/bin/python benchmarks/soak.py --minutes 30      # make soak
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import common  # noqa: E402
from benchmarks.tablets import Stats, Tablet, drive_table  # noqa: E402

_setup_lock = threading.Lock()


@dataclass
class SoakTablet(Tablet):
    """A tablet its pupil can put down for a while (then it connects again)."""

    away_until: float = 0.0
    left: int = 0

    async def _connect_once(self) -> bool:
        wait = self.away_until - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        return await super()._connect_once()

    async def leave(self, seconds: float) -> None:
        self.away_until = time.perf_counter() + seconds
        self.left += 1
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


def new_lesson(tables: int, key: str) -> list[dict[str, Any]]:
    """A lesson's tables (the load test's school); its join code freed first,
    as several lessons are open at once here."""
    with _setup_lock:
        from django.db import connection

        from classroom.models import ClassSession

        ClassSession.objects.filter(join_code="246813", ended_at__isnull=True).update(join_code=None)
        from benchmarks.tablets import setup_data

        try:
            return setup_data(tables, group_key=key)
        finally:
            connection.close()


def end_lesson(key: str) -> None:
    """The teacher's "Terminer la séance"."""
    from django.db import connection

    from classroom.models import ClassSession
    from classroom.services.sessions import session_close

    try:
        for lesson in ClassSession.objects.filter(school_class__name=f"{key} CE1", ended_at__isnull=True):
            session_close(class_session=lesson)
    finally:
        connection.close()


@dataclass
class School:
    server: common.Server
    args: argparse.Namespace
    active: list[SoakTablet]
    stats: Stats
    lessons: int = 0
    ended: int = 0
    end_errors: int = 0
    refused: int = 0
    dropped: int = 0


async def one_class(school: School, number: int, until: float) -> None:
    args = school.args
    tables_per_class = max(1, args.tablets // 4 // args.classes)
    lesson_seconds = args.lesson
    pace = tuple(float(x) for x in args.pace.split(","))
    await asyncio.sleep(number * lesson_seconds / args.classes)  # staggered
    lesson = 0
    while time.perf_counter() + 20 < until:
        key = f"soak{number}-{lesson}"
        lesson += 1
        tables = await asyncio.to_thread(new_lesson, tables_per_class, key)
        school.lessons += 1
        groups: dict[int, list[SoakTablet]] = {}
        for table in tables:
            url = f"{school.server.ws_base}/ws/table/{table['id']}/"
            groups[table["id"]] = [SoakTablet(url, c, seat) for seat, c in enumerate(table["pupils"])] + [
                SoakTablet(url, table["projector"], None)
            ]
        tablets = [t for g in groups.values() for t in g]
        runners = [asyncio.create_task(t.run()) for t in tablets]
        school.active.extend(tablets)
        end = min(until, time.perf_counter() + lesson_seconds)
        drivers = [
            drive_table(t, groups[t["id"]], end, pace, school.stats, hash(key) + n, True)  # type: ignore[arg-type]
            for n, t in enumerate(tables)
        ]
        await asyncio.gather(*drivers)
        await asyncio.sleep(max(0.0, end - time.perf_counter()))
        # The lesson ends: the server signs every tablet out and closes its socket.
        for t in tablets:
            t.stopping = True
        for t in tablets:
            school.active.remove(t)
        try:
            await asyncio.to_thread(end_lesson, key)
            school.ended += 1
        except Exception as error:  # said, then the sockets are closed from here
            school.end_errors += 1
            print(f"  lesson {key}: ending it failed: {type(error).__name__}: {error}", flush=True)
        await asyncio.sleep(2.0)
        for t in tablets:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(t.close(), 5)
        for r in runners:
            r.cancel()
        await asyncio.gather(*runners, return_exceptions=True)
        school.refused += sum(1 for t in tablets if t.refused)
        # Closes other than the pupil's own departures: dropped sockets.
        school.dropped += sum(max(0, len(t.closes) - t.left) for t in tablets)
        await asyncio.sleep(random.uniform(3, 8))  # the break between lessons


async def churn(school: School, until: float) -> None:
    rng = random.Random(3)
    while time.perf_counter() < until:
        await asyncio.sleep(rng.expovariate(1 / school.args.churn))
        pupils = [t for t in school.active if t.seat is not None and t.connected.is_set() and not t.stopping]
        if pupils:
            await rng.choice(pupils).leave(rng.uniform(5, 30))


def sample(school: School, pg: Any, redis: Any, start: float) -> dict[str, Any]:
    server = school.server
    rss = [common.rss_mb(pid) for pid in server.worker_pids()]
    try:
        conns = pg.connections()
    except Exception:
        conns = -1
    try:
        keys, memory = redis.keys_and_memory()
    except Exception:
        keys, memory = -1, -1
    return {
        "minute": (time.perf_counter() - start) / 60,
        "rss": rss,
        "pg": conns,
        "keys": keys,
        "redis_mb": memory / 2**20,
        "sockets": common.open_sockets(server.port),
        "tablets": sum(1 for t in school.active if t.connected.is_set()),
        "moves": school.stats.acked,
        "lessons": school.lessons,
    }


def show(s: dict[str, Any]) -> None:
    rss = " + ".join(f"{x:.0f}" for x in s["rss"])
    print(
        f"  {s['minute']:5.1f} min  workers RSS {rss} MB  PostgreSQL connections {s['pg']:3d}"
        f"  Redis keys {s['keys']:5d} / {s['redis_mb']:.1f} MB  open sockets {s['sockets']:4d}"
        f" (tablets connected {s['tablets']})  pupil moves {s['moves']}  lessons {s['lessons']}",
        flush=True,
    )


def growth_per_hour(points: list[tuple[float, float]]) -> float:
    """Least-squares slope, per hour, of (minute, value) points."""
    if len(points) < 2:
        return float("nan")
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    var = sum((p[0] - mx) ** 2 for p in points)
    if not var:
        return float("nan")
    return sum((p[0] - mx) * (p[1] - my) for p in points) / var * 60


async def morning(server: common.Server, pg: Any, redis: Any, args: argparse.Namespace) -> dict[str, Any]:
    start = time.perf_counter()
    until = start + args.minutes * 60
    school = School(server, args, [], Stats())
    watch = common.LogWatch(server.log_path, phase="soak")
    samples: list[dict[str, Any]] = []

    async def sampler() -> None:
        while True:
            s = await asyncio.to_thread(sample, school, pg, redis, start)
            samples.append(s)
            show(s)
            watch.poll()
            await asyncio.sleep(args.every)

    sampling = asyncio.create_task(sampler())
    try:
        await asyncio.gather(churn(school, until), *(one_class(school, n, until) for n in range(args.classes)))
    finally:
        sampling.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampling
    last = await asyncio.to_thread(sample, school, pg, redis, start)
    samples.append(last)
    show(last)
    return {"samples": samples, "school": school, "watch": watch}


def summary(result: dict[str, Any], args: argparse.Namespace) -> bool:
    samples = [s for s in result["samples"] if s["pg"] >= 0]
    school: School = result["school"]
    warm = [s for s in samples if s["minute"] >= args.warmup] or samples[-2:]
    # The last sample is taken after the last lesson ended: no sockets, so it
    # is not the same kind of point as the ones during play.
    during = [s for s in warm if s["tablets"] > 0] or warm
    print(f"== soak: {args.minutes:.0f} minutes, {args.tablets} tablets, {args.classes} classes, 2 workers")
    print(
        f"  lessons {school.lessons} (ended by the teacher {school.ended}, failed {school.end_errors}),"
        f" pupil moves acknowledged {school.stats.acked}, refused sockets {school.refused},"
        f" dropped {school.dropped}"
    )
    first, end = during[0], during[-1]
    print(f"  after the warm-up ({first['minute']:.1f} min) -> last sample in play ({end['minute']:.1f} min), growth per hour:")
    for number in range(len(first["rss"])):
        points = [(s["minute"], s["rss"][number]) for s in during if len(s["rss"]) > number]
        print(
            f"    worker {number + 1} RSS {first['rss'][number]:.0f} -> {end['rss'][number]:.0f} MB,"
            f" {growth_per_hour(points):+.0f} MB/h"
        )
    for label, key, unit in (
        ("PostgreSQL connections", "pg", ""),
        ("Redis keys", "keys", ""),
        ("Redis memory", "redis_mb", " MB"),
        ("open sockets", "sockets", ""),
    ):
        points = [(s["minute"], float(s[key])) for s in during]
        print(f"    {label} {first[key]:.1f} -> {end[key]:.1f}{unit}, {growth_per_hour(points):+.1f}{unit}/h")
    last = result["samples"][-1]
    print(
        f"  after the last lesson: RSS {' + '.join(f'{x:.0f}' for x in last['rss'])} MB, PostgreSQL connections"
        f" {last['pg']}, Redis keys {last['keys']}, open sockets {last['sockets']}"
    )
    log = result["log"]
    for line in log["unexpected"][:10]:
        print(f"  UNEXPECTED: {line}")
    ok = not (school.refused or school.dropped or log["unexpected"])
    print("soak:", "OK" if ok else "FAIL")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--tablets", type=int, default=300)
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--lesson", type=float, default=0.0, help="seconds a lesson lasts (default: minutes/5)")
    parser.add_argument("--churn", type=float, default=2.0, help="mean seconds between pupils leaving")
    parser.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    parser.add_argument("--warmup", type=float, default=0.0, help="minutes before growth is measured (default: 12, or half a shorter run)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pace", default="2,6")
    args = parser.parse_args()
    args.lesson = args.lesson or max(60.0, args.minutes * 60 / 5)
    # The bounded caches fill and the first full garbage collection (rare:
    # config/asgi.py) comes within about 10 minutes; growth measured before
    # that is the warm-up's, not a leak's.
    args.warmup = args.warmup or min(12.0, max(1.0, args.minutes / 2))
    workdir = Path(tempfile.mkdtemp(prefix="soak-"))
    import os

    with common.own_stack(max_connections=100) as (pg, redis):
        env = common.stack_env(pg, redis, "soak")
        common.migrate(env)
        server = common.Server(args.workers, env, workdir / "server.log")
        os.environ.update(env)
        import django

        django.setup()
        with server:
            result = asyncio.run(morning(server, pg, redis, args))
            time.sleep(1.0)
    watch = result["watch"]
    watch.finish()
    result["log"] = watch.classify()
    print(f"  (server log: {server.log_path})")
    sys.exit(0 if summary(result, args) else 1)


if __name__ == "__main__":
    main()
