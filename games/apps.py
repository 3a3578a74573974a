from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        import loo_ledger.schema  # noqa: F401  (registers the OpenAPI schema's extensions)
