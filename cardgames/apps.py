from django.apps import AppConfig


class CardgamesConfig(AppConfig):
    name = "cardgames"
    verbose_name = "Jeux de cartes"

    def ready(self) -> None:
        # Services say when a table is next due; the runtime runs it. Wiring it
        # here keeps services free of any import of the runtime (no import loop).
        from cardgames import runtime, services

        services.scheduler_register(scheduler=runtime.table_due)
