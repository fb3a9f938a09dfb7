"""A Redis and a PostgreSQL of a run's own, to stop and start at will.

The fault runs (``benchmarks/faults.py``), the soak, the capacity search and the
fault tests restart Redis and PostgreSQL. They must never touch the machine's
shared services (other tests and other people use them), so each starts its own,
in a temporary directory on a free loopback port, and stops it at the end
(``with OwnRedis() as redis: ...``), also when the run fails.

PostgreSQL's ``initdb`` refuses to run as root: it then runs as the
``postgres`` user, in a directory that user owns.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_port(port: int, up: bool, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            if up:
                return
        except OSError:
            if not up:
                return
        time.sleep(0.05)
    raise TimeoutError(f"port {port} still {'closed' if up else 'open'} after {timeout} s")


class OwnRedis:
    """``redis-server`` with no persistence: a restart starts it empty."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="fault-redis-"))
        self.pid: int | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        # A SIGKILLed Redis leaves its pid file: read after a restart, the old
        # pid made ``stop`` kill nothing and leave the new server running.
        (self.dir / "redis.pid").unlink(missing_ok=True)
        subprocess.run(
            [
                "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--daemonize", "yes",
                "--dir", str(self.dir), "--pidfile", str(self.dir / "redis.pid"),
                "--logfile", str(self.dir / "redis.log"),
            ],
            check=True,
        )
        _wait_port(self.port, up=True)
        for _ in range(250):  # the pid file is written just after the port opens
            with contextlib.suppress(OSError, ValueError):
                self.pid = int((self.dir / "redis.pid").read_text())
                break
            time.sleep(0.02)
        if self.pid is None:
            raise RuntimeError(f"redis-server on port {self.port} wrote no pid file")

    def stop(self) -> None:
        """Gone at once (SIGKILL: no save, every connection reset), as a
        crashed or replaced Redis is."""
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, 9)
            self.pid = None
            (self.dir / "redis.pid").unlink(missing_ok=True)
        _wait_port(self.port, up=False)

    def keys_and_memory(self) -> tuple[int, int]:
        """(keys, used_memory bytes) of this Redis."""
        import redis

        client = redis.Redis(host="127.0.0.1", port=self.port)
        try:
            return int(client.dbsize()), int(client.info("memory")["used_memory"])
        finally:
            client.close()

    def __enter__(self) -> OwnRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise FileNotFoundError(f"PostgreSQL's {name} is not installed")
    return found[-1]


class OwnPostgres:
    """A PostgreSQL cluster of its own (trust auth, user ``postgres``)."""

    def __init__(self, max_connections: int = 200) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="fault-pg-"))
        self.data = self.dir / "data"
        self.max_connections = max_connections
        self.as_root = os.geteuid() == 0

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}"

    def _run(self, *argv: str) -> None:
        if self.as_root:  # initdb and pg_ctl refuse root
            argv = ("runuser", "-u", "postgres", "--", *argv)
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def init(self) -> None:
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run(_pg_bin("initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
            f" -c max_connections={self.max_connections} -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            _pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "pg.log"),
            "-o", options, "-w", "start",
        )

    def stop(self, mode: str = "fast") -> None:
        """``fast``: active sessions are ended, as a PostgreSQL update does."""
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def connections(self) -> int:
        """Open client connections (the run's workers and its own)."""
        import psycopg

        with psycopg.connect(f"{self.url}/postgres", autocommit=True) as conn:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
            ).fetchone()
            return int(row[0]) - 1 if row else 0

    def __enter__(self) -> OwnPostgres:
        self.init()
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)
