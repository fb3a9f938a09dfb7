"""Production workers: several of them only with a shared channel layer."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import CommandError

from config.management.commands.serve import check_workers


@pytest.mark.parametrize(
    "backend", ["channels.layers.InMemoryChannelLayer", "config.channel_layer.InMemoryChannelLayer"]
)
def test_several_workers_are_refused_on_the_in_memory_layer(settings: Any, backend: str) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": backend}}
    with pytest.raises(CommandError, match="REDIS_URL"):
        check_workers(4)
    check_workers(1)


def test_several_workers_are_allowed_with_redis(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": ["redis://x"]}}
    }
    check_workers(4)
