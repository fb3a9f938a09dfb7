from django.urls import URLPattern, URLResolver, path

from cardgames import views

app_name = "cardgames"
urlpatterns: list[URLPattern | URLResolver] = [
    path("table/<int:table_id>/", views.table_page, name="table"),
    path("table/<int:table_id>/projector/", views.projector, name="projector"),
    path("table/<int:table_id>/replay/", views.replay, name="replay"),
]
