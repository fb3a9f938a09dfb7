"""Game tables of a session: deal one per ready group, and "Rejouer"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from cardgames import engines, revocation, ui
from cardgames import services as cardgames_services
from cardgames.models import Table
from classroom.insights import PupilFocus
from classroom.keys import session_id_from_key
from classroom.models import Attendance, ClassSession, Pupil, SessionGroup, TabletLogin
from classroom.selectors.focus import pupil_focus_of
from classroom.services.events import lobby_group, notify_on_commit, projector_group
from classroom.services.groups import group_options, group_seat_count


def pupil_seat(pupil: Pupil) -> cardgames_services.SeatSpec:
    """The seat a pupil takes at a table: ``cardgames`` knows only their key,
    name and animal."""
    return cardgames_services.SeatSpec(
        player_key=pupil.player_key, display_name=pupil.display_name, avatar=pupil.avatar
    )


@dataclass
class StartReport:
    started: list[Table]
    problems: list[str]


def tables_start(*, class_session: ClassSession) -> StartReport:
    """Create and deal a ``cardgames`` table for every ready group, each with its
    own seed and its options (the session's plus the table's overrides).

    Each table is its own transaction (``table_create``/``table_start`` take the
    table lock), so one impossible table does not stop the others; its problem
    comes back as a sentence for the teacher. Each group row is locked and
    re-checked first, so a double submission starts one table per group.
    Lobbies hear of it on commit. With the session's "cartes ciblées pour
    chaque table", each pupil seat gets targeted cards for that pupil's own
    facts (``_with_focus``)."""
    engine = engines.get(class_session.game)
    report = StartReport(started=[], problems=[])
    groups = class_session.groups.filter(table__isnull=True).order_by("number")
    for group in groups:
        members = list(
            Attendance.objects.filter(group=group)
            .select_related("pupil")
            .order_by("joined_at", "id")
        )
        if not members:
            continue
        seats = [pupil_seat(a.pupil) for a in members]
        for n in range(group_seat_count(group, len(members)) - len(members)):
            seats.append(cardgames_services.bot_seat(level=group.bot_level, number=n + 1))
        if not engine.min_players <= len(seats) <= engine.max_players:
            report.problems.append(
                _("Table %(n)s : il faut entre %(lo)s et %(hi)s joueurs (ajoutez des robots).")
                % {"n": group.number, "lo": engine.min_players, "hi": engine.max_players}
            )
            continue
        options = group_options(group)
        if class_session.targeted_cards and ui.get(class_session.game).targeted_cards:
            options = _with_focus(options, [a.pupil for a in members])
        try:
            with transaction.atomic():
                # Idempotent under a double submission ("Lancer" tapped twice,
                # two teacher tabs): the group row is locked and re-read, and a
                # group another request already started is left alone.
                locked = SessionGroup.objects.select_for_update().get(pk=group.pk)
                if locked.table_id is not None:
                    continue
                table = cardgames_services.table_create(
                    game=class_session.game,
                    seats=seats,
                    options=options,
                    group_key=class_session.group_key,
                    number=group.number,
                    # Stored untranslated: each screen says it in its own language.
                    label=gettext_noop("Table %(n)s"),
                )
                cardgames_services.table_start(table=table)
                group.table = table
                group.save(update_fields=["table"])
                notify_on_commit(lobby_group(class_session.pk), {"type": "tables.started"})
                tablets_follow(
                    class_session=class_session,
                    pupils=[a.pupil for a in members],
                    table_id=table.pk,
                )
        except ValueError as exc:
            report.problems.append(
                _("Table %(n)s : %(msg)s") % {"n": group.number, "msg": str(exc)}
            )
            continue
        report.started.append(table)
    return report


def _with_focus(options: dict[str, Any], pupils: list[Pupil]) -> dict[str, Any]:
    """The table's options plus targeted cards for each pupil seat (pupils sit
    first, in this order), from each pupil's own records. Facts the table's
    ``tables`` option left out of the deck are dropped, so a targeted table
    always deals; a pupil with nothing to target gets no entry."""
    keep = set(options.get("tables") or range(1, 11))
    entries = []
    for seat, pupil in enumerate(pupils):
        focus = pupil_focus_of(pupil=pupil)
        facts = tuple(f for f in focus.facts if f[0] in keep or f[1] in keep)
        kept = PupilFocus(facts=facts, crossing=focus.crossing)
        if kept:
            entries.append(kept.entry(seat=seat))
    return {**options, "focus": entries} if entries else options


def table_rematch(*, table: Table) -> Table:
    """ "Rejouer": a new game for the same players at the same table number,
    same seats (pupils and bots) and options, with a fresh seed. The old table
    keeps its log (replays, reports); its group now points at the new table,
    and every screen of the old table follows on commit. Takes the old table's
    lock, so two quick taps on "Rejouer" start one new game only."""
    with transaction.atomic():
        old = Table.objects.select_for_update().get(pk=table.pk)
        successor = cardgames_services.table_successor(table=old)
        if successor is not None:
            return successor
        if SessionGroup.objects.filter(table=old, members__isnull=True).exists():
            # "Regrouper ces élèves" sent them elsewhere: the old seats would
            # take pupils away from their new tables.
            raise ValidationError(_("Ses élèves ont été regroupés : cette table ne peut plus rejouer."))
        seats = [
            cardgames_services.SeatSpec(
                player_key=seat.player_key,
                display_name=seat.display_name,
                avatar=seat.avatar,
                is_bot=seat.is_bot,
                bot_level=seat.bot_level,
            )
            for seat in old.seats.order_by("index")
        ]
        new = cardgames_services.table_create(
            game=old.game,
            seats=seats,
            options=dict(old.options),
            group_key=old.group_key,
            number=old.number,
            label=old.label,
        )
        cardgames_services.table_start(table=new)
        if old.status != Table.Status.FINISHED:
            cardgames_services.table_end(table=old)
        SessionGroup.objects.filter(table=old).update(table=new)
        # The session page's board and the monitor draw the new game's state.
        session_id = session_id_from_key(old.group_key)
        if session_id is not None:
            notify_on_commit(projector_group(session_id), {"type": "pupils.changed"})
        # Through the table's own send (it names the table): a worker's hub
        # hands a table's sockets only the events that say which table.
        old_id, new_id = old.pk, new.pk
        transaction.on_commit(
            lambda: cardgames_services.table_notify(
                table_id=old_id, message={"type": "table.moved", "new_table_id": new_id}
            )
        )
    return new


def tablets_follow(*, class_session: ClassSession, pupils: list[Pupil], table_id: int) -> None:
    """Tell the tablets of ``pupils`` (after commit) that they have a seat at
    ``table_id``: a tablet still on a finished table's end screen, or on the
    "Cette place a été donnée à quelqu'un d'autre." screen, goes there by
    itself, and a lobby asks where to go. Sent to each tablet's own browser
    session group (``cardgames.revocation.session_group``), so no other
    tablet hears of it; it names a table, never a card."""
    keys = TabletLogin.objects.filter(
        class_session=class_session, pupil__in=pupils
    ).values_list("session_key", flat=True)
    for key in set(keys):
        if key:
            notify_on_commit(
                revocation.session_group(key), {"type": "pupil.seated", "table_id": table_id}
            )


def group_release(*, group: SessionGroup) -> int:
    """ "Regrouper ces élèves": the pupils of a finished table go back to the
    waiting list of the grouping board, to be put on new tables with the
    others (``groups_make`` keeps every started group, finished ones too, so
    without this they could never be grouped again in the same lesson).
    The group keeps its finished table, for its number and the replay.
    Locks the session; a table still playing is refused. Their tablets stay
    on the end screen and follow when their new table starts
    (``tablets_follow``). Returns how many pupils were released."""
    with transaction.atomic():
        ClassSession.objects.select_for_update().get(pk=group.class_session_id)
        locked = SessionGroup.objects.select_related("table").get(pk=group.pk)
        if locked.table is None or locked.table.status != Table.Status.FINISHED:
            raise ValidationError(_("Cette table n'a pas fini sa partie."))
        released = Attendance.objects.filter(group=locked).update(group=None)
        notify_on_commit(projector_group(locked.class_session_id), {"type": "pupils.changed"})
        notify_on_commit(lobby_group(locked.class_session_id), {"type": "groups.changed"})
    return released
