"""Live pages are told "something changed", after commit only, so they never
render data that is then rolled back. Each page then reads what it shows."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from cardgames.services import group_notify


def projector_group(session_id: int) -> str:
    return f"projector.{session_id}"


def lobby_group(session_id: int) -> str:
    return f"lobby.{session_id}"


def monitor_group(session_id: int) -> str:
    """Only the teacher's monitor joins it: "needs help now" is pushed here,
    never to the projector's or a pupil's group."""
    return f"monitor.{session_id}"


def notify_on_commit(group: str, message: dict[str, Any]) -> None:
    """Tell every live page of ``group`` that something changed, after commit;
    in a server the database thread does not wait for the send (``group_notify``)."""
    transaction.on_commit(lambda: group_notify(group=group, message=message, about=group))


def session_changed(*, class_session_id: int) -> None:
    """The projector and the teacher's pages redraw the joined pupils."""
    notify_on_commit(projector_group(class_session_id), {"type": "pupils.changed"})
