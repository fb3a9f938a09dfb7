"""Live pages are told "something changed", after commit only, so they never
render data that is then rolled back. Each page then reads what it shows."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from cardgames import services as cardgames_services


def projector_group(session_id: int) -> str:
    return f"projector.{session_id}"


def lobby_group(session_id: int) -> str:
    return f"lobby.{session_id}"


def monitor_group(session_id: int) -> str:
    """Only the teacher's monitor joins it: "needs help now" is pushed here,
    never to the projector's or a pupil's group."""
    return f"monitor.{session_id}"


def notify_on_commit(group: str, message: dict[str, Any]) -> None:
    """Tell every live page of ``group`` that something changed, after commit.
    From a move's receivers run after the mover's reply (the learning record's
    push to the monitor), the table socket makes the send on its event loop
    (``cardgames.services.group_send_after_reply``); elsewhere it is sent here."""

    def send() -> None:
        if cardgames_services.group_send_after_reply(group=group, message=message):
            return
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, message)

    transaction.on_commit(send)


def session_changed(*, class_session_id: int) -> None:
    """The projector and the teacher's pages redraw the joined pupils."""
    notify_on_commit(projector_group(class_session_id), {"type": "pupils.changed"})
