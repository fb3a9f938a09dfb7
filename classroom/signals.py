"""Deleting classroom data deletes the game data that hangs off it.

``cardgames`` does not know classes (a table only carries the opaque
``group_key``), so no foreign key cascades from a session to its tables: these
receivers do it. They fire for direct deletes and for cascades alike (deleting
a class deletes its sessions one by one through Django's collector), so
deleting a class, a session, or purging old sessions removes all game data.

One more receiver listens to the games themselves: a targeted practice the
teacher assigned is marked done when a game of it ends.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

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
