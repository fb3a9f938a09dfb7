"""``manage.py serve --workers N``: the school's tablets are spread over the
workers, and a killed worker's share goes to the others, then to its
replacement (``config/serving.py``)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from config import serving

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    not serving.balances_connections(), reason="SO_REUSEPORT spreads connections on Linux only"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _open(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def _pid_of(sock: socket.socket) -> int:
    """Which worker accepted ``sock``: the app answers with its pid."""
    with sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: school\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(4096):
            data += chunk
    return int(data.split(b"\r\n\r\n", 1)[1])


def _burst(port: int, count: int) -> Counter[int]:
    """``count`` tablets connecting at once (all connected before any is served)."""
    socks = [_open(port) for _ in range(count)]
    return Counter(_pid_of(s) for s in socks)


def _wait_for_workers(
    port: int, want: int, deadline: float, exclude: frozenset[int] = frozenset()
) -> set[int]:
    """The workers answering (but those in ``exclude``), once ``want`` of them do."""
    seen: set[int] = set()
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):  # no worker listening yet
            seen |= set(_burst(port, 8)) - exclude
        if len(seen) >= want:
            break
        time.sleep(0.2)
    return seen


def test_a_burst_of_tablets_is_spread_over_the_workers_and_survives_a_killed_one() -> None:
    port = _free_port()
    env = dict(os.environ, REDIS_URL="redis://127.0.0.1:6379/9", DJANGO_DEBUG="0")
    server = subprocess.Popen(
        [
            sys.executable, "manage.py", "serve", "--workers", "2", "--port", str(port),
            "--app", "tests.serving_app:app",
        ],
        cwd=ROOT, env=env,
    )
    try:
        workers = _wait_for_workers(port, 2, time.monotonic() + 60)
        assert len(workers) == 2, f"two workers should answer, saw {workers}"

        # The whole school at once: each worker takes a fair share, not one the lot.
        shares = _burst(port, 100)
        assert set(shares) == workers
        assert min(shares.values()) >= 20, f"one worker took nearly every tablet: {shares}"

        victim = min(workers)
        os.kill(victim, signal.SIGKILL)
        time.sleep(0.3)
        # Tablets connecting right after the kill are all served, by the survivor...
        after = _burst(port, 40)
        assert sum(after.values()) == 40 and victim not in after
        # ...and the supervisor starts a replacement that takes its share again.
        replacement = _wait_for_workers(port, 1, time.monotonic() + 60, exclude=frozenset(workers))
        assert replacement, "no replacement worker answered"
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)
