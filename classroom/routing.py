"""Websocket routes of the classroom: lobby, projector and monitor."""

from typing import Any

websocket_urlpatterns: list[Any] = []
