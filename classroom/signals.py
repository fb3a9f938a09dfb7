"""Deleting classroom data deletes the game data that hangs off it.

``cardgames`` does not know classes (a table only carries the opaque
``group_key``), so no foreign key cascades from a session to its tables: these
receivers do it. They fire for direct deletes and for cascades alike (deleting
a class deletes its sessions one by one through Django's collector), so
deleting a class, a session, or purging old sessions removes all game data.

One more receiver listens to the games themselves: a targeted practice the
teacher assigned is marked done when a game of it ends.

And a teacher's live sockets (monitor, projector, tables) end with their login,
whichever way it ends: a logout revokes that browser session; a new password,
a deactivated or deleted account revokes every browser of that teacher
(``cardgames.revocation``). Hooked on the models and Django's own signals, so
every path (the logout page, the password reset, the admin, a shell) does it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

from cardgames import revocation
from cardgames.models import Seat, Table
from cardgames.signals import actions_applied
from classroom.keys import pupil_key
from classroom.models import ClassSession, Pupil
from classroom.services.practice import assignments_finish


@receiver(post_delete, sender=ClassSession, dispatch_uid="classroom_session_tables")
def delete_session_tables(
    sender: type[ClassSession], instance: ClassSession, **kwargs: Any
) -> None:
    """A session's tables (and their seats, states, events, moves) go with it."""
    Table.objects.filter(group_key=instance.group_key).delete()


@receiver(post_delete, sender=Pupil, dispatch_uid="classroom_pupil_seats")
def forget_pupil_in_seats(sender: type[Pupil], instance: Pupil, **kwargs: Any) -> None:
    """A deleted pupil's first name must not survive in old games: the seats
    become anonymous (the game record stays whole for the other players)."""
    Seat.objects.filter(player_key=pupil_key(instance.pk)).update(
        player_key="", display_name=str(_("Élève supprimé")), avatar=""
    )


@receiver(actions_applied, dispatch_uid="classroom_assignment_done")
def finish_assignment(sender: Any, **kwargs: Any) -> None:
    """A targeted practice the teacher assigned is done once a game of it
    ends. No query unless the move ended the game."""
    table = kwargs.get("table")
    if table is not None:
        assignments_finish(table_id=table.pk, events=kwargs.get("events") or [])


# ------------------------------------------------------------------ teacher logins
@receiver(user_logged_out, dispatch_uid="classroom_logout_sockets")
def close_logged_out_sockets(sender: Any, request: Any = None, **kwargs: Any) -> None:
    """Logging out ends this browser's live pages too: on a shared classroom
    PC the next person must not end the lesson from a monitor left open.
    Sent before Django flushes the session, so its key is still known."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key:
        revocation.session_revoke(session_key=key, reason=revocation.LOGGED_OUT)


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="classroom_user_password_seen")
def notice_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Remember whether this save changes the password or deactivates the
    account: Django then logs out every other browser of it (the session
    auth hash), and its open sockets must go too (``post_save`` below). No
    query for a save that cannot change them (``last_login`` on each login)."""
    instance._sockets_revoke = False
    if instance.pk is None:
        return
    fields = kwargs.get("update_fields")
    if fields is not None and not {"password", "is_active"} & set(fields):
        return
    if getattr(instance, "_password", None) is not None:  # set_password() was called
        instance._sockets_revoke = True
        return
    before = (
        get_user_model()
        ._default_manager.filter(pk=instance.pk)
        .values_list("password", "is_active")
        .first()
    )
    if before is not None and (
        before[0] != instance.password or (before[1] and not instance.is_active)
    ):
        instance._sockets_revoke = True


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="classroom_user_password_revoke")
def close_sockets_on_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    if getattr(instance, "_sockets_revoke", False):
        instance._sockets_revoke = False
        revocation.user_revoke(user_id=instance.pk)


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="classroom_user_delete_revoke")
def close_sockets_on_account_delete(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A deleted account's sockets close (on commit: a failed delete keeps them)."""
    if instance.pk is not None:
        revocation.user_revoke(user_id=instance.pk)
