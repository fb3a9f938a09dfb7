from django.urls import URLPattern, URLResolver

app_name = "cardgames"
urlpatterns: list[URLPattern | URLResolver] = []
