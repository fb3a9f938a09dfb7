"""Project-wide test setup."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_bots(request: pytest.FixtureRequest) -> None:
    """Bots answer at once in tests; the human-like delay is for children.

    Engine tests also run without Django (``-p no:django``), so the settings
    fixture is only asked for when pytest-django is loaded."""
    if request.config.pluginmanager.hasplugin("django"):
        settings = request.getfixturevalue("settings")
        settings.BOT_DELAY_RANGE = (0.0, 0.0)
