"""Every "who may see or do this" rule of the classroom, in one place.

The ``access_*`` helpers return the object or raise the *same* ``Http404``
whether it is missing or belongs to someone else, so an id in a URL tells a
stranger nothing (not even that it exists). Views and consumers call these
and nothing else to authorise.

Two kinds of people:

- a **teacher** is an authenticated user, and owns their classes and all that
  hangs off them (pupils, sessions, groups, tablets);
- a **pupil** is an anonymous browser session that went through the join flow:
  ``session["player_key"]`` (``classroom.keys.pupil_key``), ``session["pupil_id"]`` and
  ``session["class_session_id"]``; valid only while that class session is open.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import time
from typing import Any, TypeVar

from django.db.models import Model, Q, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from cardgames.access import TableAccess
from cardgames.models import Table
from cardgames.parsing import whole_number
from classroom.keys import session_id_from_key
from classroom.models import (
    ClassSession,
    ParentLink,
    Pupil,
    SchoolClass,
    SessionGroup,
    TabletLogin,
)
from classroom.selectors.sessions import open_sessions

NOT_FOUND = "Not found."

#: The lessons and classes a pupil or a parent may reach: their teacher's
#: address is proven. A draft account (``classroom.auth_backends``) prepares
#: everything, but its codes, class links and parent links open nothing, so a
#: stranger's unproven account can show nobody anything (issue 48).
PUPIL_FACING = Q(school_class__teacher__is_active=True)

M = TypeVar("M", bound=Model)


def _is_teacher(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


def _int(value: Any) -> int | None:
    return whole_number(value, max_digits=18)


def _owned(user: Any, obj_id: Any, queryset: QuerySet[M], owner: str) -> M:
    """The object ``obj_id`` of ``queryset`` whose ``owner`` lookup is ``user``,
    or the one 404 for missing, foreign and malformed alike."""
    pk = _int(obj_id)
    if not _is_teacher(user) or pk is None:
        raise Http404(NOT_FOUND)
    found = queryset.filter(pk=pk, **{owner: user}).first()
    if found is None:
        raise Http404(NOT_FOUND)
    return found


# ------------------------------------------------------------------ teacher side
def access_class(user: Any, class_id: Any) -> SchoolClass:
    return _owned(user, class_id, SchoolClass.objects.all(), "teacher")


def access_pupil(user: Any, pupil_id: Any) -> Pupil:
    pupils = Pupil.objects.select_related("school_class")
    return _owned(user, pupil_id, pupils, "school_class__teacher")


def access_session(user: Any, session_id: Any) -> ClassSession:
    sessions = ClassSession.objects.select_related("school_class")
    return _owned(user, session_id, sessions, "school_class__teacher")


def access_open_session(user: Any, session_id: Any) -> ClassSession:
    """A session the teacher may still steer (grouping, starting tables)."""
    class_session = access_session(user, session_id)
    if not class_session.is_open:
        raise Http404(NOT_FOUND)
    return class_session


def access_group(user: Any, group_id: Any) -> SessionGroup:
    """A table of one of the teacher's sessions, on the grouping board."""
    groups = SessionGroup.objects.select_related("class_session__school_class")
    return _owned(user, group_id, groups, "class_session__school_class__teacher")


def access_login(user: Any, login_id: Any) -> TabletLogin:
    """A signed-in tablet of one of the teacher's sessions (to sign it out)."""
    logins = TabletLogin.objects.select_related("class_session", "pupil")
    return _owned(user, login_id, logins, "class_session__school_class__teacher")


def access_session_pupil(class_session: ClassSession, pupil_id: Any) -> Pupil:
    """A pupil of the session's class (the teacher already passed ``access_session``)."""
    pk = _int(pupil_id)
    pupil = (
        Pupil.objects.filter(pk=pk, school_class_id=class_session.school_class_id).first()
        if pk is not None
        else None
    )
    if pupil is None:
        raise Http404(NOT_FOUND)
    return pupil


def access_practice_class(link_token: str) -> SchoolClass:
    """The class of a printed link, if it allows solo practice. A wrong link and
    a class without practice give the same 404."""
    school_class = SchoolClass.objects.filter(link_token=link_token, teacher__is_active=True).first()
    if school_class is None or not practice_open_now(school_class):
        raise Http404(NOT_FOUND)
    return school_class


def practice_open_now(school_class: SchoolClass) -> bool:
    """Solo practice is allowed by the teacher's switch and, if set, only
    between the class's practice hours (local time; ``until`` before ``from``
    spans midnight). Outside them the class link lists no names."""
    if not school_class.practice_allowed:
        return False
    start, end = school_class.practice_from, school_class.practice_until
    if start is None and end is None:
        return True
    now = timezone.localtime().time()
    start = start or time.min
    end = end or time.max
    return start <= now <= end if start <= end else (now >= start or now <= end)


def class_link_fingerprint(link_token: str) -> str:
    """What a practice login remembers of the class link it came through: a
    hash, so the session store never holds the printed link itself, and the
    login ends when the teacher rotates the link (a new token, a new hash)."""
    return hashlib.sha256(link_token.encode()).hexdigest()


def practice_login_holds(grant: Any, school_class: SchoolClass) -> bool:
    """A practice login (the ``grant`` stored in the tablet's session at the
    picture code) is still good for ``school_class``: same class, the link it
    was granted under was not rotated since, and practice is open right now
    (the teacher's switch and hours). Checked on every practice request."""
    if not isinstance(grant, dict) or grant.get("class_id") != school_class.pk:
        return False
    link = grant.get("link")
    return (
        isinstance(link, str)
        and constant_time_compare(link, class_link_fingerprint(school_class.link_token))
        and practice_open_now(school_class)
    )


# ------------------------------------------------------------------ pupil side
JOIN_SESSION_KEY = "join_session_id"


def joining_session(session: Mapping[str, Any]) -> ClassSession | None:
    """The open class session this tablet typed the code of (step 2 and 3)."""
    session_id = _int(session.get(JOIN_SESSION_KEY))
    if session_id is None:
        return None
    # The same rule as the code's look-up: an idle lesson lets nobody in.
    return (
        open_sessions().select_related("school_class").filter(PUPIL_FACING, pk=session_id).first()
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
        .filter(PUPIL_FACING, pk=session_id, ended_at__isnull=True)
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
    return session_id_from_key(table.group_key)


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


# ------------------------------------------------------------------ parent links
def access_parent_link(user: Any, link_id: Any) -> ParentLink:
    """A parent link of one of the teacher's pupils (to revoke it, print it)."""
    links = ParentLink.objects.select_related("pupil__school_class")
    return _owned(user, link_id, links, "pupil__school_class__teacher")


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
        .filter(token_hash=token_hash, pupil__school_class__teacher__is_active=True)
        .first()
    )
    if not parent_link_is_live(link):
        raise Http404(NOT_FOUND)
    assert link is not None
    return link
