"""Who sits where at a table, resolved in one place.

``cardgames`` never knows classes or pupils, so the rule that maps a browser
session to a seat is pluggable: the setting ``CARDGAMES_TABLE_ACCESS`` names a
function ``(*, user, session, table) -> TableAccess | None``. The classroom app
plugs in its own rule (pupils of the session, the class's teacher); the built-in
default only matches ``session["player_key"]`` against a seat's ``player_key``.

``None`` means "no access", and callers must make it look exactly like a table
that does not exist (same 404, same closed socket).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string

from cardgames.models import Table

DEFAULT_RESOLVER = "cardgames.access.default_table_access"


@dataclass(frozen=True)
class TableAccess:
    """What a connection may do at a table: play ``seat`` (``None``: watch the
    public view only) and, for a teacher, steer the table."""

    seat: int | None
    is_teacher: bool
    # May start a new game of the same players here ("Rejouer"): the teacher,
    # or a pupil at their own solo practice table.
    steers: bool = False


Resolver = Callable[..., TableAccess | None]


def default_table_access(
    *, user: Any, session: Mapping[str, Any] | None, table: Table
) -> TableAccess | None:
    """Seat the session whose ``player_key`` matches a seat; staff watch publicly."""
    key = session.get("player_key") if session is not None else None
    if isinstance(key, str) and key:
        index = (
            table.seats.filter(player_key=key, is_bot=False).values_list("index", flat=True).first()
        )
        if index is not None:
            return TableAccess(seat=index, is_teacher=False)
    if (
        user is not None
        and getattr(user, "is_authenticated", False)
        and getattr(user, "is_staff", False)
    ):
        return TableAccess(seat=None, is_teacher=True)
    return None


def _resolver() -> Resolver:
    path = getattr(settings, "CARDGAMES_TABLE_ACCESS", None) or DEFAULT_RESOLVER
    resolver: Resolver = import_string(path)
    return resolver


def resolve_table_access(
    *, user: Any, session: Mapping[str, Any] | None, table: Table
) -> TableAccess | None:
    """The access of this user/session at ``table``, through the configured rule.

    Synchronous (it may query the database): consumers call it through
    ``database_sync_to_async``."""
    return _resolver()(user=user, session=session, table=table)
