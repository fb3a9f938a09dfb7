"""The registry of game engines.

Every module in this package that defines a module-level ``ENGINE`` is
registered under ``ENGINE.name``. Discovery keeps adding a game to one step:
write ``cardgames/engines/<name>.py``.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from .base import Engine, IllegalAction

__all__ = ["Engine", "IllegalAction", "get", "names"]

_REGISTRY: dict[str, Engine[Any]] = {}
_ORDER = ("chasse", "purrfect", "pinocchio", "picktura")


def _discover() -> None:
    if _REGISTRY:
        return
    for module_info in pkgutil.iter_modules(__path__):
        if module_info.name.startswith("_") or module_info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        engine = getattr(module, "ENGINE", None)
        if isinstance(engine, Engine):
            _REGISTRY[engine.name] = engine


def get(name: str) -> Engine[Any]:
    """The engine registered under ``name``; ``KeyError`` when there is none."""
    _discover()
    return _REGISTRY[name]


def names() -> list[str]:
    """Registered engine names, the central game first."""
    _discover()
    return sorted(_REGISTRY, key=lambda n: (_ORDER.index(n) if n in _ORDER else len(_ORDER), n))
