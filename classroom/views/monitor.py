"""The teacher's live monitor page; ``consumers.MonitorConsumer`` keeps it live."""

from __future__ import annotations

from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import render

from classroom import access
from classroom.selectors.monitor import monitor_context


def monitor(request: HttpRequest, session_id: int) -> HttpResponse:
    """The monitor page; the websocket keeps it live."""
    class_session = access.access_session(request.user, session_id)
    context = monitor_context(class_session)
    context["ws_url"] = f"/ws/teacher/sessions/{class_session.pk}/monitor/"
    return render(request, "classroom/monitor/monitor.html", context)
