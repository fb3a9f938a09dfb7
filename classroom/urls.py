from django.urls import URLPattern, URLResolver

app_name = "classroom"
urlpatterns: list[URLPattern | URLResolver] = []
