"""Pages that belong to no app: the landing page and a health check."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """Two clear paths: the teacher logs in, the pupil joins with a code."""
    return render(request, "home.html")


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})
