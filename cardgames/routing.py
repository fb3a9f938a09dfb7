"""Websocket routes of the game platform (filled in by the live table runtime)."""

from typing import Any

websocket_urlpatterns: list[Any] = []
