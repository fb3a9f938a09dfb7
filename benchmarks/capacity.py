"""`make capacity`: how many tables N workers carry (issue 49).

For each worker count (``--workers 1,2,4``), the load test's school
(``benchmarks/loadtest.py``: tables of 3 pupils, a robot and a projector, 4
sockets each, a child's pace) is run with ``--steps`` tables, growing, until a
target breaks: a refused or dropped socket, a server error, a failed database
check, or a move round trip p99 above ``--p99`` ms (150). Prints each step and
the largest passing number of tables (and sockets) per worker count, with the
server's CPU per move and the cores the server and the load client used (the
client runs on the same machine: its share is said).

On a PostgreSQL and a Redis of the run's own (``benchmarks/common.py``). Each
step is a process of its own (``--child``), a fresh database, a fresh server.
``--profile`` samples every worker with py-spy during each step (into /tmp)
and prints where their time went.

    .venv/bin/python benchmarks/capacity.py --workers 2 --steps 60,120,180,240,300
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import common, tablets  # noqa: E402

PY_SPY = os.environ.get("PY_SPY") or shutil.which("py-spy") or "/tmp/pyspy/bin/py-spy"


# =========================================================================== one step
def child(args: argparse.Namespace) -> dict[str, Any]:
    """One step: the load test's ``pg2`` configuration (no kill) on our services."""
    tablets.PG_BASE = args.pg
    tablets.REDIS_BASE = args.redis
    tablets.free_port = common.pick_port  # the server's port: our range
    os.environ["LOADTEST_REDIS_DB"] = "0"
    if args.profile:
        run_clients = tablets.run_clients

        async def profiled(base: str, tables: Any, largs: Any, config: str, master: int, workers: int) -> Any:
            spies = [
                subprocess.Popen(
                    [PY_SPY, "record", "--pid", str(pid), "--rate", "100", "--nonblocking",
                     "--format", "raw", "--output", f"{args.profile}-w{number}.txt"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )
                # One worker runs in uvicorn's own process (no children).
                for number, pid in enumerate(tablets.worker_pids(master) or [master])
            ]
            try:
                return await run_clients(base, tables, largs, config, master, workers)
            finally:
                for spy in spies:
                    spy.send_signal(signal.SIGINT)
                for spy in spies:
                    try:
                        spy.wait(30)
                    except subprocess.TimeoutExpired:
                        spy.kill()
                        spy.wait(5)

        tablets.run_clients = profiled  # type: ignore[assignment]
    largs = argparse.Namespace(
        tables=args.tables, seconds=args.seconds, floor_seconds=2.0, pace="2,6", idle=3.0,
        workers=args.workers, kill=False, choose=True,
    )
    return tablets.child("pg2", largs)


# =========================================================================== the search
def step(args: argparse.Namespace, pg: Any, redis: Any, workers: int, tables: int) -> dict[str, Any] | None:
    argv = [
        sys.executable, __file__, "--child", "--workers", str(workers), "--tables", str(tables),
        "--seconds", str(args.seconds), "--pg", pg.url, "--redis", f"redis://127.0.0.1:{redis.port}",
    ]
    if args.profile:
        argv += ["--profile-to", f"/tmp/capacity-profile-{workers}w-{tables}t"]
    proc = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        print(proc.stdout[-3000:])
        return None
    return dict(json.loads(line[len("RESULT "):]))


def verdict(r: dict[str, Any] | None, p99_limit: float) -> str:
    if r is None:
        return "the run itself failed"
    why = []
    if r["refused"]:
        why.append(f"{r['refused']} refused")
    if r["dropped"]:
        why.append(f"{r['dropped']} dropped")
    if r["server_errors"]:
        why.append(f"{r['server_errors']} server errors")
    if r["problems"]:
        why.append(f"{len(r['problems'])} failed checks")
    if not r["move"][2] <= p99_limit:
        why.append(f"move p99 {r['move'][2]:.0f} ms > {p99_limit:.0f}")
    return ", ".join(why)


def summarize_profile(prefix: str, top: int = 14) -> list[str]:
    """Where the workers' samples went: the innermost project frame of each
    stack (or the library's, when none), and a few families."""
    own: collections.Counter[str] = collections.Counter()
    families: collections.Counter[str] = collections.Counter()
    total = 0
    for path in sorted(Path("/tmp").glob(Path(prefix).name + "-w*.txt")):
        for line in path.read_text(errors="replace").splitlines():
            stack, _, count_text = line.rpartition(" ")
            if not count_text.isdigit():
                continue
            count = int(count_text)
            total += count
            frames = stack.split(";")
            mine = [f for f in frames if OWN_FRAME.search(f)]
            leaf = frames[-1] if frames else "?"
            own[_frame(mine[-1] if mine else leaf)] += count
            for family, pattern in FAMILIES:
                if any(re.search(pattern, f) for f in frames):
                    families[family] += count
    if not total:
        return ["(no profile samples: is py-spy installed? pip install --target /tmp/pyspy py-spy)"]
    lines = [f"{total} samples over the workers; innermost project frame (self + callees below it):"]
    lines += [f"  {n * 100 / total:5.1f} %  {name}" for name, n in own.most_common(top)]
    lines.append("families (a sample counts in each family on its stack):")
    lines += [f"  {n * 100 / total:5.1f} %  {name}" for name, n in families.most_common()]
    return lines


# py-spy names a frame "function (package/module.py:line)".
OWN_FRAME = re.compile(r"\((?:cardgames|classroom|config|benchmarks)/")
FAMILIES = [
    ("idle (event loop waiting: epoll/select)", r"\b(select|poll)\b \(selectors|epoll"),
    ("rendering screens (templates, screen units)", r"render|template|screen_units"),
    ("websocket frames + permessage-deflate", r"websockets/|deflate|zlib|compress"),
    ("PostgreSQL (psycopg)", r"psycopg"),
    ("Redis / channel layer", r"channels_redis|redis/|channel_layer"),
    ("game engine", r"cardgames/engines"),
    ("Django ORM", r"django/db/models"),
    ("JSON / msgpack", r"json|msgpack"),
]


def _frame(frame: str) -> str:
    return frame.replace("/work/main/", "").strip()[:140]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2,4", help="worker counts, or one (in --child)")
    parser.add_argument("--steps", default="30,60,120,180,240,300", help="tables per step (4 sockets each)")
    parser.add_argument("--seconds", type=float, default=30.0, help="of play per step")
    parser.add_argument("--p99", type=float, default=150.0, help="move round trip p99 target, ms")
    parser.add_argument(
        "--past-latency", action="store_true",
        help="go on stepping past a p99 failure until sockets or the server fail",
    )
    parser.add_argument("--profile", action="store_true", help="py-spy every worker during each step")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tables", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--pg", help=argparse.SUPPRESS)
    parser.add_argument("--redis", help=argparse.SUPPRESS)
    parser.add_argument("--profile-to", dest="profile_to", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        args.workers = int(args.workers)
        args.profile = args.profile_to
        print("RESULT " + json.dumps(child(args)), flush=True)
        return
    if args.profile and not Path(PY_SPY).exists():
        print(f"py-spy not found ({PY_SPY}): pip install --target /tmp/pyspy py-spy, or set PY_SPY")
        args.profile = False
    best: dict[int, tuple[int, dict[str, Any] | None]] = {}
    sound: dict[int, int] = {}  # the largest step with no socket or server failure, latency aside
    broken: dict[int, bool] = {}
    with common.own_stack(max_connections=300) as (pg, redis):
        for workers in (int(w) for w in args.workers.split(",")):
            best[workers] = (0, None)
            sound[workers] = 0
            broken[workers] = False
            print(f"== {workers} worker(s), PostgreSQL + Redis of our own, {args.seconds:.0f} s of play per step")
            last = 0
            for tables in (int(t) for t in args.steps.split(",")):
                with contextlib.suppress(Exception):
                    redis_client_flush(redis.port)
                r = step(args, pg, redis, workers, tables)
                why = verdict(r, args.p99)
                if r is not None:
                    m50, _m95, m99 = r["move"]
                    s50, s95, _s99 = r["floor"]
                    print(
                        f"  {tables:4d} tables {tables * 4:5d} sockets: move p50 {m50:6.1f} ms p99 {m99:7.1f} ms,"
                        f" {r['moves_per_s']:5.1f} moves/s, server CPU {r['cpu_ms_per_move']:5.1f} ms/move,"
                        f" cores: server {r['server_cores']:.2f} + client {r['client_cores']:.2f},"
                        f" connected in {r['connected_in']:.1f} s, echo floor p50 {s50:.0f} p95 {s95:.0f} ms,"
                        f" load {r['load'][0]:.1f}"
                        f" -> {'PASS' if not why else 'FAIL: ' + why}",
                        flush=True,
                    )
                    for e in r.get("server_error_lines", [])[:3]:
                        print(f"     server log: {e[:200]}")
                else:
                    print(f"  {tables:4d} tables: {why}", flush=True)
                last = tables
                hard = bool(why) and not why.startswith("move p99")
                if not why and not broken[workers]:
                    best[workers] = (tables, r)
                if not hard and r is not None:
                    sound[workers] = tables
                if hard or (why and not args.past_latency):
                    break
                broken[workers] = broken[workers] or bool(why)
            if args.profile and last:
                print(f"  where the workers' time went at {last} tables (py-spy, /tmp/capacity-profile-{workers}w-{last}t-w*.txt):")
                for line in summarize_profile(f"/tmp/capacity-profile-{workers}w-{last}t"):
                    print(f"     {line}")
    print("== largest passing number of tables (4 sockets each) per worker count:")
    for workers, (tables, r) in best.items():
        cpu = f", server CPU {r['cpu_ms_per_move']:.1f} ms per move" if r else ""
        print(f"  {workers} worker(s): {tables} tables, {tables * 4} sockets{cpu}")
        if args.past_latency:
            print(
                f"    latency aside (no refused or dropped socket, no server error, checks passed):"
                f" {sound[workers]} tables, {sound[workers] * 4} sockets"
            )


def redis_client_flush(port: int) -> None:
    import redis

    client = redis.Redis(host="127.0.0.1", port=port)
    try:
        client.flushall()
    finally:
        client.close()


if __name__ == "__main__":
    main()
