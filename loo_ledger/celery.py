"""Celery app. Tasks run eagerly unless CELERY_BROKER_URL is set (see settings)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "loo_ledger.settings")

app = Celery("loo_ledger")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
