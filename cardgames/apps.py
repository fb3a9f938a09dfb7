from django.apps import AppConfig


class CardgamesConfig(AppConfig):
    name = "cardgames"
    verbose_name = "Jeux de cartes"
