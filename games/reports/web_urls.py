"""Server-rendered report pages (session login)."""
from django.urls import path

from games.reports import web

urlpatterns = [
    path("clubs/<slug:club>/sessions/<int:session_id>/report/", web.session_report_page,
         name="report-page"),
    path("clubs/<slug:club>/results/", web.club_results_page, name="club-results-page"),
]
