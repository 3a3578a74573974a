"""The landing page: what a newcomer sees at `/` — their clubs, sessions and where to go next;
and a club's own page at `/clubs/{club}/`: every session of the club (members only), a page
at a time."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Page, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.settings import api_settings

from accounts.models import Member
from accounts.tenancy import resolve_membership
from games.models import GameSession
from loo_ledger.page_policy import own_page
from loo_ledger.pagination import PageRefused, page_number

SESSIONS_SHOWN = 20


@own_page
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
    # the demo's logins (`make run`) in development only: a service's visitors are not told
    # the password of a demo club its operator may have loaded
    return render(request, "home.html", {"clubs": clubs, "demo_logins": settings.DEBUG})


def page_of(request: HttpRequest, paginator: Paginator) -> Page:
    """The page ``?page=`` asks for (from 1; none: the first), as the API's lists page: a page
    past the last is not found. Raises ``PageRefused`` saying why."""
    return paginator.page(page_number(request.GET.get("page", "1"), paginator))


def page_links(request: HttpRequest, page: Page) -> dict[str, Any]:
    """The newer and older pages' links (the first page is the bare path), and where this is."""
    def link(number: int) -> str:
        return request.path if number == 1 else f"{request.path}?page={number}"

    return {"number": page.number, "of": page.paginator.num_pages,
            "newer": link(page.previous_page_number()) if page.has_previous() else "",
            "older": link(page.next_page_number()) if page.has_next() else "",
            "first": link(1), "last": link(page.paginator.num_pages)}


@own_page
@login_required
def club_page(request: HttpRequest, club: str) -> HttpResponse:
    """One club: its sessions, newest first, with their report and downloads (outsiders: 404);
    as many a page as the API's session list (``PAGE_SIZE``), so page N here is page N there."""
    member = resolve_membership(request.user, club)
    entry: dict[str, Any] = {"club": member.club, "role": member.role, "sessions": []}
    sessions = GameSession.objects.filter(club=member.club).order_by("-date", "-id")
    try:
        page = page_of(request, Paginator(sessions, api_settings.PAGE_SIZE))
    except PageRefused as refused:
        return render(request, "club.html", {"entry": entry, "error": refused.message},
                      status=refused.status)
    entry["sessions"] = list(page.object_list)
    return render(request, "club.html", {"entry": entry, "pages": page_links(request, page)})
