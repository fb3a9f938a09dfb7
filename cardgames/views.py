"""The table pages: a pupil's seat, the projector, and the replay.

Pages are drawn server-side with the same fragments the websocket sends, so the
first paint needs no round trip and the socket only keeps it fresh.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django_htmx.middleware import HtmxDetails

from cardgames import engines, rendering, services, ui
from cardgames.access import TableAccess, resolve_table_access
from cardgames.models import GameEvent, Move, Table


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _access(request: HttpRequest, table_id: int) -> tuple[Table, TableAccess]:
    """The table and who the visitor is there; the same 404 whether the table is
    missing or not theirs."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise Http404
    access = resolve_table_access(user=request.user, session=request.session, table=table)
    if access is None:
        raise Http404
    return table, access


def table_page(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """A pupil's tablet at a table: one websocket, the seat's own view."""
    table, access = _access(request, table_id)
    if table.status == Table.Status.FINISHED and access.seat is not None:
        # A pupil reopening a game that went on at another table ("Rejouer").
        successor = services.table_successor(table=table)
        if successor is not None:
            return redirect("cardgames:table", table_id=successor.pk)
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    # Same rule as the socket (TableConsumer._steers): a teacher sees "Rejouer"
    # on the very first paint, not only after the first live update.
    context = rendering.seat_context(snap, access.seat, steer=access.is_teacher or access.steers)
    context.update(oob=False, notice="", ws_url=f"/ws/table/{table.pk}/", access=access)
    # A player's "Ce n'est pas moi" (shared tablets): the host app names the view.
    sign_out = getattr(settings, "CARDGAMES_SIGN_OUT_URL_NAME", "")
    if sign_out and access.seat is not None and not access.is_teacher:
        context["sign_out_url"] = reverse(sign_out)
    # The teacher's way back to the host app's live view (no dead end).
    back = getattr(settings, "CARDGAMES_TEACHER_BACK_URL_NAME", "")
    if back and access.is_teacher:
        context["teacher_back_url"] = reverse(back, args=[table.pk])
    return render(request, "cardgames/table.html", context)


def projector(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """The projector view of a table: public information only, live."""
    table, access = _access(request, table_id)
    if not access.is_teacher:
        raise Http404
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    context = rendering.seat_context(snap, None)
    # The projector's socket says so: the teacher's own socket would bring
    # the "Rejouer" button onto the class's screen with the first update.
    context.update(
        oob=False, notice="", ws_url=f"/ws/table/{table.pk}/?view=projector", access=access
    )
    return render(request, "cardgames/projector.html", context)


def replay_steps(table: Table) -> list[dict[str, Any]]:
    """The actions of a table, in order (the move log; the engine is deterministic)."""
    return list(
        Move.objects.filter(table=table).order_by("version").values("version", "seat", "action")
    )


def replay(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """A finished table, step by step, in the public view: the game is dealt
    again from its seed and the logged moves are applied up to ``step``; the
    public events of that step are read from the event log."""
    table, access = _access(request, table_id)
    if table.status != Table.Status.FINISHED:
        raise Http404
    engine = engines.get(table.game)
    moves = replay_steps(table)
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    step = max(0, min(step, len(moves)))
    players = table.seats.count()
    state = engine.new_game(players, table.seed, table.options)
    for move in moves[:step]:
        engine.apply(state, move["seat"], move["action"])
    snap = rendering.snapshot(table.pk)
    assert snap is not None
    snap.state = state
    snap.version = step
    # The replay is public: the table drawn as the projector sees it.
    context = rendering.seat_context(snap, None)
    adapter = ui.get(table.game)
    events = GameEvent.objects.filter(table=table, version=step, visible_to__isnull=True).order_by(
        "seq"
    )
    context.update(
        oob=False,
        notice="",
        step=step,
        steps=len(moves),
        step_events=[
            adapter.describe_event(event.payload, snap.seat_names, snap.table.options)
            for event in events
        ],
        prev_step=max(0, step - 1),
        next_step=min(len(moves), step + 1),
        access=access,
    )
    template = "cardgames/_replay_step.html" if request.htmx else "cardgames/replay.html"
    return render(request, template, context)
