"""Several uvicorn workers that share a school's sockets evenly.

uvicorn's own ``--workers N`` binds one listening socket and every worker
accepts from it. Whichever worker wakes first takes every connection waiting
(asyncio accepts up to the backlog, 2048, per wake-up). When a whole school
connects at once, one worker gets most of the tablets. Measured with the load
test: one worker held most of them. That worker then did nearly all the work,
and the second one sat idle.

Here each worker gets a listening socket of its own, bound to the same address
with ``SO_REUSEPORT``. The kernel then spreads new connections over the
listening workers (by a hash of each connection's addresses). A worker that
dies takes its socket with it, so new connections go to the others until
uvicorn's supervisor has started its replacement. Only on systems where
``SO_REUSEPORT`` balances like this (Linux); elsewhere the shared socket stays.
"""

from __future__ import annotations

import socket
import sys
from typing import Any

from uvicorn import Config
from uvicorn.supervisors import multiprocess


def balances_connections() -> bool:
    """Linux spreads connections over the sockets of a ``SO_REUSEPORT`` group;
    the BSDs and macOS hand them all to the last one bound."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def listener(config: Config) -> socket.socket:
    """One worker's own socket on the shared address (not yet listening: the
    worker listens once its app is loaded, so no tablet waits on a worker
    still starting)."""
    family = socket.AF_INET6 if config.host and ":" in config.host else socket.AF_INET
    sock = socket.socket(family=family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((config.host, config.port))
    sock.set_inheritable(True)
    return sock


class OwnSocketProcess(multiprocess.Process):
    """A uvicorn worker started with a listening socket of its own."""

    def __init__(self, config: Config, sockets: list[socket.socket]) -> None:
        self._listener = listener(config)
        super().__init__(config, [self._listener])

    def start(self) -> None:
        super().start()
        # The worker holds its own copy now. The supervisor must not keep one:
        # a socket still open here would outlive its worker, and the kernel
        # would go on queueing connections on it that nobody accepts.
        self._listener.close()

    def __getstate__(self) -> dict[str, Any]:
        # The worker receives its socket as an argument, not with this object.
        state = self.__dict__.copy()
        state.pop("_listener", None)
        return state


def run_workers(config: Config) -> None:
    """uvicorn's supervisor (restarts a dead worker, stops them all on SIGINT
    or SIGTERM), each worker with its own socket. The supervisor creates its
    workers through the module's ``Process``; that is the one thing changed."""
    multiprocess.Process = OwnSocketProcess  # type: ignore[misc]
    multiprocess.Multiprocess(config, sockets=[]).run()
