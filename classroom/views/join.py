"""The pupil's way in, on a shared tablet: code → name → two pictures → lobby.

Each step is a server-rendered page whose buttons post to the server (htmx
swaps just the pad; without JavaScript the whole page reloads), so a
six-year-old only ever taps big buttons. Reloading or waking a sleeping tablet
lands on the right step: the state lives in the Django session.
"""

from __future__ import annotations

from typing import Any

from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cardgames import revocation
from cardgames.parsing import whole_number
from cardgames.views import HtmxHttpRequest
from classroom import access, ratelimit, selectors, services
from classroom.models import (
    ClassSession,
    Pupil,
    SchoolClass,
    TabletLogin,
)
from classroom.pictures import CODE_LENGTH, all_pictures, avatar_url, picture
from classroom.views.common import (
    hx_redirect,
    name_buttons,
    remember_practice_class,
    table_url,
    tablet_language_set,
    tablet_read_aloud_set,
)

LOGIN_KEYS = ("player_key", "pupil_id", "class_session_id")
TYPED_KEY = "join_typed"


def _client_net(request: HttpRequest) -> str:
    """The network a request's budget is drawn from (an IPv6 /64, an IPv4 address)."""
    return ratelimit.client_net(str(request.META.get("REMOTE_ADDR", "")))


def _device(request: HttpRequest) -> str:
    """The tablet, for the per-tablet counters: its session cookie, or ""
    without one (then only the network's budget applies: dropping the cookie
    gains nothing, since the network's counter caps every tablet behind it)."""
    return request.session.session_key or ""


def _render_pad(request: HtmxHttpRequest, template: str, context: dict[str, object]) -> HttpResponse:
    """The pad alone for htmx, the full page otherwise."""
    if request.htmx:
        return render(request, template, context)
    return render(request, "classroom/join/code.html", context)


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())[:6]


def join(request: HttpRequest) -> HttpResponse:
    """The numeric keypad. Each tap posts one ``key``; the digits typed so far
    live in the session (so fast taps, queued one after the other by
    ``hx-sync``, never lose a digit) and the 6th digit checks the code at once.

    Only a POST (CSRF-checked) ever checks a code. ``GET ?code=`` (the
    projector's QR, a link) prefills the digits and shows one big "Entrer"
    button, and writes nothing: a page on another site looping image requests
    to ``/join?code=…`` checks nothing, spends no budget and creates no
    session row (issue 44, items 2 and 14)."""
    if access.logged_pupil(request.session) is not None:
        return redirect("classroom:lobby")
    context: dict[str, object] = {"error": "", "prefilled": False}
    if request.method != "POST":
        code = _digits(request.GET.get("code", ""))
        if code:
            context["prefilled"] = True  # carried by a hidden field until the next tap
        else:
            code = str(request.session.get(TYPED_KEY, ""))
        context.update(code=code, digits=list(code.ljust(6)))
        return render(request, "classroom/join/code.html", context)
    if request.session.session_key is None:
        # A POST keeps its digits in the session anyway: create it now, so the
        # tablet's very first wrong code already counts against the tablet.
        request.session.save()
    whole = request.POST.get("code", "")
    code = _digits(whole) if whole else str(request.session.get(TYPED_KEY, ""))
    key = request.POST.get("key", "")
    if key == "back":
        code = code[:-1]
    elif key == "clear":
        code = ""
    elif key.isdigit() and len(key) == 1 and len(code) < 6:
        code += key
    if len(code) == 6:
        code, context["error"], found = _check_join_code(request, code)
        if found:
            return hx_redirect(request, reverse("classroom:join_names"))
    request.session[TYPED_KEY] = code
    context.update(code=code, digits=list(code.ljust(6)))
    return _render_pad(request, "classroom/join/_keypad_screen.html", context)


def _check_join_code(request: HttpRequest, code: str) -> tuple[str, str, bool]:
    """(digits left on the screen, message, whether the code opened a session).

    The code is looked up first. A right code gets in at once when the tablet
    and its network are within budget, and always from a network that
    already brought a tablet into this lesson (``ratelimit.lesson_home``).
    Otherwise the answer waits for the slow lane's slot, and "un instant" is
    said whatever the code was: answering "wrong" at once would let a guesser
    test codes at full speed (see ``classroom.ratelimit``)."""
    device, net = _device(request), _client_net(request)
    # An idle lesson lets nobody in, even before ``purge`` ends it.
    class_session = (
        selectors.open_sessions().filter(access.PUPIL_FACING, join_code=code).first()
    )
    home = class_session is not None and ratelimit.lesson_home(
        class_session_id=class_session.pk, net=net
    )
    gate = ratelimit.Gate.OPEN if home else ratelimit.join_code_gate(device=device, net=net)
    if gate is ratelimit.Gate.WAIT:
        return code, _("Un instant… puis touche à nouveau le dernier chiffre."), False
    if class_session is None:
        ratelimit.join_code_failed(device=device, net=net)
        if gate is ratelimit.Gate.SLOW:
            return (
                "",
                _("Trop d'essais. Attends un peu, puis réessaie avec ton maître ou ta maîtresse."),
                False,
            )
        return "", _("Ce code ne marche pas. Regarde bien le tableau et réessaie !"), False
    if not home:
        ratelimit.lesson_home_remember(class_session_id=class_session.pk, net=net)
    request.session[access.JOIN_SESSION_KEY] = class_session.pk
    request.session.pop(TYPED_KEY, None)
    tablet_language_set(request, class_session.school_class)
    return code, "", True


def class_link(request: HttpRequest, link_token: str) -> HttpResponse:
    """The QR printed on the cards: leads to whichever session of the class is open."""
    school_class = SchoolClass.objects.filter(link_token=link_token, teacher__is_active=True).first()
    class_session = (
        selectors.open_session_of_class(school_class=school_class) if school_class else None
    )
    if class_session is not None and class_session.practice:
        # A pupil's solo practice is nobody else's way in: look for a lesson.
        class_session = (
            selectors.open_sessions()
            .filter(school_class=school_class, practice=False)
            .order_by("-started_at", "-id")
            .first()
            if school_class
            else None
        )
    if class_session is None:
        if school_class is not None and access.practice_open_now(school_class):
            # No lesson running, and the teacher allows practice now.
            return render(
                request,
                "classroom/practice/no_session.html",
                {"link_token": link_token},
                status=404,
            )
        return render(request, "classroom/join/no_session.html", status=404)
    login = access.logged_pupil(request.session)
    if login is not None and login.class_session.pk == class_session.pk:
        return redirect("classroom:lobby")
    # A printed card is no way into a lesson: it leads to the keypad, where the
    # code on the board is still needed (never to the names past it).
    return redirect("classroom:join")


def join_names(request: HttpRequest) -> HttpResponse:
    if access.logged_pupil(request.session) is not None:
        return redirect("classroom:lobby")
    class_session = access.joining_session(request.session)
    if class_session is None:
        return redirect("classroom:join")
    pupils = name_buttons(class_session.school_class.pupils.all())
    return render(
        request, "classroom/join/names.html", {"class_session": class_session, "pupils": pupils}
    )


def picture_pad(request: HttpRequest, pupil: Pupil) -> tuple[dict[str, Any], bool]:
    """The two-picture pad shared by the lesson's join and solo practice: read
    the taps, check a complete code against the card's lock and the limits of
    this tablet and its network (``pupil_check_code``), and say whether the
    pupil got in. Returns the pad's context."""
    taps = (whole_number(p, max_digits=1) for p in request.POST.getlist("pick"))
    picks = [p for p in taps if p is not None][:CODE_LENGTH]
    pad: dict[str, Any] = {
        "pupil": pupil,
        "avatar_url": avatar_url(pupil.avatar),
        "pictures": all_pictures(),
        "picks": [picture(i) for i in picks],
        "slots": range(CODE_LENGTH),
        "error": "",
        "locked_seconds": 0,
        "needs_teacher": False,
        "tablet_stopped": False,
    }
    if services.pupil_is_locked(pupil):
        result = services.pupil_check_code(pupil=pupil, code=[])
        pad.update(
            picks=[], locked_seconds=result.seconds_left, needs_teacher=result.needs_teacher
        )
    elif request.method == "POST" and len(picks) == CODE_LENGTH:
        if request.session.session_key is None:
            request.session.save()  # the tablet's own counter needs a name
        result = services.pupil_check_code(
            pupil=pupil, code=picks, device=_device(request), net=_client_net(request)
        )
        if result.ok:
            return pad, True
        pad["picks"] = []
        if result.locked:
            pad["locked_seconds"] = result.seconds_left
            pad["needs_teacher"] = result.needs_teacher
        elif result.stopped:
            pad["tablet_stopped"] = True
        elif result.slowed:
            pad["error"] = _("Attends un peu avant de réessayer. Tu peux demander de l'aide.")
        else:
            pad["error"] = _("Oups, ce ne sont pas tes images. Essaie encore !")
    return pad, False


def join_pupil(request: HtmxHttpRequest, pupil_id: int) -> HttpResponse:
    """Two taps on pictures. The first is carried in a hidden field; the second
    submits the code. The session key is cycled on success (a tablet that was
    someone else a minute ago keeps nothing of them)."""
    class_session, pupil = access.access_join_pupil(request.session, pupil_id)
    if access.logged_pupil(request.session) is not None:
        return redirect("classroom:lobby")
    pad, ok = picture_pad(request, pupil)
    if ok:
        return _log_in(request, class_session, pupil)
    context: dict[str, object] = {"class_session": class_session, **pad}
    template = (
        "classroom/join/_pictures.html"
        if request.htmx
        else "classroom/join/pictures.html"
    )
    return render(request, template, context)


def _log_in(request: HttpRequest, class_session: ClassSession, pupil: Pupil) -> HttpResponse:
    request.session.cycle_key()
    request.session.pop(access.JOIN_SESSION_KEY, None)
    request.session["player_key"] = pupil.player_key
    request.session["pupil_id"] = pupil.pk
    request.session["class_session_id"] = class_session.pk
    tablet_language_set(request, class_session.school_class)
    request.session.save()
    services.tablet_login(
        class_session=class_session,
        pupil=pupil,
        session=request.session,
        device_label=str(request.META.get("HTTP_USER_AGENT", ""))[:80],
    )
    return hx_redirect(request, reverse("classroom:lobby"))


@require_POST
def join_back(request: HttpRequest) -> HttpResponse:
    """ "Ce n'est pas moi": back to the names (or to the keypad)."""
    return redirect(
        "classroom:join_names" if access.joining_session(request.session) else "classroom:join"
    )


def lobby(request: HttpRequest) -> HttpResponse:
    login = access.logged_pupil(request.session)
    if login is None:
        for key in LOGIN_KEYS:
            request.session.pop(key, None)
        return redirect("classroom:join")
    # The class's read-aloud choice as it is now: a teacher who turns it on
    # during the lesson reaches the tablets waiting here.
    tablet_read_aloud_set(request, login.class_session.school_class)
    table = selectors.pupil_table(class_session=login.class_session, pupil=login.pupil)
    if table is not None:
        return redirect(table_url(table.pk))
    response = render(
        request,
        "classroom/join/lobby.html",
        {
            "pupil": login.pupil,
            "avatar_url": avatar_url(login.pupil.avatar),
            "class_session": login.class_session,
            "group_number": selectors.pupil_group_number(
                class_session=login.class_session, pupil=login.pupil
            ),
        },
    )
    # The tablet remembers its class, for solo practice after the lesson.
    remember_practice_class(response, login.class_session.school_class)
    return response


def lobby_where(request: HttpRequest) -> HttpResponse:
    """Where this tablet belongs now, as an ``HX-Redirect`` (the lobby socket
    asks for it when tables start or the session ends)."""
    login = access.logged_pupil(request.session)
    if login is None:
        target = reverse("classroom:join")
    else:
        table = selectors.pupil_table(class_session=login.class_session, pupil=login.pupil)
        target = table_url(table.pk) if table else reverse("classroom:lobby")
    response = HttpResponse(status=204)
    response["HX-Redirect"] = target
    return response


@require_POST
def pupil_sign_out(request: HttpRequest) -> HttpResponse:
    """ "Ce n'est pas moi" on every pupil screen (shared tablets): the tablet
    forgets who it was, its table and lobby sockets close at once, and the
    next child starts from the keypad."""
    key = request.session.session_key
    for login in list(TabletLogin.objects.filter(session_key=key or "")):
        services.tablet_sign_out(login=login)
    request.session.flush()
    if key:
        revocation.session_revoke(session_key=key)
    return redirect("classroom:join")
