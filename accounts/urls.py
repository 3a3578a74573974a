"""REST URLs for auth tokens, clubs and members, under /api/v1/."""
from django.urls import path

from . import api

urlpatterns = [
    path("auth/token/", api.ObtainTokenView.as_view(), name="auth-token"),
    path("auth/password/", api.PasswordChangeView.as_view(), name="auth-password"),
    path("clubs/", api.ClubListCreateView.as_view(), name="club-list"),
    path("clubs/<slug:club>/", api.ClubDetailView.as_view(), name="club-detail"),
    path("clubs/<slug:club>/members/", api.MemberListCreateView.as_view(), name="member-list"),
    path("clubs/<slug:club>/members/<slug:name>/", api.MemberDetailView.as_view(), name="member-detail"),
    path("clubs/<slug:club>/members/<slug:name>/user/", api.MemberLoginView.as_view(),
         name="member-user"),
]
