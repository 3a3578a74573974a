from django.apps import AppConfig


class ImportsConfig(AppConfig):
    name = "games.imports"
    label = "imports"
    default_auto_field = "django.db.models.BigAutoField"
