"""Small helpers shared by the classroom's views: typed htmx requests, QR
codes, the links between pages, and the htmx-aware redirect."""

from __future__ import annotations

from typing import Any

import segno
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation

from cardgames.i18n import SESSION_LANGUAGE_KEY, request_language_set
from cardgames.views import HtmxHttpRequest
from classroom import services
from classroom.models import SchoolClass
from classroom.names import by_name
from classroom.pictures import avatar_url


def qr_svg(url: str, *, scale: int = 6) -> str:
    """An inline SVG QR code (segno), dark on light, with a quiet zone."""
    return segno.make(url, error="m").svg_inline(
        scale=scale, border=2, dark="#2d2430", light="#ffffff", omitsize=True
    )


def table_url(table_id: int) -> str:
    return reverse("cardgames:table", kwargs={"table_id": table_id})


def monitor_url(session_id: int) -> str:
    return reverse("classroom:monitor", kwargs={"session_id": session_id})


def join_url(request: HttpRequest) -> str:
    return request.build_absolute_uri(reverse("classroom:join"))


def hx_redirect(request: HtmxHttpRequest, target: str) -> HttpResponse:
    """Go to ``target``: an ``HX-Redirect`` for htmx (the whole page moves, not
    the swapped fragment), a plain redirect otherwise."""
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return response
    return redirect(target)


# Whether the tablet reads the turn line and the feedback aloud by itself (the
# class's ``read_aloud``, issue 50). Kept in the session beside the language
# because the table page belongs to ``cardgames``, which knows seats and never
# classes: it only finds the flag there (templates/cardgames/_speak_script.html).
READ_ALOUD_KEY = "read_aloud"


def tablet_read_aloud_set(request: HttpRequest, school_class: Any) -> None:
    """The class's "lire à voix haute automatiquement", for this tablet's pages.
    Written each time the tablet meets its class (code, login, lobby), so a
    teacher's change reaches a tablet at its next step, not next week."""
    wanted = bool(getattr(school_class, "read_aloud", False))
    if request.session.get(READ_ALOUD_KEY) != wanted:  # no session write when unchanged
        request.session[READ_ALOUD_KEY] = wanted


def tablet_language_set(request: HttpRequest, school_class: Any) -> None:
    """From the moment a tablet knows its class, it speaks the class's language
    (kept in the session, so its pages and its websockets agree); a class
    without one leaves each tablet in its browser's language. The class's
    read-aloud choice travels with it (``tablet_read_aloud_set``)."""
    tablet_read_aloud_set(request, school_class)
    language = getattr(school_class, "language", "")
    if language:
        request.session[SESSION_LANGUAGE_KEY] = language
        request_language_set(request, language)
    elif request.session.pop(SESSION_LANGUAGE_KEY, None) is not None:
        request_language_set(request, translation.get_language_from_request(request))


def name_buttons(pupils: Any) -> list[dict[str, Any]]:
    """The big name buttons of the join and practice flows (a locked card
    shows), in the order a child looks for their name (``name_sort_key``)."""
    return [
        {"pupil": p, "avatar_url": avatar_url(p.avatar), "locked": services.pupil_is_locked(p)}
        for p in by_name(pupils, lambda p: p.display_name)
    ]


# The class a tablet last practised or played a lesson with, so the entry page
# (linked from the home and join pages) can offer it back: signed, HTTP-only,
# and only as secret as the class's printed QR code it comes from.
PRACTICE_CLASS_COOKIE = "practice_class"
PRACTICE_CLASS_SALT = "classroom.practice-class"
PRACTICE_CLASS_MAX_AGE = 365 * 24 * 3600


def token_cookie_secure(request: HttpRequest | None = None) -> bool:
    """Whether a cookie that carries a token gets the ``Secure`` flag: always
    in production (``DJANGO_ENV=production`` sets ``SESSION_COOKIE_SECURE``,
    and a proxy that forgets ``X-Forwarded-Proto`` must not make the browser
    send the token in clear), and whenever the request came over HTTPS. Off
    only in development over plain http, where a Secure cookie would never
    come back."""
    return bool(
        settings.SESSION_COOKIE_SECURE
        or getattr(settings, "PRODUCTION", False)
        or (request is not None and request.is_secure())
    )


def remember_practice_class(
    response: HttpResponse, school_class: SchoolClass, request: HttpRequest | None = None
) -> None:
    """Signed, HttpOnly, SameSite=Lax and, in production, Secure: it holds the
    class link's token."""
    response.set_signed_cookie(
        PRACTICE_CLASS_COOKIE,
        school_class.link_token,
        salt=PRACTICE_CLASS_SALT,
        max_age=PRACTICE_CLASS_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=token_cookie_secure(request),
        path="/practice/",
    )
