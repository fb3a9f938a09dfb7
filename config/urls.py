from django.contrib import admin
from django.urls import include, path

from config import pwa, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # The pupils' app on a tablet's home screen (config/pwa.py).
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("classroom.urls")),
    path("", include("cardgames.urls")),
]
