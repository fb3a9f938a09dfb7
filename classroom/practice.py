"""Solo practice: a pupil plays Chasse against 1 to 5 bots, with no lesson running.

The way in is the class's printed link or QR (``/c/<link_token>``): when no
session is open and the teacher allows practice for the class, the link leads
here. The pupil taps their name and their two pictures (the same picture-code
check and lock as the lesson's join flow), picks how many robots and how strong,
and plays. Each game is a ``ClassSession(practice=True)`` of its own, without a
join code, so its learning records are flagged ``practice`` and the reports can
keep them apart. It stays open while the pupil plays (and presses "Rejouer"),
and ends when they start another practice or the teacher opens a lesson.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cardgames import services as cardgames_services
from cardgames.engines.base import BOT_LEVELS
from cardgames.models import Table
from classroom import access, services
from classroom.join_views import picture_pad
from classroom.models import ClassSession, Pupil, SchoolClass
from classroom.pictures import avatar_url

GAME = "chasse"
PRACTICE_PUPIL_KEY = "practice_pupil_id"
MIN_BOTS, MAX_BOTS = 1, 5
LEVEL_LABELS = {
    "easy": _("Facile"),
    "medium": _("Moyen"),
    "hard": _("Difficile"),
}


# ------------------------------------------------------------------ services
def practice_class(link_token: str) -> SchoolClass:
    """The class of a printed link, if it allows practice. A wrong link and a
    class without practice give the same 404."""
    school_class = SchoolClass.objects.filter(link_token=link_token).first()
    if school_class is None or not school_class.practice_allowed:
        raise Http404(access.NOT_FOUND)
    return school_class


def practice_end(*, pupil: Pupil) -> None:
    """End the pupil's practice games still open (a new one starts, or one ended)."""
    ClassSession.objects.filter(
        school_class_id=pupil.school_class_id,
        practice=True,
        ended_at__isnull=True,
        attendances__pupil=pupil,
    ).update(ended_at=timezone.now())


@transaction.atomic
def practice_start(*, pupil: Pupil, bots: int, level: str) -> Table:
    """A new practice game: its own practice session, a table with the pupil
    first then ``bots`` robots of ``level``, dealt at once. The class's
    options for practice are the game's defaults."""
    if not MIN_BOTS <= bots <= MAX_BOTS or level not in BOT_LEVELS:
        raise ValueError("bad practice settings")
    practice_end(pupil=pupil)
    class_session = ClassSession.objects.create(
        school_class_id=pupil.school_class_id, game=GAME, options={}, practice=True
    )
    class_session.attendances.create(pupil=pupil)
    seats = [
        cardgames_services.SeatSpec(
            player_key=pupil.player_key, display_name=pupil.display_name, avatar=pupil.avatar
        )
    ] + [cardgames_services.bot_seat(level=level, number=n + 1) for n in range(bots)]
    table = cardgames_services.table_create(
        game=GAME,
        seats=seats,
        options={},
        group_key=class_session.group_key,
        number=1,
        label=_("Entraînement"),
    )
    cardgames_services.table_start(table=table)
    return table


# ------------------------------------------------------------------ views
def _practising_pupil(request: HttpRequest) -> Pupil | None:
    pupil_id = request.session.get(PRACTICE_PUPIL_KEY)
    if not isinstance(pupil_id, int):
        return None
    return (
        Pupil.objects.select_related("school_class")
        .filter(pk=pupil_id, school_class__practice_allowed=True)
        .first()
    )


def practice_names(request: HttpRequest, link_token: str) -> HttpResponse:
    school_class = practice_class(link_token)
    pupils = [
        {"pupil": p, "avatar_url": avatar_url(p.avatar), "locked": services.pupil_is_locked(p)}
        for p in school_class.pupils.all()
    ]
    return render(
        request,
        "classroom/practice/names.html",
        {"school_class": school_class, "pupils": pupils, "link_token": link_token},
    )


def practice_pupil(request: HttpRequest, link_token: str, pupil_id: int) -> HttpResponse:
    """The two pictures, checked (and locked after too many tries) exactly as
    in the lesson's join flow."""
    school_class = practice_class(link_token)
    pupil = Pupil.objects.filter(pk=pupil_id, school_class=school_class).first()
    if pupil is None:
        raise Http404(access.NOT_FOUND)
    pad, ok = picture_pad(request, pupil)
    if ok:
        request.session.cycle_key()
        request.session[PRACTICE_PUPIL_KEY] = pupil.pk
        target = reverse("classroom:practice_setup")
        if getattr(request, "htmx", False):
            response = HttpResponse(status=204)
            response["HX-Redirect"] = target
            return response
        return redirect(target)
    context: dict[str, Any] = {
        "school_class": school_class,
        "link_token": link_token,
        "pad_url": reverse("classroom:practice_pupil", args=[link_token, pupil.pk]),
        **pad,
    }
    template = (
        "classroom/join/_pictures.html"
        if getattr(request, "htmx", False)
        else "classroom/practice/pictures.html"
    )
    return render(request, template, context)


def practice_setup(request: HttpRequest) -> HttpResponse:
    """How many robots, how strong; then the game starts."""
    pupil = _practising_pupil(request)
    if pupil is None:
        return redirect("classroom:join")
    error = ""
    bots, level = 2, "easy"
    if request.method == "POST":
        raw_bots, level = request.POST.get("bots", ""), request.POST.get("level", "")
        bots = int(raw_bots) if raw_bots.isdigit() else 0
        if MIN_BOTS <= bots <= MAX_BOTS and level in BOT_LEVELS:
            table = practice_start(pupil=pupil, bots=bots, level=level)
            session_id = int(table.group_key.partition(":")[2])
            request.session["player_key"] = pupil.player_key
            request.session["pupil_id"] = pupil.pk
            request.session["class_session_id"] = session_id
            return redirect(reverse("cardgames:table", args=[table.pk]))
        error = _("Choisis le nombre de robots (1 à 5) et leur niveau.")
        bots, level = 2, "easy"
    return render(
        request,
        "classroom/practice/setup.html",
        {
            "pupil": pupil,
            "avatar_url": avatar_url(pupil.avatar),
            "bot_choices": range(MIN_BOTS, MAX_BOTS + 1),
            "levels": [(key, LEVEL_LABELS[key]) for key in BOT_LEVELS],
            "bots": bots,
            "level": level,
            "error": error,
        },
    )


@require_POST
def table_rematch(request: HttpRequest, table_id: int) -> HttpResponse:
    """ "Rejouer" at the end of a game: the teacher of the session, or the
    pupil at their own practice table. Anyone else: the usual 404."""
    table = Table.objects.filter(pk=table_id).first()
    table_access = (
        access.table_access(user=request.user, session=request.session, table=table)
        if table is not None
        else None
    )
    if (
        table is None
        or table_access is None
        or not (table_access.is_teacher or table_access.steers)
    ):
        raise Http404(access.NOT_FOUND)
    new = services.table_rematch(table=table)
    target = reverse("cardgames:table", args=[new.pk])
    if getattr(request, "htmx", False):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return response
    return redirect(target)
