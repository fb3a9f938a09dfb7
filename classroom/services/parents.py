"""Parent links: a private link per parent (a 198-bit token written without
look-alike characters, of which only the SHA-256 is stored), revocable at once."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from classroom.models import ParentLink, Pupil, new_parent_token, parent_token_canonical


def token_hash(token: str) -> str:
    """The stored hash: of the token's canonical form, so a parent typing it
    in capitals or without its dashes reaches the same link."""
    return hashlib.sha256(parent_token_canonical(token).encode()).hexdigest()


def parent_link_create(
    *, pupil: Pupil, expires_in_days: int | None
) -> tuple[ParentLink, str]:  # fmt: skip
    """A new parent link; returns the link and the raw token (shown once)."""
    token = new_parent_token()
    expires = timezone.now() + timedelta(days=expires_in_days) if expires_in_days else None
    link = ParentLink.objects.create(pupil=pupil, token_hash=token_hash(token), expires_at=expires)
    return link, token


def parent_link_revoke(*, link: ParentLink) -> None:
    """Revoke at once; the row stays so the teacher sees when it was revoked.
    Locks the row so two clicks revoke once."""
    with transaction.atomic():
        locked = ParentLink.objects.select_for_update().get(pk=link.pk)
        if locked.revoked_at is None:
            locked.revoked_at = timezone.now()
            locked.save(update_fields=["revoked_at"])
