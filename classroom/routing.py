"""Websocket routes of the classroom: lobby, projector and monitor."""

import importlib.util
from typing import Any

from django.urls import path

from classroom import consumers

websocket_urlpatterns: list[Any] = [
    path("ws/projector/<int:session_id>/", consumers.ProjectorConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
]

# The teacher's monitor (runtime engineer) adds its routes here, once
# ``classroom/monitor_routing.py`` exists.  -- MONITOR ROUTES --
if importlib.util.find_spec("classroom.monitor_routing") is not None:
    from classroom import monitor_routing

    websocket_urlpatterns += [*monitor_routing.websocket_urlpatterns]
