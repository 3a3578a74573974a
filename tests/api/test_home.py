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


def test_member_sees_own_club_sessions_with_report_links_and_not_other_clubs(client, club, other_club, member_for):
    oak_session = session_create(club=club, date=dt.date(2026, 11, 28), seats=["ann", "bob", "cat"],
                                 first_dealer="ann", rules={"preset": "three-card"}, name="Friday table")
    elm_session = session_create(club=other_club, date=dt.date(2026, 11, 28), seats=["ann", "bob"],
                                 first_dealer="ann", rules={"preset": "three-card"}, name="Elm secret table")
    client.force_login(member_for("viewer").user)
    html = client.get("/").content.decode()
    assert "Oak Card Club" in html and "Friday table" in html
    assert f"/clubs/oak/sessions/{oak_session.pk}/report/" in html
    assert "Elm" not in html and f"/sessions/{elm_session.pk}/report/" not in html
