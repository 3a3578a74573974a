"""Server-rendered pages (settlement reports, club results)."""
from django.urls import include, path

urlpatterns = [
    path("", include("games.reports.web_urls")),
]
