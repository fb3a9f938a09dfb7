"""Shared fixtures for classroom tests."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _clean_cache() -> None:
    """Rate-limit counters live in the cache: each test starts from zero."""
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    """Teachers made by factories hash their password: keep it quick in tests."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
