"""The pupils' app on a tablet's home screen: a web app manifest, a service
worker and the page it shows offline.

Only the pupils' pages link the manifest and register the worker (the join
flow, the lobby, the tables, practice, "Mes étoiles"); a teacher's pages stay
ordinary pages. The worker is served from ``/sw.js`` rather than ``/static/``
because a worker only controls pages under its own folder. It keeps the static
files and one offline page per language, nothing else: every page a pupil sees
may hold a pupil's name, so pages go to the network and are never stored.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

# From static/css/app.css: the page background and the primary blue.
BACKGROUND_COLOUR = "#fff9f0"
THEME_COLOUR = "#3d5afe"

# Cached when the worker installs: what the offline page and a pupil's first
# screen need. Any other file under /static/ is cached the first time it loads.
PRECACHED_STATIC = (
    "css/app.css",
    "js/app.js",
    "img/mouse.svg",
    "pwa/register.js",
    "pwa/icon.svg",
    "pwa/icon-192.png",
    "pwa/icon-512.png",
)


def languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The manifest, in the reader's language (its name is the one under the icon)."""
    data = {
        "name": _("La Chasse aux Souris"),
        # The game's name is a name in every language (German and English
        # screens say "La Chasse aux Souris" too): the icon says "Souris".
        "short_name": "Souris",
        "description": _("Le jeu de calcul mental de la classe."),
        "lang": translation.get_language(),
        "id": "/join",
        "start_url": reverse("classroom:join"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": [
            {
                "src": static("pwa/icon-192.png"),
                "sizes": "192x192",
                "type": "image/png",
                "purpose": "any",
            },
            {
                "src": static("pwa/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "any",
            },
            {
                "src": static("pwa/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {
                "src": static("pwa/icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "any",
            },
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@cache
def _worker_source() -> str:
    """The worker's script. Its cache name carries a digest of the files it
    precaches, so a new release's worker replaces the old caches at once."""
    urls = [static(path) for path in PRECACHED_STATIC]
    digest = hashlib.sha256()
    for path in PRECACHED_STATIC:
        found = finders.find(path)
        digest.update(path.encode())
        if isinstance(found, str):
            with open(found, "rb") as file:
                digest.update(file.read())
    offline = reverse("offline")
    context = {
        "cache_name": f"chasse-{digest.hexdigest()[:12]}",
        "precache": json.dumps(urls),
        "offline_pages": json.dumps({code: f"{offline}?lang={code}" for code in languages()}),
        "default_language": json.dumps(settings.LANGUAGE_CODE),
        "static_prefix": json.dumps(settings.STATIC_URL),
        "ordinary_prefixes": json.dumps(["/teacher/", "/admin/", "/accounts/", "/parent/", "/p/"]),
    }
    return render_to_string("pwa/sw.js", context)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_worker_source(), content_type="application/javascript; charset=utf-8")
    # The browser must look for a new worker on every visit (never a stale one).
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What a tablet shows when the network is gone. ``?lang=`` picks the
    language: the worker stores one copy per language, and shows the one of
    the last page the tablet loaded. Holds no one's data, so it may be stored."""
    language = request.GET.get("lang", "")
    if language not in languages():
        language = translation.get_language() or settings.LANGUAGE_CODE
    with translation.override(language):
        html = render_to_string("pwa/offline.html", {"LANGUAGE_CODE": language}, request=None)
    response = HttpResponse(html)
    response["Content-Language"] = language
    return response
