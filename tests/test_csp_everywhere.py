"""Issue 44, item 14: in DEBUG the 404 and 500 pages carried no
Content-Security-Policy (django-csp exempts them), so the policy depended on
the mode. Now every response carries it, error pages included, with DEBUG on
and off. The views below raise what real views raise; this module is also
the URLconf of the tests that need them."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from config.urls import urlpatterns as project_urlpatterns


def _not_found(request: HttpRequest) -> HttpResponse:
    raise Http404("missing")


def _bad_request(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("bad")


def _forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def _failure(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("boom")


urlpatterns = [
    path("t/404/", _not_found),
    path("t/400/", _bad_request),
    path("t/403/", _forbidden),
    path("t/500/", _failure),
    *project_urlpatterns,
]

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.test_csp_everywhere")]


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/t/404/", 404),
        ("/no-such-page/", 404),
        ("/t/400/", 400),
        ("/t/403/", 403),
        ("/t/500/", 500),
    ],
)
def test_every_error_response_carries_the_policy(
    settings: Any, debug: bool, url: str, status: int
) -> None:
    settings.DEBUG = debug
    response = Client(raise_request_exception=False).get(url)
    assert response.status_code == status
    policy = response.get("Content-Security-Policy", "")
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy


@pytest.mark.parametrize("debug", [True, False])
def test_a_stale_form_403_carries_the_policy(settings: Any, debug: bool) -> None:
    settings.DEBUG = debug
    response = Client(enforce_csrf_checks=True).post("/join", {"code": "123456"})
    assert response.status_code == 403
    assert "default-src 'self'" in response["Content-Security-Policy"]


@pytest.mark.parametrize("debug", [True, False])
def test_an_ordinary_page_still_carries_it(settings: Any, debug: bool) -> None:
    settings.DEBUG = debug
    assert "default-src 'self'" in Client().get("/")["Content-Security-Policy"]
