"""A tablet becomes a pupil (after the join flow's checks), or is signed out."""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction

from cardgames import revocation
from classroom.models import Attendance, ClassSession, Pupil, TabletLogin
from classroom.services.events import session_changed


@transaction.atomic
def tablet_login(
    *, class_session: ClassSession, pupil: Pupil, session: SessionBase, device_label: str = ""
) -> TabletLogin:
    """Record that this tablet (its Django session) is now ``pupil``. The view
    has already cycled the session key. The projector hears of it on commit."""
    if session.session_key is None:
        session.save()
    Attendance.objects.get_or_create(class_session=class_session, pupil=pupil)
    login = TabletLogin.objects.create(
        class_session=class_session,
        pupil=pupil,
        session_key=session.session_key or "",
        device_label=device_label[:80],
    )
    session_changed(class_session_id=class_session.pk)
    return login


def tablet_sign_out(*, login: TabletLogin) -> None:
    """Sign a tablet out by deleting its Django session: whatever the tablet
    does next, it is a stranger again."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    store(session_key=login.session_key).delete()
    session_id = login.class_session_id
    with transaction.atomic():
        login.delete()
        session_changed(class_session_id=session_id)
        # Its open table sockets close now, and any message still in flight
        # finds the access gone (cardgames.revocation).
        revocation.session_revoke(session_key=login.session_key)
