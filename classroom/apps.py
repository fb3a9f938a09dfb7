from django.apps import AppConfig


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = "Classe"

    def ready(self) -> None:
        # Connects the receivers that delete game data with classroom data.
        from classroom import (
            learning,
            signals,  # noqa: F401
            social,
        )

        learning.connect()
        social.connect()
