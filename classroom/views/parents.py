"""Parent links, the parent page, the printable letter and the pupil's own page.

A parent has no account: the teacher gives them a private link (a 192-bit
token, of which only the SHA-256 is stored). Opening ``/p/<token>`` swaps the
token for a signed, HTTP-only cookie and redirects to ``/parent/``, so the
secret leaves the address bar and the browser history at once. Every later
visit re-checks the link: revoked or expired answers exactly like a wrong token.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import signing
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from cardgames.i18n import request_language_set, supported
from classroom import access, charts, selectors
from classroom.forms import ParentLinkForm
from classroom.insights.rewards import CORRECT_PER_STAR
from classroom.models import (
    ParentLink,
)
from classroom.pictures import avatar_url
from classroom.privacy import kept_records
from classroom.services.parents import parent_link_create, parent_link_revoke, token_hash
from classroom.views.common import qr_svg, token_cookie_secure

PARENT_COOKIE = "parent_link"
PARENT_COOKIE_SALT = "classroom.parent-link"
# The cookie lives as long as the link, at most this long (then open the link again).
PARENT_COOKIE_MAX_AGE = 60 * 60 * 24 * 180
# The raw token of a link just created travels to the printable letter in a
# signed, HTTP-only cookie of the creating browser, scoped to that letter's
# path: neither the database nor the session table ever holds it (only its
# SHA-256). It lasts a day; after that a new link is made for a new letter.
LETTER_COOKIE_PREFIX = "parent_letter_"
LETTER_COOKIE_SALT = "classroom.parent-letter"
LETTER_COOKIE_MAX_AGE = 60 * 60 * 24
RETENTION_TEXT = gettext_lazy(
    "Les résultats sont gardés pendant l'année scolaire, puis effacés quand "
    "l'enseignant·e supprime la classe."
)


def parent_link_create_view(request: HttpRequest, pupil_id: int) -> HttpResponse:
    pupil = access.access_pupil(request.user, pupil_id)
    if request.method != "POST":
        return redirect("classroom:pupil_report", pupil_id=pupil.pk)
    form = ParentLinkForm(request.POST)
    days = form.cleaned_data["expires_in_days"] if form.is_valid() else 365
    link, token = parent_link_create(pupil=pupil, expires_in_days=days)
    response = redirect("classroom:parent_letter", link_id=link.pk)
    response.set_signed_cookie(
        f"{LETTER_COOKIE_PREFIX}{link.pk}",
        token,
        salt=LETTER_COOKIE_SALT,
        max_age=LETTER_COOKIE_MAX_AGE,
        path=reverse("classroom:parent_letter", args=[link.pk]),
        secure=token_cookie_secure(request),
        httponly=True,
        samesite="Strict",
    )
    return response


@require_POST
def parent_link_revoke_view(request: HttpRequest, link_id: int) -> HttpResponse:
    link = access.access_parent_link(request.user, link_id)
    parent_link_revoke(link=link)
    response = redirect(reverse("classroom:pupil_report", args=[link.pupil_id]) + "#parents")
    response.delete_cookie(
        f"{LETTER_COOKIE_PREFIX}{link.pk}",
        path=reverse("classroom:parent_letter", args=[link.pk]),
        samesite="Strict",
    )
    return response


# The parent page's own language choice, in a cookie scoped to that page.
PARENT_LANGUAGE_PARAM = "lang"


def _parent_language(request: HttpRequest, school_class: Any) -> None:
    """The parent's own choice (the language cookie, set by the page's language
    links) first, then the class's language, then the phone's."""
    chosen = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    request_language_set(request, chosen or school_class.language or None)


@never_cache
def parent_letter(request: HttpRequest, link_id: int) -> HttpResponse:
    """The printable letter with the link and its QR code. The token is only
    known to the browser that created the link (its letter cookie)."""
    link = access.access_parent_link(request.user, link_id)
    # The letter goes home: in the class's language when it has one.
    request_language_set(request, link.pupil.school_class.language or None)
    token = request.get_signed_cookie(
        f"{LETTER_COOKIE_PREFIX}{link.pk}",
        default=None,
        salt=LETTER_COOKIE_SALT,
        max_age=LETTER_COOKIE_MAX_AGE,
    )
    live = access.parent_link_is_live(link)
    url = (
        request.build_absolute_uri(reverse("classroom:parent_open", args=[token]))
        if token and live
        else None
    )
    return render(
        request,
        "classroom/parents/letter.html",
        {
            "link": link,
            "pupil": link.pupil,
            "url": url,
            "qr": qr_svg(url, scale=5) if url else None,
            "retention": RETENTION_TEXT,
            "kept": kept_records(),
        },
    )


def parent_open(request: HttpRequest, parent_token: str) -> HttpResponse:
    """Swap the token in the URL for a signed cookie, then redirect."""
    link = access.access_parent_token_hash(token_hash(parent_token))
    response = HttpResponseRedirect(reverse("classroom:parent_page"))
    max_age = PARENT_COOKIE_MAX_AGE
    if link.expires_at is not None:
        max_age = min(max_age, int((link.expires_at - timezone.now()).total_seconds()))
    response.set_signed_cookie(
        PARENT_COOKIE,
        link.token_hash,
        salt=PARENT_COOKIE_SALT,
        max_age=max_age,
        httponly=True,
        samesite="Lax",
        secure=token_cookie_secure(request),
        path=reverse("classroom:parent_page"),
    )
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store"
    return response


def _parent_link(request: HttpRequest) -> ParentLink:
    try:
        value = request.get_signed_cookie(PARENT_COOKIE, salt=PARENT_COOKIE_SALT)
    except (KeyError, signing.BadSignature):
        raise Http404(access.NOT_FOUND) from None
    return access.access_parent_token_hash(value)


@never_cache
def parent_page(request: HttpRequest) -> HttpResponse:
    link = _parent_link(request)
    wanted = request.GET.get(PARENT_LANGUAGE_PARAM)
    if wanted is not None:
        # A language link: remember it for this page, then drop it from the address.
        response = HttpResponseRedirect(reverse("classroom:parent_page"))
        chosen = supported(wanted) if wanted in dict(settings.LANGUAGES) else None
        if chosen:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                chosen,
                max_age=PARENT_COOKIE_MAX_AGE,
                path=reverse("classroom:parent_page"),
                samesite="Lax",
                secure=token_cookie_secure(request),
                httponly=True,
            )
        return response
    _parent_language(request, link.pupil.school_class)
    report = selectors.parent_report(pupil=link.pupil)
    chart = selectors.pupil_cached(
        pupil=link.pupil,
        version=report.version,
        name="parent-chart-all",
        # Every session the summary counts, not the last 20: a cropped
        # chart made a steady child look in decline.
        build=lambda: charts.accuracy_chart(series=report.series, phone=True, parents=True),
    )
    response = render(
        request,
        "classroom/parents/parent_page.html",
        {
            "report": report,
            "pupil": link.pupil,
            "avatar_url": avatar_url(link.pupil.avatar),
            "kept": kept_records(),
            "chart": chart,
            "link": link,
            "retention": RETENTION_TEXT,
            "languages": [
                {
                    "code": code,
                    # Each language in its own words: a parent finds theirs.
                    "name": translation.get_language_info(code)["name_local"],
                    "current": code == translation.get_language(),
                }
                for code, _name in settings.LANGUAGES
            ],
        },
    )
    response["Referrer-Policy"] = "no-referrer"
    return response


@never_cache
def pupil_page(request: HttpRequest) -> HttpResponse:
    """A signed-in pupil's own stars, streak and fluency grid (their tablet
    session decides who; nothing compares them with classmates)."""
    login = access.logged_pupil(request.session)
    if login is None:
        raise Http404(access.NOT_FOUND)
    page = selectors.pupil_own_page(pupil=login.pupil)
    context: dict[str, Any] = {
        "page": page,
        "pupil": login.pupil,
        "avatar_url": avatar_url(login.pupil.avatar),
        "star_range": range(min(page.stars.stars, 30)),
        "stars_per_answers": CORRECT_PER_STAR,
    }
    return render(request, "classroom/pupil/own_page.html", context)
