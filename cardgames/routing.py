"""Websocket routes of the game platform."""

from typing import Any

from django.urls import path

from cardgames.consumers import TableConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/table/<int:table_id>/", TableConsumer.as_asgi()),
]
