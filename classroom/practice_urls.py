"""Solo practice, and "Rejouer" at the end of a game (classroom/practice.py)."""

from django.urls import URLPattern, URLResolver, path

from classroom import practice

urlpatterns: list[URLPattern | URLResolver] = [
    path("practice/setup/", practice.practice_setup, name="practice_setup"),
    path("practice/<str:link_token>/", practice.practice_names, name="practice_names"),
    path(
        "practice/<str:link_token>/pupil/<int:pupil_id>/",
        practice.practice_pupil,
        name="practice_pupil",
    ),
    path("tables/<int:table_id>/rematch/", practice.table_rematch, name="table_rematch"),
]
