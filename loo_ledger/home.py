"""The landing page: what a newcomer sees at `/` — their clubs, sessions and where to go next."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import Member
from games.models import GameSession

SESSIONS_SHOWN = 20


def home_page(request: HttpRequest) -> HttpResponse:
    clubs = []
    if request.user.is_authenticated:
        members = Member.objects.filter(user=request.user).select_related("club").order_by("club__name")
        for member in members:
            sessions = GameSession.objects.filter(club=member.club).order_by("-date", "-id")[:SESSIONS_SHOWN]
            clubs.append({"club": member.club, "role": member.role, "sessions": list(sessions)})
    return render(request, "home.html", {"clubs": clubs})
