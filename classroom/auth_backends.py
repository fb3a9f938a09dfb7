"""Signing in a teacher whose address is not proven yet (issue 48).

A new teacher may prepare their first class before they open the mailed link;
the account is then a *draft*: inactive, with an unusable password and a
random ``draft:`` user name, so that no password form can ever open it and no
address is claimed before its owner proves it. Django's ``ModelBackend``
refuses every inactive user, so the browser that signed up holds its draft
through this backend, and through no other way.

A draft's session dies with its password hash, as every session does: a newer
sign-up for the same address or the activation (which sets the real password)
ends it. Nothing a pupil or a parent sees is reachable while the teacher is a
draft: every pupil-facing look-up requires an active teacher
(``classroom.access.PUPIL_FACING``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import BaseBackend

DRAFT_PREFIX = "draft:"
DRAFT_BACKEND = "classroom.auth_backends.DraftTeacherBackend"


def is_draft(user: Any) -> bool:
    """A teacher account waiting for its owner to open the mailed link."""
    return (
        user is not None
        and getattr(user, "is_authenticated", False)
        and not user.is_active
        and str(user.username).startswith(DRAFT_PREFIX)
        and not user.has_usable_password()
    )


class DraftTeacherBackend(BaseBackend):
    """Keeps the browser that signed up signed in to its draft; authenticates
    nobody (a draft has no password to check)."""

    def authenticate(self, request: Any, **credentials: Any) -> None:
        return None

    def get_user(self, user_id: Any) -> Any | None:
        user = get_user_model()._default_manager.filter(pk=user_id).first()
        return user if is_draft(user) else None
