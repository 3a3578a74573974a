"""REST URLs: reports, club results, closing and reopening sessions (under /api/v1/)."""
from django.urls import path

from games.reports import api

session = "clubs/<slug:club>/sessions/<int:session_id>/"

urlpatterns = [
    path(f"{session}report", api.SessionReportView.as_view(), name="report-api"),
    path(f"{session}file", api.SessionFileView.as_view(), name="session-file"),
    path(f"{session}close", api.SessionCloseView.as_view(), name="session-close"),
    path(f"{session}reopen", api.SessionReopenView.as_view(), name="session-reopen"),
    path(f"{session}closings", api.SessionClosingsView.as_view(), name="session-closings"),
    path("clubs/<slug:club>/results", api.ClubResultsView.as_view(), name="club-results-api"),
]
