"""A tablet in a test: a websocket to a table, and what its screen shows."""

from __future__ import annotations

import asyncio
import html as html_lib
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from cardgames import engines
from cardgames.models import GameState, Move, Table
from cardgames.screen_units import apply_update
from tests.cardgames.factories import communicator

# The state line of a screen: in every whole screen, and in every update that
# changes it (updates carry only what changed, see cardgames.screen_units.Screen).
VERSION = re.compile(r'id="table-state"[^>]*data-version="(\d+)"')
CURRENT = re.compile(r'id="table-state"[^>]*data-current-seat="(\d*)"')
OVER = re.compile(r'id="table-state"[^>]*data-over="1"')
CARD_IDS = re.compile(r'data-card="(\d+)"|name="card" value="(\d+)"')
NOTICE = re.compile(r'id="table-notice".*?class="cg-notice-text"[^>]*>(.*?)</p>', re.S)
_nonces = itertools.count(1)


def card_ids(html: str) -> set[int]:
    return {int(a or b) for a, b in CARD_IDS.findall(html)}


def notice_of(html: str) -> str:
    match = NOTICE.search(html)
    return html_lib.unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip() if match else ""


@dataclass
class Tablet:
    table_id: int
    session_key: str | None
    comm: WebsocketCommunicator | None = None
    # Every message as received (privacy checks read these)...
    messages: list[str] = field(default_factory=list)
    # ...and the screen they add up to, as htmx shows it.
    screen: str = ""
    version: int = -1
    current: int | None = None
    over: bool = False

    async def connect(self) -> bool:
        self.comm = communicator(self.table_id, self.session_key)
        connected, _ = await self.comm.connect()
        if connected:
            await self.receive()
        return bool(connected)

    async def receive(self, timeout: float = 5) -> str:
        """The next message, applied to the screen; returns the whole screen."""
        assert self.comm is not None
        html = await self.comm.receive_from(timeout=timeout)
        self.messages.append(html)
        self.screen = apply_update(self.screen, html)
        if m := VERSION.search(html):
            self.version = int(m.group(1))
            current = CURRENT.search(html)
            self.current = int(current.group(1)) if current and current.group(1) else None
            self.over = bool(OVER.search(html))
        return self.screen

    async def send(self, payload: Any) -> None:
        assert self.comm is not None
        await self.comm.send_to(
            text_data=payload if isinstance(payload, str) else json.dumps(payload)
        )

    async def wait_version(self, version: int, timeout: float = 10) -> None:
        """Read until the screen shows at least ``version`` (or the game is over)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.version < version and not self.over:
            await self.receive(timeout=max(0.05, end - loop.time()))

    async def receive_until(self, needle: str, timeout: float = 5) -> str:
        """Read until the screen contains ``needle`` (older queued renders are skipped)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            html = await self.receive(timeout=max(0.05, end - loop.time()))
            if needle in html:
                return html

    async def drain(self, quiet: float = 0.05) -> None:
        assert self.comm is not None
        while not await self.comm.receive_nothing(timeout=quiet):
            await self.receive()

    async def close(self) -> None:
        if self.comm is not None:
            await self.comm.disconnect()


def nonce() -> str:
    return f"test-{next(_nonces)}"


@database_sync_to_async
def table_state(table_id: int) -> tuple[Any, Any, int, str]:
    """The engine state as the server holds it (tests may peek; pupils may not)."""
    table = Table.objects.get(pk=table_id)
    game_state = GameState.objects.get(table=table)
    engine = engines.get(table.game)
    return engine, engine.from_json(game_state.state), game_state.version, table.status


def play_form(action: dict[str, Any], version: int) -> dict[str, Any]:
    """The strings the Chasse announce form sends for ``action``."""
    form: dict[str, Any] = {
        "kind": "act",
        "move": action["type"],
        "card": str(action["card"]),
        "version": str(version),
        "nonce": nonce(),
    }
    if action.get("announce") is not None:
        form["announce"] = str(action["announce"])
    return form


# The version a message shows: whole screens carry it on #table-main, updates
# on the state unit.
MESSAGE_VERSION = re.compile(r'id="table-(?:main|state)"[^>]*data-version="(\d+)"')
_states: dict[tuple[int, int], Any] = {}


@database_sync_to_async
def state_at(table_id: int, version: int) -> Any:
    """The game as it was at ``version``: dealt again from its seed, with the
    logged moves applied (the engine is deterministic). Robots play meanwhile,
    so a message is judged against the state of its own version."""
    key = (table_id, version)
    if key not in _states:
        table = Table.objects.get(pk=table_id)
        engine = engines.get(table.game)
        state = engine.new_game(table.seats.count(), table.seed, table.options)
        for move in Move.objects.filter(table=table, version__lte=version).order_by("version"):
            engine.apply(state, move.seat, move.action)
        _states[key] = state
    return _states[key]
