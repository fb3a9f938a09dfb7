"""Websocket routes of the classroom: projector, lobby and the teacher's monitor."""

from typing import Any

from django.urls import path

from classroom import consumers

websocket_urlpatterns: list[Any] = [
    path("ws/projector/<int:session_id>/", consumers.ProjectorConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/teacher/sessions/<int:session_id>/monitor/", consumers.MonitorConsumer.as_asgi()),
]
