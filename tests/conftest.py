"""Project-wide test setup."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_bots(settings: pytest.FixtureRequest) -> None:
    """Bots answer at once in tests; the human-like delay is for children."""
    settings.BOT_DELAY_RANGE = (0.0, 0.0)  # type: ignore[attr-defined]
