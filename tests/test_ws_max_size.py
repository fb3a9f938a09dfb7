"""The servers refuse a websocket frame far above the app's own limit.

The attack: uvicorn's default ``ws_max_size`` is 16 MiB, so a 15 MB frame sent
to the lobby or the projector socket was read whole into the worker's memory
before the app's 16 KiB check could refuse it (and 300 tablets' worth of such
frames is the 2 GB machine's memory). Now ``manage.py serve`` (uvicorn) and
``manage.py runserver`` (daphne's, what ``make run`` serves with) stop reading
at ``settings.WS_SERVER_MAX_BYTES``: uvicorn closes the socket with 1009,
daphne drops the connection.

Each test starts the real server process. The app behind it is a bare echo
(below): no account or table is needed to open a socket, and the limit is the
server's, whatever the app.
"""

from __future__ import annotations

import base64
import contextlib
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
PORTS = range(8140, 8150)  # the range this project's tests may serve on
HUGE = 15 * 1024 * 1024
APP = "tests.test_ws_max_size:echo_app"


async def echo_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accept any websocket and answer each message with its length."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "websocket":
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        return
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.receive":
            size = len(message.get("text") or "") or len(message.get("bytes") or b"")
            await send({"type": "websocket.send", "text": str(size)})
        else:
            return


def _free_port() -> int:
    for port in PORTS:
        with socket.socket() as s, contextlib.suppress(OSError):
            s.bind(("127.0.0.1", port))
            return port
    pytest.skip("no free port in 8140-8149")


def _limits() -> tuple[int, int]:
    from django.conf import settings

    return int(settings.WS_MAX_MESSAGE_BYTES), int(settings.WS_SERVER_MAX_BYTES)


@contextlib.contextmanager
def _server(command: list[str], port: int) -> Iterator[None]:
    env = dict(os.environ, DJANGO_DEBUG="1")
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            assert time.monotonic() < deadline, "the server never listened"
            time.sleep(0.2)
        yield
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def _handshake(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/lobby/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: http://127.0.0.1:{port}\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        assert chunk, "closed during the handshake"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _frame_header(length: int, *, opcode: int = 0x1, fin: bool = True) -> bytes:
    """A client frame's header (masked, with a zero mask: the payload goes as is)."""
    first = (0x80 if fin else 0) | opcode
    if length < 126:
        return bytes([first, 0x80 | length]) + b"\0\0\0\0"
    if length < 1 << 16:
        return bytes([first, 0x80 | 126]) + struct.pack("!H", length) + b"\0\0\0\0"
    return bytes([first, 0x80 | 127]) + struct.pack("!Q", length) + b"\0\0\0\0"


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def _read_frame(sock: socket.socket) -> tuple[int, bytes]:
    """The server's next frame: (opcode, payload). Server frames are unmasked."""
    first, second = _read_exactly(sock, 2)
    length = second & 0x7F
    if length == 126:
        (length,) = struct.unpack("!H", _read_exactly(sock, 2))
    elif length == 127:
        (length,) = struct.unpack("!Q", _read_exactly(sock, 8))
    return first & 0x0F, _read_exactly(sock, length)


def _refusal(sock: socket.socket) -> int | None:
    """How the server refused: its close code, or ``None`` when it dropped the
    connection. The app answering (a data frame) is a failure."""
    try:
        while True:
            opcode, payload = _read_frame(sock)
            assert opcode not in (0x1, 0x2), f"the app received it: {payload[:50]!r}"
            if opcode == 0x8:
                return int(struct.unpack("!H", payload[:2])[0])
    except (ConnectionError, TimeoutError):
        return None


def _check_the_limits(port: int, server_limit: int | None = None) -> list[int | None]:
    """Just over the app's limit passes to the app; just over the server's
    limit, a 15 MB frame and a message sent in pieces do not. Returns how each
    of the three was refused."""
    app_limit, uvicorn_limit = _limits()
    if server_limit is None:
        server_limit = uvicorn_limit
        assert app_limit < server_limit <= app_limit + 8 * 1024
    # Under the server's limit: it reaches the app (the consumers refuse it
    # politely themselves, "too_big").
    with _handshake(port) as sock:
        sock.sendall(_frame_header(app_limit + 100) + b"x" * (app_limit + 100))
        assert _read_frame(sock) == (0x1, str(app_limit + 100).encode())
    refusals = []
    # Just over the server's limit (uvicorn's default would take 16 MiB,
    # daphne's 1 MiB), then a 15 MB frame: refused on the frame's header, after
    # its first KB (a client still sending would have the close frame lost to
    # the reset of its unread bytes).
    for size in (server_limit + 1, HUGE):
        with _handshake(port) as sock:
            sock.sendall(_frame_header(size) + b"x" * 1024)
            refusals.append(_refusal(sock))
    # The same limit for a message sent in pieces (3 frames, together over it).
    with _handshake(port) as sock:
        piece = b"x" * (server_limit // 2)
        sock.sendall(_frame_header(len(piece), fin=False) + piece)
        sock.sendall(_frame_header(len(piece), opcode=0x0, fin=False) + piece)
        with contextlib.suppress(OSError):  # the server may close before the last piece
            sock.sendall(_frame_header(len(piece), opcode=0x0) + piece)
        refusals.append(_refusal(sock))
    return refusals


def test_uvicorn_refuses_a_huge_frame_with_1009() -> None:
    """``manage.py serve``, as deployed (docs/deploy.md)."""
    port = _free_port()
    command = [sys.executable, "manage.py", "serve", "--port", str(port), "--app", APP]
    with _server(command, port):
        assert _check_the_limits(port) == [1009, 1009, 1009]


def test_daphne_runserver_refuses_a_huge_frame_with_1009() -> None:
    """``make run``: Django's runserver replaced by daphne's (``daphne`` is an
    installed app), which reads ``DAPHNE_WEBSOCKET_MAX_*`` from the settings.
    Only the application is swapped for the echo. Daphne (autobahn, whose
    ``failByDrop`` it leaves on) drops the connection rather than sending 1009;
    either way the frame is refused before it is read."""
    port = _free_port()
    script = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "django.setup(); from django.conf import settings;"
        f"settings.ASGI_APPLICATION = {APP.replace(':', '.')!r};"
        "from django.core.management import call_command;"
        f"call_command('runserver', '127.0.0.1:{port}', use_reloader=False, skip_checks=True)"
    )
    with _server([sys.executable, "-c", script], port):
        # Daphne's limit also bounds what it sends (a whole screen), so it is
        # larger than uvicorn's; a huge frame is still refused unread.
        daphne_limit = int(settings.DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE)
        assert settings.WS_MAX_MESSAGE_BYTES < daphne_limit <= 1024 * 1024
        assert set(_check_the_limits(port, daphne_limit)) <= {1009, None}
