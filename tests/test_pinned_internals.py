"""What the project relies on inside its dependencies, checked against the lock.

``config/channel_layer.py`` subclasses channels_redis' layer and lock and
redis-py's connection and pool; ``config/serving.py`` replaces uvicorn's worker
class; ``cardgames/gone_sockets.py`` recognises uvicorn's and autobahn's
errors by type and by wording. None of that is a public API: a release may move
it without notice, and the code would then break in production only (a burst of
tablets, a worker restart). The lock pins the versions below; when ``make lock
UPGRADE=1`` moves one, this test names what changed, so the override is read
again against the new code before the new version ships.

When a check fails: read the new upstream code, adapt ours, then update the
pinned version (and a source digest, if that is what changed) here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import textwrap
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

# The versions the overrides were written and tested against (requirements/lock.txt).
PINNED = {
    "channels": "4.3.2",
    "channels-redis": "4.3.0",
    "redis": "8.2.0",
    "uvicorn": "0.55.0",
    "autobahn": "26.11.1",
    "daphne": "4.2.3",
}


# A digest of the stock ``RedisChannelLayer.group_send`` our override copies.
GROUP_SEND_DIGEST = "af0ad08fdefcdd4b"


def _checked(package: str, what: str, ok: bool) -> None:
    assert ok, (
        f"{package} {version(package)} (pinned and tested: {PINNED[package]}): {what} changed; "
        f"read the new code before upgrading (tests/test_pinned_internals.py)"
    )


def _parameters(function: Callable[..., Any]) -> list[str]:
    return list(inspect.signature(function).parameters)


def _digest(function: Callable[..., Any]) -> str:
    source = textwrap.dedent(inspect.getsource(function))
    return hashlib.sha256(source.encode()).hexdigest()[:16]


@pytest.mark.parametrize("package", sorted(PINNED))
def test_the_installed_version_is_the_one_tested(package: str) -> None:
    assert version(package) == PINNED[package], (
        f"{package} is {version(package)}, but the overrides that reach into it were "
        f"tested with {PINNED[package]}: check this file's other tests, then update PINNED"
    )


def test_channels_redis_lock_keeps_its_counts() -> None:
    """``_ChannelLock.acquire`` uncounts a cancelled waiter in ``locks`` and
    ``wait_counts``, exactly as the stock ``release`` does."""
    from channels_redis.core import ChannelLock

    lock = ChannelLock()
    _checked(
        "channels-redis",
        "ChannelLock.locks / .wait_counts",
        hasattr(lock, "locks") and hasattr(lock, "wait_counts"),
    )
    _checked(
        "channels-redis",
        "ChannelLock.acquire(channel)",
        _parameters(ChannelLock.acquire) == ["self", "channel"],
    )
    release = inspect.getsource(ChannelLock.release)
    _checked(
        "channels-redis",
        "ChannelLock.release's bookkeeping",
        "self.wait_counts[channel] -= 1" in release and "del self.locks[channel]" in release,
    )


def test_channels_redis_layer_members_our_group_send_calls() -> None:
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[("127.0.0.1", 6379)])
    _checked(
        "channels-redis",
        "the receive lock attribute receive_clean_locks",
        hasattr(layer, "receive_clean_locks"),
    )
    for attribute in ("expiry", "group_expiry", "hosts"):
        _checked("channels-redis", f"RedisChannelLayer.{attribute}", hasattr(layer, attribute))
    expected = {
        "_group_key": ["self", "group"],
        "connection": ["self", "index"],
        "consistent_hash": ["self", "value"],
        "create_pool": ["self", "index"],
        "_map_channel_keys_to_connection": ["self", "channel_names", "message"],
        "require_valid_group_name": ["self", "name"],
        "group_send": ["self", "group", "message"],
    }
    for name, parameters in expected.items():
        method = getattr(RedisChannelLayer, name, None)
        _checked(
            "channels-redis",
            f"RedisChannelLayer.{name}{tuple(parameters[1:])}",
            method is not None and _parameters(method) == parameters,
        )
    # receive_single() must still take the lock our __init__ replaces.
    _checked(
        "channels-redis",
        "receive_single()'s use of receive_clean_locks",
        "self.receive_clean_locks.acquire" in inspect.getsource(RedisChannelLayer.receive_single),
    )


def test_our_group_send_script_is_still_the_stock_one() -> None:
    """Our two-round-trip ``group_send`` copies the stock Lua script and the
    stock order of commands: a new stock ``group_send`` must be read again."""
    from channels_redis.core import RedisChannelLayer

    from config.channel_layer import _GROUP_SEND_LUA

    source = inspect.getsource(RedisChannelLayer.group_send)

    def words(text: str) -> str:
        return " ".join(text.split())

    _checked("channels-redis", "the group_send Lua script", words(_GROUP_SEND_LUA) in words(source))
    _checked(
        "channels-redis",
        f"RedisChannelLayer.group_send (source digest {GROUP_SEND_DIGEST})",
        _digest(RedisChannelLayer.group_send) == GROUP_SEND_DIGEST,
    )


def test_redis_pool_and_connection_members_we_override() -> None:
    from redis.asyncio import BlockingConnectionPool
    from redis.asyncio.connection import AbstractConnection

    _checked(
        "redis",
        "AbstractConnection.send_packed_command(command, check_health)",
        _parameters(AbstractConnection.send_packed_command) == ["self", "command", "check_health"],
    )
    _checked(
        "redis",
        "AbstractConnection.disconnect(nowait)",
        "nowait" in _parameters(AbstractConnection.disconnect),
    )
    _checked(
        "redis",
        "BlockingConnectionPool.from_url",
        callable(getattr(BlockingConnectionPool, "from_url", None)),
    )
    pool = BlockingConnectionPool(max_connections=2)
    _checked(
        "redis",
        "BlockingConnectionPool.connection_class",
        isinstance(getattr(pool, "connection_class", None), type),
    )
    _checked(
        "redis",
        "the pool's connection class (an AbstractConnection)",
        issubclass(pool.connection_class, AbstractConnection),
    )


def test_channels_in_memory_layer_members_we_override() -> None:
    from channels.layers import InMemoryChannelLayer

    layer = InMemoryChannelLayer()
    _checked(
        "channels",
        "InMemoryChannelLayer._clean_expired()",
        _parameters(InMemoryChannelLayer._clean_expired) == ["self"],
    )
    _checked(
        "channels",
        "InMemoryChannelLayer.groups (a dict of group -> channels)",
        isinstance(getattr(layer, "groups", None), dict),
    )
    _checked(
        "channels",
        "InMemoryChannelLayer.send(channel, message)",
        _parameters(InMemoryChannelLayer.send) == ["self", "channel", "message"],
    )


def test_uvicorn_supervisor_builds_workers_through_the_module_process() -> None:
    """``config.serving.run_workers`` swaps ``multiprocess.Process``: the
    supervisor must still create each worker through that module global, as
    ``Process(config, sockets)``."""
    from uvicorn.supervisors import multiprocess

    _checked(
        "uvicorn",
        "multiprocess.Process(config, sockets)",
        _parameters(multiprocess.Process.__init__) == ["self", "config", "sockets"],
    )
    _checked(
        "uvicorn",
        "multiprocess.Multiprocess(config, sockets)",
        _parameters(multiprocess.Multiprocess.__init__) == ["self", "config", "sockets"],
    )
    source = inspect.getsource(multiprocess.Multiprocess)
    _checked(
        "uvicorn",
        "Multiprocess's use of the module's Process",
        "Process(self.config, self.sockets)" in source and "self.Process" not in source,
    )


def _module_source(name: str) -> str:
    """A module's source without importing it (uvicorn's wsproto flavour needs
    wsproto, which the project does not install)."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, f"{name} is gone"
    return Path(spec.origin).read_text(encoding="utf-8")


def test_the_errors_a_gone_socket_raises_are_still_recognised() -> None:
    """``cardgames.gone_sockets.socket_gone`` knows uvicorn's and autobahn's
    errors by type and by their wording; a reworded one would flood the log."""
    from autobahn.exception import Disconnected
    from uvicorn.protocols.utils import ClientDisconnected

    _checked("uvicorn", "ClientDisconnected (an OSError)", issubclass(ClientDisconnected, OSError))
    for flavour in ("websockets_impl", "websockets_sansio_impl", "wsproto_impl"):
        module = f"uvicorn.protocols.websockets.{flavour}"
        _checked(
            "uvicorn",
            f"{module}'s \"after sending 'websocket.close'\" error",
            "after sending 'websocket.close'" in _module_source(module),
        )
    _checked("autobahn", "Disconnected (a RuntimeError)", issubclass(Disconnected, RuntimeError))
    _checked(
        "autobahn",
        '"Attempt to send on a closed protocol"',
        "closed protocol" in _module_source("autobahn.websocket.protocol"),
    )
