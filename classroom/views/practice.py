"""Solo practice pages: the class link → name → pictures → robots → a game;
and "Rejouer" at the end of any game."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cardgames import services as cardgames_services
from cardgames.engines.base import BOT_LEVELS
from cardgames.models import Table
from cardgames.parsing import whole_number
from cardgames.ui import bot_level_choices, practice_focus_line
from cardgames.views import HtmxHttpRequest
from classroom import access, selectors, services
from classroom.insights import PupilFocus
from classroom.keys import session_id_from_key
from classroom.models import (
    ClassSession,
    Pupil,
    SchoolClass,
)
from classroom.pictures import avatar_url
from classroom.services.practice import (
    MAX_BOTS,
    MAX_GAMES_PER_LOGIN,
    MIN_BOTS,
    practice_start,
)
from classroom.views.common import (
    PRACTICE_CLASS_COOKIE,
    PRACTICE_CLASS_SALT,
    hx_redirect,
    name_buttons,
    remember_practice_class,
    tablet_language_set,
)
from classroom.views.join import picture_pad

PRACTICE_PUPIL_KEY = "practice_pupil_id"
# What the picture code granted: the class, a fingerprint of the class link it
# came through (``access.class_link_fingerprint``) and the games started since.
PRACTICE_GRANT_KEY = "practice_grant"
# The lesson keys a practice game sets so the table lets the pupil in.
_PLAYER_KEYS = ("player_key", "pupil_id", "class_session_id")


def _practice_login_end(request: HttpRequest) -> None:
    """Forget the practice login (and the practice game's seat), keep the
    rest of the session (the tablet's language)."""
    request.session.pop(PRACTICE_PUPIL_KEY, None)
    request.session.pop(PRACTICE_GRANT_KEY, None)
    if _in_practice_game(request.session.get("class_session_id")):
        for key in _PLAYER_KEYS:
            request.session.pop(key, None)


def _in_practice_game(session_id: Any) -> bool:
    """The session's seat is at a practice game (a lesson's stays untouched)."""
    return (
        isinstance(session_id, int)
        and ClassSession.objects.filter(pk=session_id, practice=True).exists()
    )


def _ended(request: HttpRequest) -> HttpResponse:
    """The readable page of a practice login that ended (link rotated,
    practice closed or outside its hours): the tablet is signed out of it."""
    _practice_login_end(request)
    return render(request, "classroom/practice/ended.html", status=403)


def _practising_pupil(request: HttpRequest) -> tuple[Pupil | None, bool]:
    """The pupil of this tablet's practice login, and whether a login was
    there at all: ``(None, True)`` means it ended and must be refused."""
    pupil_id = request.session.get(PRACTICE_PUPIL_KEY)
    if not isinstance(pupil_id, int):
        return None, False
    pupil = Pupil.objects.select_related("school_class").filter(pk=pupil_id).first()
    grant = request.session.get(PRACTICE_GRANT_KEY)
    if pupil is None or not access.practice_login_holds(grant, pupil.school_class):
        return None, True
    return pupil, False


def _games_left(request: HttpRequest) -> bool:
    grant = request.session.get(PRACTICE_GRANT_KEY)
    games = grant.get("games") if isinstance(grant, dict) else None
    return isinstance(games, int) and games < MAX_GAMES_PER_LOGIN


def _game_counted(request: HttpRequest) -> None:
    grant = dict(request.session[PRACTICE_GRANT_KEY])
    grant["games"] = int(grant.get("games", 0)) + 1
    request.session[PRACTICE_GRANT_KEY] = grant


def _pictures_again(request: HttpRequest, pupil: Pupil) -> HttpResponse:
    """After ``MAX_GAMES_PER_LOGIN`` games: straight back to the child's own
    two pictures (no name to find again), the kindest way to sign in anew."""
    url = reverse("classroom:practice_pupil", args=[pupil.school_class.link_token, pupil.pk])
    _practice_login_end(request)
    return hx_redirect(request, url)


def practice_entry(request: HttpRequest) -> HttpResponse:
    """``/practice/``, linked from the home and join pages: always a page that
    helps. A tablet that already played with a class gets a button to that
    class's practice (or is told the teacher switched it off); any other is
    told how to get in (the QR code of their login card)."""
    token = request.get_signed_cookie(PRACTICE_CLASS_COOKIE, default=None, salt=PRACTICE_CLASS_SALT)
    school_class = SchoolClass.objects.filter(link_token=token).first() if token else None
    return render(request, "classroom/practice/entry.html", {"school_class": school_class})


def practice_names(request: HttpRequest, link_token: str) -> HttpResponse:
    school_class = access.access_practice_class(link_token)
    tablet_language_set(request, school_class)
    pupils = name_buttons(school_class.pupils.all())
    response = render(
        request,
        "classroom/practice/names.html",
        {"school_class": school_class, "pupils": pupils, "link_token": link_token},
    )
    remember_practice_class(response, school_class, request)
    return response


def practice_pupil(request: HtmxHttpRequest, link_token: str, pupil_id: int) -> HttpResponse:
    """The two pictures, checked (and locked after too many tries) exactly as
    in the lesson's join flow."""
    school_class = access.access_practice_class(link_token)
    pupil = Pupil.objects.filter(pk=pupil_id, school_class=school_class).first()
    if pupil is None:
        raise Http404(access.NOT_FOUND)
    pad, ok = picture_pad(request, pupil)
    if ok:
        request.session.cycle_key()
        request.session[PRACTICE_PUPIL_KEY] = pupil.pk
        request.session[PRACTICE_GRANT_KEY] = {
            "class_id": school_class.pk,
            "link": access.class_link_fingerprint(school_class.link_token),
            "games": 0,
        }
        tablet_language_set(request, school_class)
        # A shared tablet: the practice login ends after a short idle time
        # (not the lesson's school day), so the next child is not this one.
        request.session.set_expiry(settings.PRACTICE_LOGIN_IDLE_SECONDS)
        return hx_redirect(request, reverse("classroom:practice_setup"))
    context: dict[str, Any] = {
        "school_class": school_class,
        "link_token": link_token,
        "pad_url": reverse("classroom:practice_pupil", args=[link_token, pupil.pk]),
        **pad,
    }
    template = (
        "classroom/join/_pictures.html"
        if request.htmx
        else "classroom/practice/pictures.html"
    )
    return render(request, template, context)


def practice_setup(request: HttpRequest) -> HttpResponse:
    """How many robots, how strong; then the game starts. A targeted practice
    the teacher assigned comes first; otherwise, when the pupil's records show
    facts to work on, "Entraînement ciblé" is offered next to the usual game.

    Every request checks the login still holds (link not rotated, practice
    open now); a login that started ``MAX_GAMES_PER_LOGIN`` games asks for
    the two pictures again."""
    pupil, ended = _practising_pupil(request)
    if ended:
        return _ended(request)
    if pupil is None:
        return redirect("classroom:join")
    if not _games_left(request):
        return _pictures_again(request, pupil)
    assignment = selectors.open_assignment(pupil=pupil)
    focus = (
        PupilFocus.from_json(assignment.focus)
        if assignment is not None
        else selectors.pupil_focus_of(pupil=pupil)
    )
    error = ""
    bots, level = 2, "easy"
    if request.method == "POST":
        raw_bots, level = request.POST.get("bots", ""), request.POST.get("level", "")
        bots = whole_number(raw_bots) or 0
        targeted = request.POST.get("mode") == "focus" and bool(focus)
        if MIN_BOTS <= bots <= MAX_BOTS and level in BOT_LEVELS:
            table = practice_start(
                pupil=pupil,
                bots=bots,
                level=level,
                focus=focus if targeted and assignment is None else None,
                assignment=assignment if targeted else None,
            )
            _game_counted(request)
            request.session["player_key"] = pupil.player_key
            request.session["pupil_id"] = pupil.pk
            request.session["class_session_id"] = session_id_from_key(table.group_key)
            request.session.set_expiry(settings.PRACTICE_LOGIN_IDLE_SECONDS)
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
            "levels": bot_level_choices(),
            "bots": bots,
            "level": level,
            "error": error,
            "assignment": assignment,
            "focus_line": practice_focus_line(focus.entry(seat=0)) if focus else "",
        },
    )


@require_POST
def table_rematch(request: HttpRequest, table_id: int) -> HttpResponse:
    """ "Rejouer" at the end of a game: the teacher of the session, or the
    pupil at their own practice table. Anyone else: the usual 404. For the
    pupil it is a practice request like the others: refused once the login
    ended, and it counts as one of the login's games."""
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
    if not table_access.is_teacher:
        pupil, ended = _practising_pupil(request)
        if ended or pupil is None:
            return _ended(request)
        # A second tap on "Rejouer" lands on the game the first one started:
        # only a new game counts.
        if cardgames_services.table_successor(table=table) is None:
            if not _games_left(request):
                return _pictures_again(request, pupil)
            _game_counted(request)
    try:
        new = services.table_rematch(table=table)
    except ValidationError as refused:
        # The teacher regrouped this table's pupils meanwhile: say so on the
        # session page, where the new tables are (an error page before).
        session_id = session_id_from_key(table.group_key or "")
        if table_access.is_teacher and session_id is not None:
            messages.warning(request, " ".join(refused.messages))
            return hx_redirect(request, reverse("classroom:session_detail", args=[session_id]))
        return hx_redirect(request, reverse("cardgames:table", args=[table.pk]))
    return hx_redirect(request, reverse("cardgames:table", args=[new.pk]))
