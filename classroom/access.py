"""Every "who may see or do this" rule of the classroom, in one place.

The ``access_*`` helpers return the object or raise the *same* ``Http404``
whether it is missing or belongs to someone else, so an id in a URL tells a
stranger nothing (not even that it exists). Views and consumers call these
and nothing else to authorise.

Two kinds of people:

- a **teacher** is an authenticated user, and owns their classes and all that
  hangs off them (pupils, sessions, groups, tablets);
- a **pupil** is an anonymous browser session that went through the join flow:
  ``session["player_key"]`` (``"pupil:<id>"``), ``session["pupil_id"]`` and
  ``session["class_session_id"]``; valid only while that class session is open.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import Http404
from django.utils import timezone

from cardgames.access import TableAccess
from cardgames.models import Table
from classroom.models import (
    ClassSession,
    ParentLink,
    Pupil,
    SchoolClass,
    SessionGroup,
    TabletLogin,
)

NOT_FOUND = "Not found."


def _is_teacher(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


# ------------------------------------------------------------------ teacher side
def access_class(user: Any, class_id: Any) -> SchoolClass:
    if not _is_teacher(user) or _int(class_id) is None:
        raise Http404(NOT_FOUND)
    try:
        return SchoolClass.objects.get(pk=_int(class_id), teacher=user)
    except SchoolClass.DoesNotExist:
        raise Http404(NOT_FOUND) from None


def access_pupil(user: Any, pupil_id: Any) -> Pupil:
    if not _is_teacher(user) or _int(pupil_id) is None:
        raise Http404(NOT_FOUND)
    try:
        return Pupil.objects.select_related("school_class").get(
            pk=_int(pupil_id), school_class__teacher=user
        )
    except Pupil.DoesNotExist:
        raise Http404(NOT_FOUND) from None


def access_session(user: Any, session_id: Any) -> ClassSession:
    if not _is_teacher(user) or _int(session_id) is None:
        raise Http404(NOT_FOUND)
    try:
        return ClassSession.objects.select_related("school_class").get(
            pk=_int(session_id), school_class__teacher=user
        )
    except ClassSession.DoesNotExist:
        raise Http404(NOT_FOUND) from None


def access_open_session(user: Any, session_id: Any) -> ClassSession:
    """A session the teacher may still steer (grouping, starting tables)."""
    class_session = access_session(user, session_id)
    if not class_session.is_open:
        raise Http404(NOT_FOUND)
    return class_session


def access_group(user: Any, group_id: Any) -> SessionGroup:
    if not _is_teacher(user) or _int(group_id) is None:
        raise Http404(NOT_FOUND)
    try:
        return SessionGroup.objects.select_related("class_session__school_class").get(
            pk=_int(group_id), class_session__school_class__teacher=user
        )
    except SessionGroup.DoesNotExist:
        raise Http404(NOT_FOUND) from None


def access_login(user: Any, login_id: Any) -> TabletLogin:
    if not _is_teacher(user) or _int(login_id) is None:
        raise Http404(NOT_FOUND)
    try:
        return TabletLogin.objects.select_related("class_session", "pupil").get(
            pk=_int(login_id), class_session__school_class__teacher=user
        )
    except TabletLogin.DoesNotExist:
        raise Http404(NOT_FOUND) from None


def access_session_pupil(class_session: ClassSession, pupil_id: Any) -> Pupil:
    """A pupil of the session's class (the teacher already passed ``access_session``)."""
    try:
        return Pupil.objects.get(pk=_int(pupil_id), school_class_id=class_session.school_class_id)
    except (Pupil.DoesNotExist, ValueError, TypeError):
        raise Http404(NOT_FOUND) from None


# ------------------------------------------------------------------ pupil side
JOIN_SESSION_KEY = "join_session_id"


def joining_session(session: Mapping[str, Any]) -> ClassSession | None:
    """The open class session this tablet typed the code of (step 2 and 3)."""
    session_id = _int(session.get(JOIN_SESSION_KEY))
    if session_id is None:
        return None
    return (
        ClassSession.objects.select_related("school_class")
        .filter(pk=session_id, ended_at__isnull=True)
        .first()
    )


def access_join_pupil(session: Mapping[str, Any], pupil_id: Any) -> tuple[ClassSession, Pupil]:
    """Step 3 of the join flow: only a pupil of the class whose code this tablet
    typed. Anyone else gets the same 404 as a missing pupil."""
    class_session = joining_session(session)
    if class_session is None or _int(pupil_id) is None:
        raise Http404(NOT_FOUND)
    try:
        pupil = Pupil.objects.get(pk=_int(pupil_id), school_class_id=class_session.school_class_id)
    except Pupil.DoesNotExist:
        raise Http404(NOT_FOUND) from None
    return class_session, pupil


@dataclass(frozen=True)
class PupilLogin:
    pupil: Pupil
    class_session: ClassSession


def logged_pupil(session: Mapping[str, Any]) -> PupilLogin | None:
    """The pupil this tablet is signed in as, while the session is open."""
    pupil_id = _int(session.get("pupil_id"))
    session_id = _int(session.get("class_session_id"))
    if pupil_id is None or session_id is None:
        return None
    class_session = (
        ClassSession.objects.select_related("school_class")
        .filter(pk=session_id, ended_at__isnull=True)
        .first()
    )
    if class_session is None:
        return None
    pupil = Pupil.objects.filter(pk=pupil_id, school_class_id=class_session.school_class_id).first()
    if pupil is None or session.get("player_key") != pupil.player_key:
        return None
    return PupilLogin(pupil=pupil, class_session=class_session)


# ------------------------------------------------------------------ tables
def session_id_of_table(table: Table) -> int | None:
    prefix, _sep, rest = table.group_key.partition(":")
    return _int(rest) if prefix == "session" else None


def table_access(
    *, user: Any, session: Mapping[str, Any] | None, table: Table
) -> TableAccess | None:
    """The rule ``cardgames`` asks through ``CARDGAMES_TABLE_ACCESS``.

    - the teacher who owns the class of the table's session steers it;
    - a pupil signed in to *that* session and seated at the table plays their seat;
    - anyone else gets ``None`` (a 404 / a closed socket, like a missing table).
    """
    session_id = session_id_of_table(table)
    if session_id is None:
        return None
    if (
        _is_teacher(user)
        and ClassSession.objects.filter(pk=session_id, school_class__teacher=user).exists()
    ):
        return TableAccess(seat=None, is_teacher=True)
    if session is None:
        return None
    login = logged_pupil(session)
    if login is None or login.class_session.pk != session_id:
        return None
    index = (
        table.seats.filter(player_key=login.pupil.player_key, is_bot=False)
        .values_list("index", flat=True)
        .first()
    )
    if index is None:
        return None
    # A pupil runs their own solo practice table (they may press "Rejouer").
    return TableAccess(seat=index, is_teacher=False, steers=login.class_session.practice)


def access_table_for_teacher(user: Any, table_id: Any) -> Table:
    """A table of one of the teacher's sessions."""
    table = Table.objects.filter(pk=_int(table_id)).first() if _int(table_id) is not None else None
    if table is None or table_access(user=user, session=None, table=table) is None:
        raise Http404(NOT_FOUND)
    return table


# ------------------------------------------------------------------ parent links
def access_parent_link(user: Any, link_id: Any) -> ParentLink:
    """A parent link of one of the teacher's pupils (to revoke it, print it)."""
    if not _is_teacher(user) or _int(link_id) is None:
        raise Http404(NOT_FOUND)
    try:
        return ParentLink.objects.select_related("pupil__school_class").get(
            pk=_int(link_id), pupil__school_class__teacher=user
        )
    except ParentLink.DoesNotExist:
        raise Http404(NOT_FOUND) from None


def parent_link_is_live(link: ParentLink | None) -> bool:
    return (
        link is not None
        and link.revoked_at is None
        and (link.expires_at is None or link.expires_at > timezone.now())
    )


def access_parent_token_hash(token_hash: str) -> ParentLink:
    """The live link whose token hashes to ``token_hash``. A wrong, revoked or
    expired token raise the same 404, so a parent (or a guesser) learns nothing."""
    link = (
        ParentLink.objects.select_related("pupil__school_class")
        .filter(token_hash=token_hash)
        .first()
    )
    if not parent_link_is_live(link):
        raise Http404(NOT_FOUND)
    assert link is not None
    return link
