"""The landing page: what a newcomer sees at `/` — their clubs, sessions and where to go next;
and a club's own page at `/clubs/{club}/`: every session of the club (members only)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import Member
from accounts.tenancy import resolve_membership
from games.models import GameSession

SESSIONS_SHOWN = 20


def home_page(request: HttpRequest) -> HttpResponse:
    clubs = []
    if request.user.is_authenticated:
        members = Member.objects.filter(user=request.user).select_related("club").order_by("club__name")
        for member in members:
            sessions = list(GameSession.objects.filter(club=member.club)
                            .order_by("-date", "-id")[:SESSIONS_SHOWN + 1])
            clubs.append({"club": member.club, "role": member.role,
                          "sessions": sessions[:SESSIONS_SHOWN],
                          "more": len(sessions) > SESSIONS_SHOWN})
    return render(request, "home.html", {"clubs": clubs})


@login_required
def club_page(request: HttpRequest, club: str) -> HttpResponse:
    """One club: every session with its report and downloads (outsiders: 404)."""
    member = resolve_membership(request.user, club)
    sessions = GameSession.objects.filter(club=member.club).order_by("-date", "-id")
    return render(request, "club.html", {"entry": {"club": member.club, "role": member.role,
                                                   "sessions": list(sessions)}})
