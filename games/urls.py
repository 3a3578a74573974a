"""REST URLs under /api/v1/: sessions, deals and ledger (games.api); reports (games.reports); imports."""
from django.urls import include, path

urlpatterns = [
    path("", include("games.api.urls")),
    path("", include("games.reports.api_urls")),
    path("", include("games.imports.urls")),
]
