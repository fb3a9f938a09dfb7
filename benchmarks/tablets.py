"""A school of tablets against the real server stack: what the load test, the
fault run, the soak and the capacity search share, so that none of them
imports another (``tests/test_layers.py`` keeps that rule).

- the server side: the project's ASGI application plus a bare echo route
  (``make_application``, served by ``benchmarks/echo_asgi.py``), the tables,
  seats and browser sessions written straight to a scratch database
  (``setup_data``);
- the tablets: a websocket client that shows its screen as htmx would
  (``Tablet``), a table played at a child's pace (``drive_table``), the echo
  floor, the database checked afterwards (``check_database``);
- one configuration's run in a process of its own (``child``, ``run_clients``)
  and readings of the server (its workers, their CPU, the machine's speed).

The benchmarks run it as ``benchmarks/loadtest.py`` used to: the capacity
search sets ``PG_BASE``, ``REDIS_BASE``, ``free_port`` and ``run_clients``
here before calling ``child``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


# --------------------------------------------------------------------------- server side
def page_origin(url: str) -> str:
    """The ``Origin`` a tablet's browser sends: the page's own scheme, host and
    port (the server checks all three, ``config/origin.py``)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return f"{'https' if parts.scheme == 'wss' else 'http'}://{parts.netloc}"


def make_application() -> Any:
    """The project's own ASGI application (``config.asgi``: its middleware, origin
    check and process settings) plus a bare echo route for the floor."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from channels.auth import AuthMiddlewareStack
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import URLRouter
    from django.urls import path

    from config import asgi
    from config.origin import SameOriginValidator

    class EchoConsumer(AsyncWebsocketConsumer):
        """The floor: no database, no template, just the channel-layer fan-out."""

        async def connect(self) -> None:
            self.group = f"echo-{self.scope['url_route']['kwargs']['group']}"
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()

        async def receive(
            self, text_data: str | None = None, bytes_data: bytes | None = None
        ) -> None:
            await self.channel_layer.group_send(self.group, {"type": "echo.msg", "text": text_data})

        async def echo_msg(self, event: dict[str, Any]) -> None:
            await self.send(text_data=event["text"])

    # The echo goes through the same middleware as a table's socket.
    echo = SameOriginValidator(
        AuthMiddlewareStack(URLRouter([path("ws/bench/echo/<int:group>/", EchoConsumer.as_asgi())]))
    )

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "websocket" and scope["path"].startswith("/ws/bench/echo/"):
            await echo(scope, receive, send)
        else:
            await asgi.application(scope, receive, send)

    return application


def setup_data(tables: int, group_key: str = "bench") -> list[dict[str, Any]]:
    """Tables, seats and browser sessions, written straight to the scratch DB
    (also the load test's school: ``benchmarks/loadtest.py``).

    The tables are a lesson's, as in a school: each table's pupils belong to
    a class and its tables to that class's session, so every move a pupil
    makes also writes their learning record, as it does for a teacher. (With
    tables of no session, that part of a move was never measured: it cost
    more than the move itself.)"""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import Client

    from cardgames import runtime, services

    runtime.schedule = lambda table_id, at: None  # the server schedules bots, not us
    from classroom.models import ClassSession, Pupil, SchoolClass

    staff = get_user_model().objects.create(username=f"{group_key}-prof", is_staff=True)
    school_class = SchoolClass.objects.create(teacher=staff, name=f"{group_key} CE1", level="CE1")
    lesson = ClassSession.objects.create(
        school_class=school_class, game="chasse", options={}, join_code="246813"
    )
    client = Client()
    client.force_login(staff)
    projector_cookie = client.cookies["sessionid"].value
    out = []
    for number in range(tables):
        pupils = [
            services.SeatSpec(player_key=pupil.player_key, display_name=pupil.display_name)
            for pupil in (
                Pupil.objects.create(
                    school_class=school_class,
                    display_name=f"Élève {number}-{i}",
                    avatar="chat",
                    picture_code=[i, number % 9],
                )
                for i in range(3)
            )
        ]
        table = services.table_create(
            game="chasse",
            seats=[*pupils, services.bot_seat(level="medium", number=1)],
            options={"announce": "shown", "tokens": 5, "target": 200},
            seed=number + 1,
            group_key=lesson.group_key,
            number=number + 1,
        )
        services.table_start(table=table)
        cookies = []
        for spec in pupils:
            store = SessionStore()
            store["player_key"] = spec.player_key
            store.save()
            cookies.append(store.session_key)
        out.append({"id": table.pk, "pupils": cookies, "projector": projector_cookie})
    return out


def process_cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from ``/proc``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# Every whole screen and every update that changes the table carries the state
# line; updates carry only the parts of the screen that changed.
# (#table-main carries the same attributes in whole screens: older servers.)
STATE = re.compile(
    r'id="table-(?:state|main)"[^>]*data-version="(\d+)"[^>]*data-current-seat="(\d*)"'
)
OVER = re.compile(r'id="table-(?:state|main)"[^>]*data-over="1"')
LEGAL = re.compile(r'data-card="(\d+)" data-legal="1"')
HAND_CARD = re.compile(r'data-card="(\d+)"')
DISCARD = re.compile(r'class="cg-hand" data-discard="1"')
# Server log lines that mean something went wrong (uvicorn and Django both
# print tracebacks; a 500 appears as an ASGI error line).
LOG_ERROR = re.compile(r"Traceback|ERROR|Exception|\b500\b|CRITICAL")

PG_BASE = os.environ.get("LOADTEST_PG", "postgres://postgres@127.0.0.1:5432")
REDIS_BASE = os.environ.get("LOADTEST_REDIS", "redis://127.0.0.1:6379")


# =========================================================================== clients
@dataclass
class Tablet:
    """One websocket, reconnecting like htmx's ws extension (full-jitter backoff)."""

    url: str
    cookie: str | None
    seat: int | None
    ws: Any = None
    version: int = -1
    current: int | None = None
    over: bool = False
    last_main: str = ""
    arrivals: dict[int, float] = field(default_factory=dict)
    bytes_in: int = 0
    # What came over the network for those messages: the frames as sent,
    # compressed by permessage-deflate (negotiated, as every browser does).
    wire_in: int = 0
    bytes_from: float = 0.0
    versions_seen: int = 0
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    closes: list[float] = field(default_factory=list)
    reconnects: int = 0
    refused: int = 0
    stopping: bool = False
    first_open: float = 0.0

    async def _connect_once(self) -> bool:
        import websockets
        from websockets.exceptions import InvalidStatus

        headers = {"Origin": page_origin(self.url)}
        if self.cookie:
            headers["Cookie"] = f"sessionid={self.cookie}"
        try:
            self.ws = await websockets.connect(
                self.url, additional_headers=headers, max_size=2**22, open_timeout=60
            )
            self._count_wire(self.ws)
            return True
        except InvalidStatus:
            self.refused += 1  # the server answered, and said no (HTTP 403/500)
            return False
        except (OSError, EOFError, TimeoutError, websockets.exceptions.WebSocketException):
            return False  # no server behind the port at that instant: retry

    def _count_wire(self, ws: Any) -> None:
        """Count the bytes the transport hands the connection (asyncio looks the
        protocol's ``data_received`` up on every read)."""
        received = ws.data_received

        def counted(data: bytes) -> None:
            if self.bytes_from and time.perf_counter() >= self.bytes_from:
                self.wire_in += len(data)
            received(data)

        ws.data_received = counted

    async def run(self) -> None:
        from websockets.exceptions import ConnectionClosed

        attempt = 0
        while not self.stopping:
            if not await self._connect_once():
                attempt += 1
                if self.refused:
                    return
                await asyncio.sleep(random.random() * min(2 ** min(attempt, 6), 30) * 0.5)
                continue
            if self.stopping:  # the run ended while this connect was on its way
                await self.ws.close()
                return
            if self.first_open:
                self.reconnects += 1
            else:
                self.first_open = time.perf_counter()
            attempt = 0
            self.connected.set()
            try:
                async for message in self.ws:
                    self._received(message)
            except ConnectionClosed:
                pass
            self.connected.clear()
            if self.stopping:
                return
            self.closes.append(time.perf_counter())
            self.changed.set()

    def _received(self, message: str | bytes) -> None:
        now = time.perf_counter()
        text = message if isinstance(message, str) else message.decode()
        if self.bytes_from and now >= self.bytes_from:
            self.bytes_in += len(text.encode())
        # The screen as htmx shows it: whole screens replace it, updates patch it.
        self.last_main = _apply_update(self.last_main, text)
        match = STATE.search(text)
        if match:
            version = int(match.group(1))
            if version >= self.version:
                self.current = int(match.group(2)) if match.group(2) else None
                self.over = bool(OVER.search(text))
            if version not in self.arrivals:
                self.arrivals[version] = now
                if self.bytes_from and now >= self.bytes_from:
                    self.versions_seen += 1
            self.version = max(self.version, version)
        self.changed.set()

    async def close(self) -> None:
        self.stopping = True
        if self.ws is not None:
            await self.ws.close()


def _apply_update(screen: str, message: str) -> str:
    try:
        from cardgames.screen_units import apply_update
    except ImportError:  # an older server: every message is a whole screen
        return message
    return apply_update(screen, message)


async def wait_any(tablets: list[Tablet], timeout: float) -> None:
    for t in tablets:
        t.changed.clear()
    waiters = [asyncio.create_task(t.changed.wait()) for t in tablets]
    try:
        await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waiters:
            w.cancel()


# Taps sent from 1 s before the kill to this many seconds after it count as
# the recovery. The kill comes two thirds into the play: before it, two
# workers share the school (the configuration's own figures); after the
# recovery, every socket is on the surviving worker (a one-worker figure).
RECOVERY_SECONDS = 10.0
KILL_AT_FRACTION = 2 / 3


@dataclass
class Stats:
    samples: list[float] = field(default_factory=list)
    mover: list[float] = field(default_factory=list)
    # When each sample's tap was sent (perf_counter), to tell the kill's
    # recovery apart from steady play.
    started: list[float] = field(default_factory=list)
    across_reconnect: int = 0
    acked: int = 0
    lost_sends: int = 0
    sent_nonces: list[str] = field(default_factory=list)
    acked_nonces: set[str] = field(default_factory=set)


async def drive_table(
    table: dict[str, Any], group: list[Tablet], deadline: float, pace: tuple[float, float],
    stats: Stats, seed: int, choose: bool = True,
) -> None:
    rng = random.Random(seed)
    pupils = group[:3]
    while time.perf_counter() < deadline:
        pupil = next(
            (t for t in pupils if t.current == t.seat and t.version >= 0 and t.connected.is_set()),
            None,
        )
        if pupil is None or any(t.over for t in group):
            if any(t.over for t in group):
                return
            await wait_any(group, 1)
            continue
        version = pupil.version
        cards = LEGAL.findall(pupil.last_main)
        if not cards:
            await wait_any(group, 0.2)
            continue
        await asyncio.sleep(rng.uniform(*pace))  # a child thinking, then tapping
        if pupil.version != version or not pupil.connected.is_set():
            continue
        card = rng.choice(cards)
        if choose:
            # The first tap: the card is chosen, the panel opens (the mover's
            # screen only; no version). Then the child reads it and plays.
            pupil.changed.clear()
            try:
                await pupil.ws.send(json.dumps({"kind": "choose", "card": card, "version": str(version)}))
                await asyncio.wait_for(pupil.changed.wait(), 5)
            except Exception:
                stats.lost_sends += 1
            await asyncio.sleep(rng.uniform(0.3, 1.0))
            if pupil.version != version or not pupil.connected.is_set():
                continue
        reconnects_before = sum(t.reconnects for t in group)
        nonce = f"lt-{table['id']}-{pupil.seat}-{version}-{rng.randrange(10**6)}"
        payload = {
            "kind": "act",
            "move": "discard" if DISCARD.search(pupil.last_main) else "play",
            "card": card,
            "version": str(version),
            "nonce": nonce,
        }
        start = time.perf_counter()
        try:
            await pupil.ws.send(json.dumps(payload))
        except Exception:
            stats.lost_sends += 1
            continue
        stats.sent_nonces.append(nonce)
        give_up = time.perf_counter() + 30
        while not all(t.version > version for t in group) and time.perf_counter() < give_up:
            await wait_any(group, 1)
            if pupil.version == version and pupil.closes and pupil.closes[-1] > start:
                # The socket died after the send: once back, is it still our turn
                # at the same version? Then the move was lost in the dead worker.
                await pupil.connected.wait()
                await asyncio.sleep(0.5)
                if pupil.version == version:
                    break
        if pupil.version > version:
            # Turn-based Chasse without a turn timer: only this seat's move can
            # have turned version ``version`` into the next one.
            stats.acked += 1
            stats.acked_nonces.add(nonce)
        if not all(t.version > version for t in group):
            continue
        if sum(t.reconnects for t in group) != reconnects_before:
            stats.across_reconnect += 1
            continue
        stats.samples.append(
            max(min(at for v, at in t.arrivals.items() if v > version) for t in group) - start
        )
        stats.mover.append(min(at for v, at in pupil.arrivals.items() if v > version) - start)
        stats.started.append(start)


async def echo_floor(
    base: str, groups: int, seconds: float, pace: tuple[float, float]
) -> tuple[list[float], int]:
    """The same fan-out with no game: returns the samples and the groups that broke."""
    import websockets

    samples: list[float] = []
    deadline = time.perf_counter() + seconds
    broken = 0

    async def one_group(number: int) -> None:
        nonlocal broken
        try:
            await one_group_inner(number)
        except Exception:
            broken += 1

    async def one_group_inner(number: int) -> None:
        url = f"{base}/ws/bench/echo/{number}/"
        conns = [
            await websockets.connect(url, additional_headers={"Origin": page_origin(url)}, open_timeout=60)
            for _ in range(4)
        ]
        rng = random.Random(number)
        seq = 0
        await asyncio.sleep(rng.uniform(0, pace[1]))
        while time.perf_counter() < deadline:
            await asyncio.sleep(rng.uniform(*pace))
            seq += 1
            text = json.dumps({"kind": "echo", "seq": seq, "pad": "x" * 64})
            start = time.perf_counter()
            await conns[0].send(text)
            for conn in conns:
                while json.loads(await asyncio.wait_for(conn.recv(), 30))["seq"] != seq:
                    pass
            samples.append(time.perf_counter() - start)
        for conn in conns:
            await conn.close()

    await asyncio.gather(*(one_group(n) for n in range(groups)))
    return samples, broken


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    import statistics

    if len(samples) < 2:
        value = samples[0] * 1000 if samples else float("nan")
        return value, value, value
    q = statistics.quantiles(sorted(samples), n=100, method="inclusive")
    return q[49] * 1000, q[94] * 1000, q[98] * 1000


# =========================================================================== server side
def setup_tables(tables: int) -> list[dict[str, Any]]:
    """Tables, seats and browser sessions, straight into the run's database:
    the same school as ``bench_ws``'s (3 pupils and a medium robot per table)."""
    return setup_data(tables, group_key="loadtest")


def check_database(tablets: dict[int, list[Tablet]], stats: Stats) -> list[str]:
    """No gap, no duplicate, acknowledged == applied, every screen == the engine."""
    from django.db.models import Count

    from cardgames import engines
    from cardgames.models import GameEvent, GameState, Move

    problems: list[str] = []
    for table_id, group in tablets.items():
        state_row = GameState.objects.get(table_id=table_id)
        seqs = list(GameEvent.objects.filter(table_id=table_id).order_by("seq").values_list("seq", flat=True))
        if seqs != list(range(len(seqs))):
            problems.append(f"table {table_id}: event log has a gap or a duplicate")
        versions = list(Move.objects.filter(table_id=table_id).order_by("version").values_list("version", flat=True))
        if versions != list(range(1, state_row.version + 1)):
            problems.append(
                f"table {table_id}: moves {len(versions)} for version {state_row.version} (gap or duplicate)"
            )
        engine = engines.get("chasse")
        state = engine.from_json(state_row.state)
        for tablet in group:
            if tablet.version != state_row.version:
                problems.append(
                    f"table {table_id} seat {tablet.seat}: screen at v{tablet.version}, table at v{state_row.version}"
                )
                continue
            view = engine.view(state, tablet.seat)
            current = view.get("current_seat")
            if tablet.current != current:
                problems.append(f"table {table_id} seat {tablet.seat}: screen shows turn {tablet.current}, engine {current}")
            if tablet.seat is not None:
                hand = sorted(int(c) for c in HAND_CARD.findall(tablet.last_main.split('class="cg-hand"', 1)[-1]))
                want = sorted(int(c["id"]) for c in view.get("hand") or [])
                if hand != want:
                    problems.append(f"table {table_id} seat {tablet.seat}: screen hand {hand}, engine {want}")
    applied = Move.objects.filter(table_id__in=list(tablets), by_bot=False)
    applied_nonces = set(applied.values_list("nonce", flat=True))
    if applied_nonces != stats.acked_nonces:
        problems.append(
            f"applied pupil moves {len(applied_nonces)} != acknowledged {len(stats.acked_nonces)}"
            f" (applied, never acknowledged: {len(applied_nonces - stats.acked_nonces)};"
            f" acknowledged, not stored: {len(stats.acked_nonces - applied_nonces)})"
        )
    dup = Move.objects.filter(table_id__in=list(tablets)).values("table_id", "version").annotate(n=Count("id")).filter(n__gt=1)
    if dup.exists():
        problems.append(f"{dup.count()} duplicated versions in the move list")
    return problems


def worker_pids(master: int) -> list[int]:
    """uvicorn's worker processes (children of its supervisor started through
    multiprocessing's spawn), not multiprocessing's resource tracker."""
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        return []
    workers = []
    for pid in children:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"spawn_main" in cmdline and b"resource_tracker" not in cmdline:
            workers.append(int(pid))
    return workers


def descendants(pid: int) -> list[int]:
    """``pid`` and every process under it, at any depth: whatever a worker
    starts is the server's work too."""
    found = [pid]
    for parent in found:
        # A child is listed under the thread that started it.
        for task in Path(f"/proc/{parent}/task").glob("*"):
            with contextlib.suppress(OSError):
                found.extend(int(child) for child in (task / "children").read_text().split())
    return found


def server_cpu_seconds(master: int) -> float:
    """CPU time used so far by the server (supervisor, live workers and any
    process they started): divided by the moves played, a figure the machine's other load hardly changes."""
    total = 0.0
    for pid in descendants(master):
        with contextlib.suppress(OSError):  # a worker that has just gone
            total += process_cpu_seconds(pid)
    return total


def machine_speed() -> float:
    """Seconds for ten million additions in pure Python: the machines this runs
    on (shared virtual cores) vary by half from hour to hour, so each run
    says how fast its machine was."""
    start = time.perf_counter()
    total = 0
    for number in range(10_000_000):
        total += number
    return time.perf_counter() - start


# The machine's speed *during* play, sampled in a process of its own every few
# seconds: the before/after figures above miss a slowdown in the middle, and on
# shared virtual cores one run's latencies can be twice another's for nothing
# the code did (seen: the same code's CPU per move 21.9 ms, then 30.7 ms, 40
# minutes apart). The samples include the run's own load, so compare them
# between runs of one configuration. About 1 % of one core.
SPEED_SAMPLER = """
import time

def million() -> float:  # in a function, as machine_speed: local names
    start = time.perf_counter()
    total = 0
    for number in range(1_000_000):
        total += number
    return time.perf_counter() - start

while True:
    print(round(million() * 1000, 1), flush=True)
    time.sleep(3.0)
"""


def speed_sampler() -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", SPEED_SAMPLER], stdout=subprocess.PIPE, text=True
    )


def speed_samples(sampler: subprocess.Popen[str]) -> list[float]:
    """The sampler's figures (ms per million additions), the sampler stopped."""
    sampler.terminate()
    out, _ = sampler.communicate(timeout=10)
    return [float(line) for line in out.split() if line.strip()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prepare_database(config: str, workdir: Path) -> dict[str, str]:
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CARDGAMES_TABLE_ACCESS": "cardgames.access.default_table_access",
        "BOT_DELAY_MIN": "0.3",
        "BOT_DELAY_MAX": "0.6",
        "LOG_LEVEL": "WARNING",
        "AXES_ENABLED": "0",
        "DJANGO_DEBUG": "0",
    }
    if config == "embedded":
        env.update(DATABASE_URL="", REDIS_URL="", SQLITE_PATH=str(workdir / "loadtest.sqlite3"))
        return env
    import psycopg

    name = f"loadtest_{os.getpid()}"
    with psycopg.connect(f"{PG_BASE}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    redis_db = os.environ.get("LOADTEST_REDIS_DB", "4")
    env.update(DATABASE_URL=f"{PG_BASE}/{name}", REDIS_URL=f"{REDIS_BASE}/{redis_db}")
    import redis

    redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    return env


def drop_database(env: dict[str, str]) -> None:
    url = env.get("DATABASE_URL", "")
    if not url:
        return
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(f"{PG_BASE}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# =========================================================================== one configuration
async def run_clients(
    base: str, tables: list[dict[str, Any]], args: argparse.Namespace, config: str,
    master: int, workers: int,
) -> dict[str, Any]:
    """One configuration's run against a started server: the echo floor, the
    school connecting, idling, playing (and a worker killed, on ``pg2``), then
    the figures. Long on purpose: the phases read in the order they happen,
    each figure next to the phase it measures."""
    pace = tuple(float(x) for x in args.pace.split(","))
    speed_before = machine_speed()
    floor, floor_broken = await echo_floor(base, len(tables), args.floor_seconds, pace)  # type: ignore[arg-type]

    groups: dict[int, list[Tablet]] = {}
    for table in tables:
        url = f"{base}/ws/table/{table['id']}/"
        groups[table["id"]] = [Tablet(url, cookie, seat) for seat, cookie in enumerate(table["pupils"])] + [
            Tablet(url, table["projector"], None)
        ]
    everyone = [t for g in groups.values() for t in g]
    connect_start = time.perf_counter()
    runners = [asyncio.create_task(t.run()) for t in everyone]  # the whole school at once
    warm_until = time.perf_counter() + 90
    while time.perf_counter() < warm_until and not all(t.version >= 0 or t.refused for t in everyone):
        await asyncio.sleep(0.05)
    connected_in = time.perf_counter() - connect_start
    idle = args.idle if config != "embedded" else 0.0
    if idle:
        await asyncio.sleep(idle)  # children pausing: no socket may drop meanwhile
    start_versions = {tid: max(t.version for t in g) for tid, g in groups.items()}
    cpu_start = server_cpu_seconds(master)
    client_cpu_start = time.process_time()
    play_start = time.perf_counter()
    sampler = speed_sampler()
    for t in everyone:
        t.bytes_from = play_start
    deadline = play_start + args.seconds
    stats = Stats()
    kill_info: dict[str, Any] = {}

    async def killer() -> None:
        await asyncio.sleep(args.seconds * KILL_AT_FRACTION)
        pids = worker_pids(master)
        if len(pids) < 2:
            kill_info["error"] = f"expected {workers} workers, found {pids}"
            return
        victim = pids[0]
        os.kill(victim, signal.SIGKILL)
        kill_info.update(pid=victim, at=time.perf_counter())

    tasks = [
        drive_table(tbl, groups[tbl["id"]], deadline, pace, stats, n, args.choose)  # type: ignore[arg-type]
        for n, tbl in enumerate(tables)
    ]  # type: ignore[arg-type]
    if args.kill and workers > 1:
        tasks.append(killer())
    try:
        await asyncio.gather(*tasks)
    finally:
        during = speed_samples(sampler)  # never left running
    play_seconds = time.perf_counter() - play_start
    cpu_used = server_cpu_seconds(master) - cpu_start
    # The load client shares the machine's cores with the server, PostgreSQL
    # and Redis: what it used is said with the server's figures.
    client_share = (time.process_time() - client_cpu_start) / play_seconds if play_seconds else 0.0
    # Settle: bots finish their turn, reconnected sockets catch up.
    from asgiref.sync import sync_to_async

    @sync_to_async
    def db_versions() -> dict[int, int]:
        from cardgames.models import GameState

        return dict(GameState.objects.filter(table_id__in=list(groups)).values_list("table_id", "version"))

    settle_until = time.perf_counter() + 20
    while time.perf_counter() < settle_until:
        await asyncio.sleep(1.0)
        want = await db_versions()
        if all(t.version == want[tid] and t.connected.is_set() for tid, g in groups.items() for t in g):
            await asyncio.sleep(1.0)
            if await db_versions() == want:
                break
    final_versions = await db_versions()
    problems = await sync_to_async(check_database)(groups, stats)
    for t in everyone:
        t.stopping = True
    for t in everyone:
        await t.close()
    for r in runners:
        r.cancel()
    await asyncio.gather(*runners, return_exceptions=True)
    # Every socket this client opened is closed properly before the server is
    # stopped: an abandoned one would hold the server's shutdown for its timeout.
    for t in everyone:
        if t.ws is not None:
            with contextlib.suppress(Exception):  # already closed, or gone
                await asyncio.wait_for(t.ws.close(), 5)

    kill_at = kill_info.get("at")
    expected_closes = 0
    dropped = 0
    for t in everyone:
        for at in t.closes:
            if kill_at is not None and kill_at <= at <= kill_at + 5:
                expected_closes += 1
            else:
                dropped += 1
    # Three windows: two workers before the kill, the recovery (the killed
    # worker's sockets reconnecting to the other one, which draws each of them
    # a whole screen), and one worker after it. The whole run's figures mix them.
    before: list[float] = []
    recovery: list[float] = []
    after: list[float] = []
    for start, sample in zip(stats.started, stats.samples, strict=True):
        if kill_at is None or start < kill_at - 1:
            before.append(sample)
        elif start <= kill_at + RECOVERY_SECONDS:
            recovery.append(sample)
        else:
            after.append(sample)
    moves = sum(final_versions[tid] - start_versions[tid] for tid in groups)
    seen = sum(t.versions_seen for t in everyone)
    result = {
        "config": config,
        "workers": workers,
        "tables": len(tables),
        "sockets": len(everyone),
        "floor": percentiles(floor),
        "floor_n": len(floor),
        "move": percentiles(stats.samples),
        "move_n": len(stats.samples),
        "mover": percentiles(stats.mover),
        "before": percentiles(before) if kill_at is not None else None,
        "before_n": len(before),
        "recovery": percentiles(recovery) if kill_at is not None else None,
        "recovery_n": len(recovery),
        "after": percentiles(after) if kill_at is not None else None,
        "after_n": len(after),
        "moves_per_s": moves / play_seconds if play_seconds else 0.0,
        # Killing a worker loses its CPU count: the kill run's figure is a floor.
        "cpu_ms_per_move": cpu_used * 1000 / moves if moves else 0.0,
        "server_cores": cpu_used / play_seconds if play_seconds else 0.0,
        "client_cores": client_share,
        "bytes_per_socket_move": (sum(t.bytes_in for t in everyone) / seen) if seen else 0.0,
        "wire_per_socket_move": (sum(t.wire_in for t in everyone) / seen) if seen else 0.0,
        "refused": sum(1 for t in everyone if t.refused),
        "dropped": dropped + floor_broken,
        "floor_broken": floor_broken,
        "killed_sockets_closed": expected_closes,
        "reconnects": sum(t.reconnects for t in everyone),
        "across_reconnect": stats.across_reconnect,
        "acked": stats.acked,
        "connected_in": connected_in,
        "kill": {k: v for k, v in kill_info.items() if k != "at"},
        "problems": problems,
        "load": os.getloadavg(),
        "speed": (speed_before, machine_speed()),
        "speed_during": during,
    }
    if args.kill and workers > 1 and not kill_info.get("pid"):
        problems.append(f"kill test did not run: {kill_info.get('error', 'no worker found')}")
    return result


def child(config: str, args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix=f"loadtest-{config}-"))
    env = prepare_database(config, workdir)
    os.environ.update(env)
    workers = {"embedded": 1, "pg1": 1, "pg2": args.workers}[config]
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT, env=dict(os.environ), check=True,
        )
        import django

        django.setup()
        tables = setup_tables(args.tables)
        from django.db import connections

        connections.close_all()
        port = free_port()
        log_path = workdir / "server.log"
        log = log_path.open("w")
        server = subprocess.Popen(
            [
                sys.executable, "manage.py", "serve", "--workers", str(workers),
                "--port", str(port), "--app", "benchmarks.echo_asgi:application",
            ],
            cwd=ROOT, env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT,
        )
        try:
            for _ in range(300):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            time.sleep(1.0 if workers > 1 else 0.2)  # every worker up, not just the first
            result = asyncio.run(
                run_clients(f"ws://127.0.0.1:{port}", tables, args, config, server.pid, workers)
            )
            time.sleep(2.0)  # the closing handshakes finish before the server stops
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(8)
            except subprocess.TimeoutExpired:
                # Still stopping: have every worker print where its tasks wait.
                for pid in worker_pids(server.pid) or [server.pid]:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGUSR1)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(5)
            log.close()
        text = log_path.read_text(errors="replace")
        errors = [line for line in text.splitlines() if LOG_ERROR.search(line)]
        # The killed worker is reported by uvicorn's supervisor; that is the test, not an error.
        errors = [e for e in errors if "died" not in e and "SIGKILL" not in e and "Child process" not in e]
        # After the school day, at the stop the load test itself asks for: a
        # socket whose channels_redis receive did not end on its cancel holds
        # uvicorn's graceful shutdown (the task dump above it says where).
        # Reported apart: a known defect of the stop, not of the day.
        result["slow_stop"] = [e for e in errors if "timeout graceful shutdown exceeded" in e]
        errors = [e for e in errors if e not in result["slow_stop"] and "TASKDUMP" not in e]
        result["server_errors"] = len(errors)
        result["server_error_lines"] = errors[:15]
        result["gc_pauses"] = [line.split("GCPAUSE ", 1)[1] for line in text.splitlines() if "GCPAUSE " in line]
        result["log"] = str(log_path)
        return result
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(env)
