"""The landing page at `/`: a newcomer finds the login, a member finds their clubs' sessions."""
import datetime as dt

import pytest

from games.services.sessions import session_create

pytestmark = pytest.mark.django_db


def test_anonymous_visitor_is_offered_login_and_api_docs(client):
    page = client.get("/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/api-auth/login/?next=/"' in html
    assert 'href="/api/v1/docs/"' in html


def test_the_demo_logins_are_offered_in_development_only(client, settings):
    """`make run`'s demo logins (`demo` is staff) were on every service's landing page: in
    production a stranger read the password of any demo club the operator had loaded."""
    settings.DEBUG = False  # production (env.example)
    html = client.get("/").content.decode()
    assert "Log in to see your clubs." in html and "demo-password" not in html
    settings.DEBUG = True  # development: `make run`
    html = client.get("/").content.decode()
    assert "<code>demo</code> / <code>demo-password</code> (owner)" in html


def test_member_sees_own_club_sessions_with_report_links_and_not_other_clubs(client, club, other_club, member_for):
    oak_session = session_create(club=club, date=dt.date(2026, 11, 28), seats=["ann", "bob", "cat"],
                                 first_dealer="ann", rules={"preset": "three-card"}, name="Friday table")
    elm_session = session_create(club=other_club, date=dt.date(2026, 11, 28), seats=["ann", "bob"],
                                 first_dealer="ann", rules={"preset": "three-card"}, name="Elm secret table")
    client.force_login(member_for("viewer").user)
    html = client.get("/").content.decode()
    assert "Oak Card Club" in html and "Friday table" in html
    assert f"/clubs/oak/sessions/{oak_session.pk}/report/" in html
    # (the names whole: a random CSRF token in the page may hold the letters "Elm")
    assert "Elm Card Club" not in html and "Elm secret table" not in html
    assert "/clubs/elm/" not in html and f"/sessions/{elm_session.pk}/report/" not in html


def test_every_link_on_the_home_page_answers(client, club, member_for):
    import re

    client.force_login(member_for("viewer").user)
    html = client.get("/").content.decode()
    links = set(re.findall(r'href="(/[^"]*)"', html))
    assert "/api/v1/" in links and "/admin/" not in links  # the admin only for staff
    for link in links:
        assert client.get(link).status_code == 200, link


def test_the_api_root_lists_the_entry_points(client):
    data = client.get("/api/v1/").json()
    assert data["clubs"].endswith("/api/v1/clubs/")
    assert data["auth_token"].endswith("/api/v1/auth/token/")
    assert client.get(data["docs"]).status_code == 200


def test_logging_in_and_out_without_next_lands_on_the_home_page(client, club):
    from tests.conftest import TEST_PASSWORD

    page = client.get("/api-auth/login/")
    token = page.cookies["csrftoken"].value
    done = client.post("/api-auth/login/", {"username": "vic", "password": TEST_PASSWORD,
                                            "csrfmiddlewaretoken": token})
    assert done.status_code == 302 and done["Location"] == "/"
    out = client.post("/api-auth/logout/")
    assert out.status_code == 302 and out["Location"] == "/"


def test_sessions_are_told_apart_and_linked_to_their_report_and_file(client, club, member_for):
    same = [session_create(club=club, date=dt.date(2026, 11, 29), seats=["ann", "bob"],
                           first_dealer="ann", rules={"preset": "three-card"}, name="Saturday")
            for _ in range(2)]
    unnamed = session_create(club=club, date=dt.date(2026, 11, 29), seats=["ann", "bob"],
                             first_dealer="ann", rules={"preset": "three-card"})
    client.force_login(member_for("viewer").user)
    html = client.get("/").content.decode()

    def row(session):
        start = html.index(f'<tr data-session="{session.pk}">')
        return html[start:html.index("</tr>", start)]

    # a bare id read like a count; two "Saturday"s of the same date could not be told apart
    assert f"<td>Session {unnamed.pk}</td>" in row(unnamed)
    assert [f"<td><bdi>Saturday</bdi> · session {s.pk}</td>" in row(s) for s in same] == [True, True]
    assert '<td class="date">Sun 29 Nov 2026</td>' in row(unnamed)
    links = row(unnamed)
    assert f'href="/clubs/oak/sessions/{unnamed.pk}/report/">report</a>' in links
    assert f'href="/api/v1/clubs/oak/sessions/{unnamed.pk}/file" download' in links
    assert ">ledger (API)</a>" in links  # the raw JSON, said so
    download = client.get(f"/api/v1/clubs/oak/sessions/{unnamed.pk}/file")
    assert download.status_code == 200 and download["Content-Disposition"] == (
        f'attachment; filename="session-{unnamed.pk}.jsonl"')


def test_a_club_has_its_own_page_with_every_session(client, club, member_for):
    from loo_ledger.home import SESSIONS_SHOWN

    sessions = [session_create(club=club, date=dt.date(2026, 11, 1), seats=["ann", "bob"],
                               first_dealer="ann", rules={"preset": "three-card"})
                for _ in range(SESSIONS_SHOWN + 1)]
    assert client.get("/clubs/oak/").status_code == 302  # to the login page
    client.force_login(member_for("viewer").user)
    home = client.get("/").content.decode()
    assert f'<tr data-session="{sessions[0].pk}">' not in home  # the oldest: past the 20 shown
    assert '<a href="/clubs/oak/">Every session of Oak Card Club</a>' in home
    page = client.get("/clubs/oak/")
    assert page.status_code == 200
    html = page.content.decode()
    assert all(f'<tr data-session="{s.pk}">' in html for s in sessions)
    assert '<a href="/">Home</a>' in html and 'href="/clubs/oak/results/"' in html


def test_the_club_page_shows_its_sessions_a_page_at_a_time_as_the_api_lists_them(
        client, club, member_for):
    import re

    from rest_framework.settings import api_settings

    from games.models import GameSession

    size = api_settings.PAGE_SIZE  # (50)
    GameSession.objects.bulk_create(  # the rows alone: the page lists them, nothing more
        GameSession(club=club, date=dt.date(2026, 1, 1) + dt.timedelta(days=n), seats=["ann", "bob"],
                    first_dealer="ann", rules={}, resolved_rules={}) for n in range(2 * size + 1))
    client.force_login(member_for("viewer").user)

    def page(query: str = "") -> tuple[list[int], str]:
        response = client.get(f"/clubs/oak/{query}")
        assert response.status_code == 200, query
        html = response.content.decode()
        return [int(pk) for pk in re.findall(r'<tr data-session="(\d+)">', html)], html

    def api_page(number: int) -> list[int]:
        return [row["id"] for row in client.get(
            f"/api/v1/clubs/oak/sessions/?page={number}").json()["results"]]

    first, html = page()
    assert first == api_page(1) and len(first) == size
    assert first[0] == GameSession.objects.latest("date").pk  # newest first
    assert '<span>Page 1 of 3</span>' in html and "Newer" not in html
    assert '<a href="/clubs/oak/?page=2" rel="next">Older ›</a>' in html
    assert '<a href="/clubs/oak/?page=3">Oldest »</a>' in html
    second, html = page("?page=2")
    assert second == api_page(2)
    assert '<a href="/clubs/oak/" rel="prev">‹ Newer</a>' in html
    assert '<a href="/clubs/oak/?page=3" rel="next">Older ›</a>' in html
    assert "Newest" not in html and "Oldest" not in html  # the pages next to it are the ends
    third, html = page("?page=3")
    assert third == api_page(3) == [GameSession.objects.earliest("date").pk]
    assert '<a href="/clubs/oak/">« Newest</a>' in html and "Older" not in html
    assert sorted(first + second + third) == sorted(GameSession.objects.values_list("pk", flat=True))
    for query, status, message in (
            ("?page=0", 400, "page must be a whole number from 1, not &quot;0&quot;."),
            ("?page=two", 400, "page must be a whole number from 1, not &quot;two&quot;."),
            ("?page=4", 404, "There is no page 4: the last is page 3.")):
        response = client.get(f"/clubs/oak/{query}")
        html = response.content.decode()
        assert response.status_code == status and message in html, (query, html)
        assert 'href="/clubs/oak/">The newest sessions</a>' in html and "<tr data-session" not in html


def test_a_club_without_sessions_has_one_page(client, club, member_for):
    client.force_login(member_for("viewer").user)
    for query in ("", "?page=1"):
        html = client.get(f"/clubs/oak/{query}").content.decode()
        assert "No sessions yet." in html and "Page 1" not in html


def test_the_report_page_links_the_session_file_and_home(client, club, member_for):
    session = session_create(club=club, date=dt.date(2026, 11, 29), seats=["ann", "bob"],
                             first_dealer="ann", rules={"preset": "three-card"})
    client.force_login(member_for("viewer").user)
    html = client.get(f"/clubs/oak/sessions/{session.pk}/report/").content.decode()
    assert f'<a href="/api/v1/clubs/oak/sessions/{session.pk}/file">Session file (.jsonl)</a>' in html
    assert '<a href="/">Home</a>' in html


def test_every_api_view_has_a_name_for_people(client):
    """The browsable API's titles and breadcrumbs: "Sessions", not "Session List Create"."""
    from django.urls import URLPattern, URLResolver, get_resolver
    from rest_framework.views import APIView

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern), getattr(p.callback, "cls", None)

    named = {route: cls.name for route, cls in walk(get_resolver().url_patterns)
             if route.startswith("api/v1/") and cls is not None and issubclass(cls, APIView)
             and not route.startswith("api/v1/schema") and not route.startswith("api/v1/docs")
             and not route.startswith("api/v1/redoc")}
    unnamed = sorted(route for route, name in named.items() if name is None)
    assert not unnamed, f"views without a name: {unnamed}"
    assert not [n for n in named.values() if "List Create" in n or n.endswith(" View")]
    assert named["api/v1/clubs/<slug:club>/sessions/"] == "Sessions"
    assert named["api/v1/clubs/<slug:club>/sessions/<int:session_id>/deals/"] == "Deals"
    assert named["api/v1/clubs/"] == "Clubs"


def test_the_browsable_api_breadcrumbs_read_as_names(club, member_for, client):
    session = session_create(club=club, date=dt.date(2026, 11, 29), seats=["ann", "bob"],
                             first_dealer="ann", rules={"preset": "three-card"})
    client.force_login(member_for("viewer").user)
    html = client.get(f"/api/v1/clubs/oak/sessions/{session.pk}/deals/",
                      HTTP_ACCEPT="text/html").content.decode()
    crumbs = html[html.index('<ul class="breadcrumb">'):]
    crumbs = crumbs[:crumbs.index("</ul>")]
    for name in ("loo-ledger API", "Clubs", "Club", "Sessions", "Session", "Deals"):
        assert f">{name}</a>" in crumbs, name
    assert "List Create" not in html and "<h1>Deals</h1>" in html


def test_the_favicon_is_served_where_browsers_ask_for_it(client):
    # browsers ask every page's origin for /favicon.ico, the admin's and the API docs' included
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200
    assert icon["Content-Type"] == "image/vnd.microsoft.icon"
    assert icon.content[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
    assert int.from_bytes(icon.content[4:6], "little") == 3  # 16, 32 and 48 px
    assert "max-age=604800" in icon["Cache-Control"] and "public" in icon["Cache-Control"]
    assert client.head("/favicon.ico").status_code == 200
    assert client.post("/favicon.ico").status_code == 405
