"""A signed-out visitor who opens a teacher page is asked to sign in, then
taken back there (a bookmarked report, the live view reopened after lunch).

Decided from the URL alone, before any class, pupil or session is looked up:
``/teacher/classes/3/`` and ``/teacher/classes/999999/`` both lead to the sign-in
page, so a stranger still cannot tell which exist. Once signed in, the view's
``access_*`` helper gives its one 404 for missing and foreign alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect

from cardgames.views import HtmxHttpRequest

# The teacher pages a signed-out visitor may open.
OPEN_PAGES = frozenset(
    {
        "signup",
        "signup_activate",
        "login",
        "logout",
        "password_reset",
        "password_reset_done",
        "password_reset_confirm",
        "password_reset_complete",
    }
)


class TeacherSignInMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HtmxHttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        match = request.resolver_match
        if (
            match is None
            or match.namespace != "classroom"
            or not match.route.startswith("teacher/")
            or match.url_name in OPEN_PAGES
            or request.user.is_authenticated
        ):
            return None
        if request.htmx:
            # A fragment of a page left open: the whole page goes to sign-in.
            current = urlsplit(request.headers.get("HX-Current-URL", ""))
            back = current.path + (f"?{current.query}" if current.query else "")
            if not back.startswith("/"):
                back = resolve_url("classroom:dashboard")
            return HttpResponseClientRedirect(redirect_to_login(back)["Location"])
        if request.method not in ("GET", "HEAD"):
            # A form sent after the sign-in expired: sign in, then start from the
            # dashboard (the form's address answers only to a form).
            return redirect_to_login(resolve_url("classroom:dashboard"))
        return redirect_to_login(request.get_full_path())
