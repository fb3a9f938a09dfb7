"""The teacher's live monitor page; ``consumers.MonitorConsumer`` keeps it live."""

from __future__ import annotations

from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render

from cardgames.models import Table
from cardgames.parsing import whole_number
from classroom import access
from classroom.selectors.monitor import monitor_context


def monitor(request: HttpRequest, session_id: int) -> HttpResponse:
    """The monitor page; the websocket keeps it live."""
    class_session = access.access_session(request.user, session_id)
    context = monitor_context(class_session)
    context["ws_url"] = f"/ws/teacher/sessions/{class_session.pk}/monitor/"
    return render(request, "classroom/monitor/monitor.html", context)


def table_monitor(request: HttpRequest, table_id: int) -> HttpResponse:
    """The teacher's way back from a table's page (``CARDGAMES_TEACHER_BACK_URL_NAME``)
    to the live view of its session; the one 404 for a missing or foreign table."""
    pk = whole_number(table_id, max_digits=18)
    table = Table.objects.filter(pk=pk).only("group_key").first() if pk is not None else None
    session_id = access.session_id_of_table(table) if table is not None else None
    class_session = access.access_session(request.user, session_id)
    return redirect("classroom:monitor", session_id=class_session.pk)
