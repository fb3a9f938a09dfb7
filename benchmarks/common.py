"""What the fault run, the soak and the capacity search share (issue 49).

They import this module and ``benchmarks/tablets.py`` (the load test's
tablets, its database checks), never each other nor the load test itself.

- ports from the range these benchmarks own (8230-8299), never a random one;
- ``own_stack()``: a PostgreSQL and a Redis of the run's own
  (``benchmarks/fault_services.py``), so the machine's shared services are
  never restarted nor flushed, stopped at the end whatever happens;
- ``Server``: ``manage.py serve --workers N`` on them, stopped at the end;
- ``LogWatch``: the server log read while the run goes on, each line tagged
  with what the run was doing then (an outage, its recovery, normal play), so
  the connection errors of an outage are told apart from real ones;
- small readings of the server: each worker's RSS, its open sockets.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import tablets  # noqa: E402
from benchmarks.fault_services import OwnPostgres, OwnRedis  # noqa: E402

PORTS = range(8230, 8300)
_taken: set[int] = set()


def pick_port() -> int:
    """A free loopback port of 8230-8299 (the benchmarks' own range)."""
    candidates = [p for p in PORTS if p not in _taken]
    random.shuffle(candidates)
    for port in candidates:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        _taken.add(port)
        return port
    raise RuntimeError("no free port in 8230-8299")


@contextlib.contextmanager
def own_stack(max_connections: int = 200) -> Iterator[tuple[OwnPostgres, OwnRedis]]:
    """A PostgreSQL and a Redis of this run's own, on ports of our range;
    both stopped (and their directories removed) on the way out, also on failure."""
    pg = OwnPostgres(max_connections=max_connections)
    pg.port = pick_port()
    redis = OwnRedis()
    redis.port = pick_port()
    with pg, redis:
        yield pg, redis


def stack_env(pg: OwnPostgres, redis: OwnRedis, name: str) -> dict[str, str]:
    """The server's environment on the run's own services (a fresh database)."""
    import psycopg

    with psycopg.connect(f"{pg.url}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CARDGAMES_TABLE_ACCESS": "cardgames.access.default_table_access",
        "BOT_DELAY_MIN": "0.3",
        "BOT_DELAY_MAX": "0.6",
        "LOG_LEVEL": "WARNING",
        "AXES_ENABLED": "0",
        "DJANGO_DEBUG": "0",
        "DATABASE_URL": f"{pg.url}/{name}",
        "REDIS_URL": redis.url,
    }


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT, env={**os.environ, **env}, check=True,
    )


class Server:
    """``manage.py serve`` (the project's app plus the echo route), its log in a
    file. ``BENCH_ASGI_APP`` serves another app (e.g. one that wraps it to
    trace memory)."""

    def __init__(self, workers: int, env: dict[str, str], log_path: Path) -> None:
        self.workers = workers
        self.port = pick_port()
        self.log_path = log_path
        self.env = {**os.environ, **env}
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def http_base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = self.log_path.open("w")
        self.proc = subprocess.Popen(
            [
                sys.executable, "manage.py", "serve", "--workers", str(self.workers),
                "--port", str(self.port),
                "--app", os.environ.get("BENCH_ASGI_APP", "benchmarks.echo_asgi:application"),
            ],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited at start, see {self.log_path}")
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            time.sleep(0.1)
        # Every worker up, not just the first.
        while time.monotonic() < deadline and len(self.worker_pids()) < self.workers:
            time.sleep(0.1)
        time.sleep(1.0)

    def worker_pids(self) -> list[int]:
        return tablets.worker_pids(self.proc.pid) if self.proc else []

    def cpu_seconds(self) -> float:
        return tablets.server_cpu_seconds(self.proc.pid) if self.proc else 0.0

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            for pid in [*self.worker_pids(), self.proc.pid]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.proc.wait(10)

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def open_sockets(port: int) -> int:
    """Established TCP connections on the server's port (its side), from /proc/net."""
    count = 0
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(name).read_text().splitlines()[1:]:
                parts = line.split()
                local, state = parts[1], parts[3]
                if state == "01" and int(local.rsplit(":", 1)[1], 16) == port:
                    count += 1
    return count


# ----------------------------------------------------------------------- the server log
# A connection error is expected while (or just after) a service is away; the
# same line in normal play is a defect.
CONNECTION_ERROR = re.compile(
    r"ConnectionError|ConnectionRefused|ConnectionReset|OperationalError|InterfaceError|"
    r"PoolTimeout|TimeoutError|BrokenPipe|AdminShutdown|connection (?:is )?(?:closed|lost|refused)|"
    r"Connection refused|server closed the connection|terminating connection|Redis unreachable|"
    r"Redis reachable|database unreachable|database reachable|health check|error connecting",
    re.IGNORECASE,
)
# Lines that are the outage announcing itself (warnings, not errors).
OUTAGE_LINE = re.compile(
    r"Redis unreachable|Redis reachable again|database unreachable|database reachable again|"
    r"health check: |error connecting in|discarding closed connection|pool-\d"
)

# The load test's own: a task dump it asked for, a slow stop, a killed worker.
NOT_ERRORS = ("TASKDUMP", "timeout graceful shutdown", "died", "SIGKILL", "Child process")

CRASHES = ("Exception in ASGI application", "message failed")


@dataclass
class LogEntry:
    phase: str
    text: str  # one line, or a whole traceback (its frames and its last line)

    @property
    def head(self) -> str:
        """The line that says what happened: a traceback's last line."""
        lines = [line for line in self.text.splitlines() if line.strip()]
        return lines[-1] if lines else ""


@dataclass
class LogWatch:
    """Reads the server log as it grows; each line (or traceback) gets the
    phase the run was in when it was read (``phase`` is set by the run)."""

    path: Path
    phase: str = "start"
    entries: list[LogEntry] = field(default_factory=list)
    _offset: int = 0
    _partial: str = ""
    _tb: list[str] | None = None
    _tb_phase: str = ""
    _last_line: str = ""
    _tb_ended: bool = False

    def poll(self) -> None:
        with contextlib.suppress(OSError), self.path.open("rb") as handle:
            handle.seek(self._offset)
            data = handle.read()
            self._offset += len(data)
            text = self._partial + data.decode(errors="replace")
            lines = text.split("\n")
            self._partial = lines.pop()
            for line in lines:
                self._line(line)

    def _line(self, line: str) -> None:
        if self._tb is not None:
            chained = line.startswith(("During handling", "The above exception", "Traceback"))
            if not self._tb_ended or not line.strip() or chained:
                if chained:
                    self._tb_ended = False
                elif line.strip() and not line.startswith((" ", "\t", "+", "|")):
                    self._tb_ended = True  # the exception line; a chained one may follow
                self._tb.append(line)
                return
            self._close_tb()
        if line.startswith("Traceback"):
            self._tb, self._tb_phase, self._tb_ended = [line], self.phase, False
            # The logged message that introduced it ("... message failed",
            # uvicorn's "Exception in ASGI application") belongs with it.
            if self._last_line and self.entries and self.entries[-1].text == self._last_line:
                self._tb.insert(0, self.entries.pop().text)
            self._last_line = ""
            return
        self._last_line = line
        if line.strip():
            self.entries.append(LogEntry(self.phase, line))

    def _close_tb(self) -> None:
        if self._tb is not None:
            while self._tb and not self._tb[-1].strip():
                self._tb.pop()
            self.entries.append(LogEntry(self._tb_phase, "\n".join(self._tb)))
            self._tb = None

    def finish(self) -> None:
        self.poll()
        if self._partial:
            self._line(self._partial)
            self._partial = ""
        self._close_tb()

    def classify(self, fault_phases: tuple[str, ...] = ()) -> dict[str, Any]:
        """Tracebacks and error lines: expected (a connection error in an outage
        phase or its recovery), outage notices, and the rest (unexpected)."""
        expected: Counter[str] = Counter()
        notices: Counter[str] = Counter()
        unexpected: list[str] = []
        ignored: Counter[str] = Counter()
        for entry in self.entries:
            is_tb = "Traceback (most recent call last)" in entry.text
            in_fault = entry.phase in fault_phases
            # An HTTP 500 / crashed handshake, or a message the consumer could
            # not handle ("oups"): never expected, whatever the cause.
            crashed = any(word in entry.text for word in CRASHES)
            if OUTAGE_LINE.search(entry.text) and not is_tb:
                notices[f"[{entry.phase}] {_squash(entry.text)}"] += 1
            elif is_tb or tablets.LOG_ERROR.search(entry.text):
                if in_fault and not crashed and CONNECTION_ERROR.search(entry.head or entry.text):
                    expected[f"[{entry.phase}] {_squash(entry.head)}"] += 1
                elif any(word in entry.text for word in NOT_ERRORS):
                    ignored[_squash(entry.text)] += 1
                else:
                    unexpected.append(f"[{entry.phase}] {_summary(entry.text)}")
            else:
                ignored[_squash(entry.text)] += 1
        return {
            "expected": expected,
            "notices": notices,
            "unexpected": unexpected,
            "other": ignored,
            "tracebacks": sum(1 for e in self.entries if "Traceback (most recent call last)" in e.text),
        }


def _summary(text: str) -> str:
    """A traceback in a few lines: the message, the project's own frames, the error."""
    lines = text.splitlines()
    own = [
        line.strip().replace(f'File "{ROOT}/', 'File "')
        for line in lines[1:-1]
        if f'File "{ROOT}/' in line and ".venv" not in line
    ]
    return " | ".join(dict.fromkeys([lines[0], *own[-4:], lines[-1]]))[:900]


def _squash(text: str, limit: int = 220) -> str:
    """One line, numbers and addresses out, so repeats count as one."""
    text = re.sub(r"0x[0-9a-f]+", "0x…", text.strip())
    text = re.sub(r"\d+(\.\d+)?", "N", text)
    return text[:limit]


def percentiles_ms(samples: list[float]) -> tuple[float, float, float]:
    """p50, p99, max in milliseconds (nan when empty)."""
    if not samples:
        nan = float("nan")
        return nan, nan, nan
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000

    return at(0.5), at(0.99), ordered[-1] * 1000
