"""REST URLs of bulk imports (under /api/v1/)."""
from django.urls import path

from games.imports import api

urlpatterns = [
    path("clubs/<slug:club>/imports/", api.ImportListView.as_view(), name="import-list"),
    path("clubs/<slug:club>/imports/<int:job_id>", api.ImportDetailView.as_view(), name="import-detail"),
    path("clubs/<slug:club>/imports/<int:job_id>/retry", api.ImportRetryView.as_view(), name="import-retry"),
]
