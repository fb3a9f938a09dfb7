"""Websocket route of the teacher's live monitor."""

from typing import Any

from django.urls import path

from classroom.monitor import MonitorConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/teacher/sessions/<int:session_id>/monitor/", MonitorConsumer.as_asgi()),
]
