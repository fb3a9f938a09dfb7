"""Websocket latency of the live table runtime, against a bare echo floor.

40 simultaneous websocket clients on the embedded default (SQLite in WAL mode,
in-memory channel layer, one uvicorn process): 10 Chasse tables, each with 3
pupils and a bot; the 4th socket of every table is a projector (public view).
We time a pupil's action until *every* socket of that table has received its
re-rendered view (when its last frame came off the wire: ``timed_connection``).
The floor is the same fan-out with no game at all: a message sent to an echo
consumer that broadcasts it to the 4 sockets of its group.

    .venv/bin/python benchmarks/bench_ws.py [--seconds 20] [--tables 10]

The run is bounded (``--seconds`` per phase) and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The state line is in every whole screen and in every update that changes the
# table (updates carry only the parts of a screen that changed).
VERSION = re.compile(r'id="table-state"[^>]*data-version="(\d+)"[^>]*data-current-seat="(\d*)"')
OVER = re.compile(r'id="table-state"[^>]*data-over="1"')
LEGAL = re.compile(r'data-card="(\d+)" data-legal="1"')
DISCARD = re.compile(r'class="cg-hand" data-discard="1"')

from benchmarks.tablets import page_origin, process_cpu_seconds, setup_data  # noqa: E402


# --------------------------------------------------------------------------- clients
@functools.cache
def timed_connection() -> type:
    """A websockets client connection that notes when each message came off the
    wire (its last frame), before this client does anything with it.

    One process plays every tablet here, one message after another: when a
    move's four updates arrive together, the fourth socket's was stamped only
    after the client had applied the first three to their screens (about 1 ms
    each, the client's own CPU), as if the server had sent it later. Four real
    tablets each read their own message at once. The figures time the wire
    arrival; the one as handled by this client is printed beside it."""
    from websockets.asyncio.client import ClientConnection
    from websockets.frames import Opcode

    data = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)

    class TimedConnection(ClientConnection):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.arrived: collections.deque[float] = collections.deque()

        def process_event(self, event: Any) -> None:
            if self.response is not None and event.fin and event.opcode in data:
                self.arrived.append(time.perf_counter())
            super().process_event(event)

    return TimedConnection


def arrival(ws: Any) -> float:
    """When the message just read came off the wire (now, for a plain connection)."""
    arrived = getattr(ws, "arrived", None)
    return arrived.popleft() if arrived else time.perf_counter()


class Socket:
    def __init__(self, url: str, cookie: str | None) -> None:
        self.url = url
        self.cookie = cookie
        self.arrivals: dict[int, float] = {}
        # The same, when this one-process client had handled the message.
        self.handled: dict[int, float] = {}
        self.version = -1
        self.current: int | None = None
        self.over = False
        self.last = ""
        self.changed = asyncio.Event()
        self.ws: Any = None

    async def open(self) -> None:
        import websockets

        headers = {"Origin": page_origin(self.url)}
        if self.cookie:
            headers["Cookie"] = f"sessionid={self.cookie}"
        self.ws = await websockets.connect(
            self.url,
            additional_headers=headers,
            max_size=2**22,
            open_timeout=60,
            create_connection=timed_connection(),
        )

    async def read_forever(self) -> None:
        from cardgames.screen_units import apply_update

        async for message in self.ws:
            now = arrival(self.ws)
            self.last = apply_update(self.last, message)  # the screen, as htmx shows it
            match = VERSION.search(message)
            if match:
                version = int(match.group(1))
                self.arrivals.setdefault(version, now)
                self.handled.setdefault(version, time.perf_counter())
                if version >= self.version:
                    self.version = version
                    self.current = int(match.group(2)) if match.group(2) else None
                    self.over = bool(OVER.search(message))
            else:
                self.arrivals.setdefault(-len(self.arrivals) - 1, now)
            self.changed.set()


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    q = statistics.quantiles(ordered, n=100, method="inclusive")
    return q[49], q[94], q[98]




async def play_tables(
    base: str,
    tables: list[dict[str, Any]],
    seconds: float,
    pace: tuple[float, float],
    costs: dict[str, float] | None = None,
    server_pid: int | None = None,
    handled: list[float] | None = None,
) -> list[float]:
    """Play the tables; ``costs`` gets the server's CPU seconds and the table
    changes (pupils' and robots' moves) of the timed part; ``handled`` the
    round trips as this client handled the messages (``timed_connection``).
    Long on purpose: the players' loop and what it times stay side by side."""
    samples: list[float] = []
    deadline = time.perf_counter() + seconds
    sockets: list[list[Socket]] = []
    for table in tables:
        url = f"{base}/ws/table/{table['id']}/"
        group = [Socket(url, cookie) for cookie in table["pupils"]] + [
            Socket(url, table["projector"])
        ]
        sockets.append(group)
    await asyncio.gather(*(s.open() for group in sockets for s in group))
    readers = [asyncio.create_task(s.read_forever()) for group in sockets for s in group]
    # Warm-up: every socket has its first full view before the clock starts, so
    # the figures time moves, not 40 tablets connecting at the same instant.
    warm_until = time.perf_counter() + 60
    while time.perf_counter() < warm_until and not all(
        s.version >= 0 for group in sockets for s in group
    ):
        await asyncio.sleep(0.05)
    deadline = time.perf_counter() + seconds
    cpu_start = process_cpu_seconds(server_pid) if server_pid else 0.0
    versions_start = sum(group[3].version for group in sockets)

    async def drive(number: int, group: list[Socket]) -> None:
        # One seed per table: with one seed for all (it was ``len(samples)``,
        # 0 for every table at the start) all ten tables "thought" for the same
        # time and moved in the same millisecond all run long, ten moves queued
        # at once; children at different tables do not. The echo floor's groups
        # are seeded the same way (by their number).
        rng = random.Random(number)
        while time.perf_counter() < deadline:
            pupil = next(
                (s for i, s in enumerate(group[:3]) if s.current == i and s.version >= 0), None
            )
            if pupil is None or pupil.over or group[3].over:
                if group[3].over:
                    return
                for s in group:
                    s.changed.clear()
                await asyncio.wait(
                    [asyncio.create_task(s.changed.wait()) for s in group],
                    timeout=1,
                    return_when="FIRST_COMPLETED",
                )
                continue
            version = pupil.version
            cards = LEGAL.findall(pupil.last)
            if not cards:
                await asyncio.sleep(0.01)
                continue
            await asyncio.sleep(rng.uniform(*pace))  # a child thinking, then tapping
            move = "discard" if DISCARD.search(pupil.last) else "play"
            payload = {
                "kind": "act",
                "move": move,
                "card": rng.choice(cards),
                "version": str(version),
                "nonce": f"b-{id(pupil)}-{version}",
            }
            start = time.perf_counter()
            await pupil.ws.send(json.dumps(payload))
            while not all(max(s.arrivals, default=-1) > version for s in group):
                if time.perf_counter() > deadline + 10:
                    return
                for s in group:
                    s.changed.clear()
                await asyncio.wait(
                    [asyncio.create_task(s.changed.wait()) for s in group],
                    timeout=1,
                    return_when="FIRST_COMPLETED",
                )
            # A socket may skip straight to a later screen: take its first one after.
            samples.append(
                max(min(t for v, t in s.arrivals.items() if v > version) for s in group) - start
            )
            if handled is not None:
                handled.append(
                    max(min(t for v, t in s.handled.items() if v > version) for s in group) - start
                )

    await asyncio.gather(*(drive(number, group) for number, group in enumerate(sockets)))
    if costs is not None and server_pid:
        costs["cpu"] = process_cpu_seconds(server_pid) - cpu_start
        costs["changes"] = sum(group[3].version for group in sockets) - versions_start
    for task in readers:
        task.cancel()
    for group in sockets:
        for s in group:
            await s.ws.close()
    return samples


async def echo_floor(
    base: str, groups: int, seconds: float, pace: tuple[float, float]
) -> list[float]:
    samples: list[float] = []
    deadline = time.perf_counter() + seconds
    import websockets

    async def one_group(number: int) -> None:
        url = f"{base}/ws/bench/echo/{number}/"
        conns = [
            await websockets.connect(
                url,
                additional_headers={"Origin": page_origin(url)},
                create_connection=timed_connection(),
            )
            for _ in range(4)
        ]
        rng = random.Random(number)
        seq = 0
        while time.perf_counter() < deadline:
            await asyncio.sleep(rng.uniform(*pace))
            seq += 1
            text = json.dumps({"kind": "echo", "seq": seq, "pad": "x" * 64})
            start = time.perf_counter()
            await conns[0].send(text)
            arrived = []
            for conn in conns:
                while json.loads(await conn.recv())["seq"] != seq:
                    arrival(conn)
                arrived.append(arrival(conn))
            samples.append(max(arrived) - start)
        for conn in conns:
            await conn.close()

    await asyncio.gather(*(one_group(n) for n in range(groups)))
    return samples


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    """Set up, serve, play, report. Long on purpose: a benchmark is read top
    to bottom as the run it makes, its server started and stopped in one place."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument(
        "--pace",
        default="0.5,1.5",
        help="seconds a pupil waits before acting, min,max (a real child takes longer;"
        " 0.05,0.2 is a stress test)",
    )
    args = parser.parse_args()
    from benchmarks.tablets import machine_speed

    # Shared virtual cores vary by half from hour to hour: say how fast this
    # machine was, so two runs (and their verdicts) can be compared.
    speed_before = machine_speed()

    workdir = Path(tempfile.mkdtemp(prefix="bench-ws-"))
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings",
        SQLITE_PATH=str(workdir / "bench.sqlite3"),
        CARDGAMES_TABLE_ACCESS="cardgames.access.default_table_access",
        BOT_DELAY_MIN="0.3",
        BOT_DELAY_MAX="0.6",
        DATABASE_URL="",
        REDIS_URL="",
        LOG_LEVEL="ERROR",
        # As a school runs it: with DEBUG on, every statement is also logged
        # in memory (Django's debug cursor), a cost no school pays.
        DJANGO_DEBUG="0",
        AXES_ENABLED="0",
    )
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    tables = setup_data(args.tables)
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "benchmarks.tablets:make_application",
            "--factory",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            # No --ws: uvicorn's own choice (websockets' sans-I/O protocol), as
            # `manage.py serve` uses. The old "websockets" one is deprecated.
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        base = f"ws://127.0.0.1:{port}"
        clients = args.tables * 4
        pace = tuple(float(x) for x in args.pace.split(","))
        assert len(pace) == 2, "--pace takes min,max"
        floor = asyncio.run(echo_floor(base, args.tables, args.seconds, pace))  # type: ignore[arg-type]
        costs: dict[str, float] = {}
        handled: list[float] = []
        table = asyncio.run(
            play_tables(base, tables, args.seconds, pace, costs, server.pid, handled)  # type: ignore[arg-type]
        )
    finally:
        server.terminate()
        server.wait(10)
    speed_after = machine_speed()
    f50, f95, f99 = (x * 1000 for x in percentiles(floor))
    t50, t95, t99 = (x * 1000 for x in percentiles(table))
    print(
        f"websocket benchmark: {clients} clients ({args.tables} tables of 3 pupils + 1 bot, 1 projector each)"
    )
    print(
        f"  machine: 10 M additions took {speed_before:.2f} s before the run,"
        f" {speed_after:.2f} s after"
    )
    print(
        f"  echo floor  n={len(floor):5d}  p50 {f50:7.2f} ms  p95 {f95:7.2f} ms  p99 {f99:7.2f} ms"
    )
    print(
        f"  table move  n={len(table):5d}  p50 {t50:7.2f} ms  p95 {t95:7.2f} ms  p99 {t99:7.2f} ms"
    )
    h50, h95, h99 = (x * 1000 for x in percentiles(handled))
    print(
        f"  (as handled by this one-process client: p50 {h50:7.2f} ms  p95 {h95:7.2f} ms"
        f"  p99 {h99:7.2f} ms)"
    )
    if costs.get("changes"):
        print(
            f"  server CPU  {costs['cpu'] * 1000 / costs['changes']:.2f} ms per table change"
            f" ({int(costs['changes'])} changes: the pupils' moves and the robots')"
        )
    aim = 2 * f99 + 10
    verdict = "OK" if t99 < aim else "ABOVE AIM"
    print(f"  aim: table p99 < 2 x floor p99 + 10 ms = {aim:.2f} ms -> {verdict}")


if __name__ == "__main__":
    main()
