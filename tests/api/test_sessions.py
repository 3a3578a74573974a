"""Sessions over REST: create, list (filters, pagination), detail, and every refusal."""
from __future__ import annotations

import pytest

from games.models import ChipPurchase, GameSession
from games.services.ledger import ledger_balances

from .conftest import DEALS, TABLE, problem, session_url

pytestmark = pytest.mark.django_db

URL = "/api/v1/clubs/oak/sessions/"


def body(**changes):
    data = {
        "date": "2026-11-28", "seats": list(TABLE), "first_dealer": "cat",
        "rules": {"preset": "three-card", "loo": "unlimited"}, "chip_value": 10,
        "buy_ins": {"ann": 20, "bob": 20, "cat": 20, "dan": 20},
    }
    data.update(changes)
    return data


def test_create_session_validates_rules_and_records_buy_ins(scorer_client):
    response = scorer_client.post(URL, body(), format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["seats"] == TABLE and data["status"] == "open" and data["banker"] is None
    assert data["rules"] == {"preset": "three-card", "loo": "unlimited"}
    assert data["resolved_rules"]["loo"] == "unlimited"
    assert data["next"] == {"number": 1, "dealer": "cat", "pool": 0, "first_of_series": True}
    assert data["created_by"] == "sam"
    assert response["Location"] == f"http://testserver{URL}{data['id']}/"
    session = GameSession.objects.get(pk=data["id"])
    assert ChipPurchase.objects.filter(session=session).count() == 4
    assert ledger_balances(session) == {"ann": 20, "bob": 20, "cat": 20, "dan": 20, "pool": 0, "bank": -80}


def test_create_with_a_member_as_banker(owner_client):
    response = owner_client.post(URL, body(banker="olga", buy_ins={}), format="json")
    assert response.status_code == 201, response.content
    assert response.json()["banker"] == "olga"


def test_unknown_rule_option_is_named(scorer_client):
    data = problem(scorer_client.post(URL, body(rules={"preset": "three-card", "loo_amont": 3}), format="json"), 400)
    assert data["code"] == "rule-error"
    assert any("loo_amont" in e["message"] for e in data["errors"])
    assert not GameSession.objects.exists()


def test_seats_must_be_members_and_dealer_seated(scorer_client):
    data = problem(scorer_client.post(URL, body(seats=["ann", "zed", "cat"], first_dealer="dan", buy_ins={}),
                                      format="json"), 400)
    fields = {e["field"]: e["message"] for e in data["errors"]}
    assert "zed" in fields["seats[1]"]
    assert "dan" in fields["first_dealer"]


def test_another_clubs_members_are_not_seats(scorer_client, other_club):
    data = problem(scorer_client.post(URL, body(seats=["ann", "otto"], first_dealer="ann", buy_ins={}),
                                      format="json"), 400)
    assert data["errors"][0]["field"] == "seats[1]"


@pytest.mark.parametrize("name", ["pool", "bank", "club"])
def test_a_member_named_as_a_ledger_account_or_the_club_is_not_seated(club, scorer_client, name):
    """A handle may be "pool", "bank" or "club", but a seat of that name would share the
    ledger's pool account (its 20-chip buy-in made the next deal's pool 20), the bank's
    (bank -20 + bank 20: the chips bought from nobody, 40 issued for 60 sold) or pass for the
    club as banker in the report (its banker line "keeps the difference"). Refused, naming the
    seat; nothing is stored."""
    from accounts.services import member_ensure

    member_ensure(club=club, name=name)
    data = problem(scorer_client.post(URL, body(seats=["ann", "bob", name], first_dealer="ann",
                                                buy_ins={"ann": 20, "bob": 20, name: 20}),
                                      format="json"), 400)
    assert [e["field"] for e in data["errors"]] == ["seats[2]"]
    assert f"'{name}' cannot be seated" in data["errors"][0]["message"]
    assert not GameSession.objects.exists() and not ChipPurchase.objects.exists()


def test_a_buy_in_dearer_than_a_purchase_can_be_names_the_buy_in(scorer_client):
    """1,000,000,000 chips at 1,000,000,000 a chip cost 10^18, past the 10^15 one purchase can
    be: a 400 naming buy_ins.ann (the field sent), not a "money" the request has not."""
    data = problem(scorer_client.post(URL, body(chip_value=10**9, buy_ins={"ann": 10**9, "bob": 20}),
                                      format="json"), 400)
    assert [e["field"] for e in data["errors"]] == ["buy_ins.ann"]
    assert "cost more than 1000000000000000" in data["errors"][0]["message"]
    assert not GameSession.objects.exists() and not ChipPurchase.objects.exists()


@pytest.mark.parametrize("day", ["20261128", "2026-W48-6", "2026-332", "2026-11-28T20:00",
                                 "2026-1-5", 20261128])
def test_a_day_not_written_yyyy_mm_dd_is_refused(scorer_client, day):
    # date.fromisoformat, behind DRF's DateField, read the first three as 28 Nov 2026 (and the
    # query filters refused them): the API takes a day in the one form it writes days in
    data = problem(scorer_client.post(URL, body(date=day), format="json"), 400)
    assert data["errors"] == [{"field": "date",
                               "message": "date must be a day written YYYY-MM-DD, such as 2026-11-30.",
                               "code": "invalid"}]
    assert not GameSession.objects.exists()


def test_a_session_opened_by_a_form_post(scorer_client):
    # curl -d: the rules as JSON text and each buy-in as buy_ins.<seat>, as DRF reads a form;
    # the rules were refused as "no JSON object" and buy_ins.ann as an unknown field
    form = ("date=2026-11-28&seats=ann&seats=bob&seats=cat&first_dealer=cat&chip_value=10"
            "&rules=%7B%22preset%22%3A+%22three-card%22%7D&buy_ins.ann=30&buy_ins.bob=20")
    response = scorer_client.post(URL, form, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 201, response.content
    session = GameSession.objects.get()
    assert (session.seats, session.first_dealer, session.rules) == (
        ["ann", "bob", "cat"], "cat", {"preset": "three-card"})
    assert ledger_balances(session) == {"ann": 30, "bob": 20, "cat": 0, "bank": -50, "pool": 0}


@pytest.mark.parametrize("form, field", [
    ("rules=three-card", "rules"),            # not JSON text
    ("rules=%5B%5D", "rules"),                # JSON, not an object
    ("chip_value.x=1", "chip_value.x"),       # a part of a field that has none
])
def test_a_form_post_whose_rules_or_parts_are_wrong_names_them(scorer_client, form, field):
    base = "date=2026-11-28&seats=ann&seats=bob&first_dealer=ann"
    if not form.startswith("rules"):
        base += "&rules=%7B%22preset%22%3A+%22three-card%22%7D"
    data = problem(scorer_client.post(URL, f"{base}&{form}",
                                      content_type="application/x-www-form-urlencoded"), 400)
    assert field in {e["field"] for e in data["errors"]}, data
    assert not GameSession.objects.exists()


def test_missing_fields_are_listed(scorer_client):
    data = problem(scorer_client.post(URL, {"seats": ["ann"]}, format="json"), 400)
    fields = {e["field"] for e in data["errors"]}
    assert {"date", "first_dealer", "rules", "seats"} <= fields


def test_a_name_over_its_bound_is_refused_by_the_service_too(make_session, scorer_client):
    # the API's serializer refuses it first; the service refuses any other caller (an import)
    from loo_ledger.problems import Problem

    assert problem(scorer_client.post(URL, body(name="n" * 121), format="json"),
                   400)["errors"][0]["field"] == "name"
    with pytest.raises(Problem) as refused:
        make_session(name="n" * 121)
    assert refused.value.status_code == 400 and refused.value.errors == [{
        "field": "name", "message": "The session's name is 121 characters long; it may be at "
                                    "most 120.", "code": "invalid"}]
    assert not GameSession.objects.exists()
    assert make_session(name="\u00e9" * 120).name == "\u00e9" * 120


def test_a_session_whose_file_header_would_outgrow_its_bound_is_refused(make_session,
                                                                        monkeypatch):
    # the name and the rules' own bounds keep the header far below its 8 KiB: the check is
    # what makes the import's cap hold whatever those bounds become
    from games.services import limits
    from loo_ledger.problems import Problem

    monkeypatch.setattr(limits, "MAX_HEADER_BYTES", 200)
    with pytest.raises(Problem) as refused:
        make_session(name="n" * 120)
    [error] = refused.value.errors
    assert error["field"] == "header" and error["message"].startswith(
        "The session's line in its session file (name, seats, rules) would be ")
    assert error["message"].endswith("bytes; it may be at most 200.")
    assert not GameSession.objects.exists() and not ChipPurchase.objects.exists()


@pytest.mark.parametrize("role, status", [("anon", 401), ("viewer", 403), ("player", 403), ("outsider", 404)])
def test_create_refused(api_client_for, role, status):
    problem(api_client_for(role).post(URL, body(), format="json"), status)
    assert not GameSession.objects.exists()


@pytest.mark.parametrize("role, status", [("anon", 401), ("outsider", 404)])
def test_list_and_detail_refused(api_client_for, oak_session, role, status):
    client = api_client_for(role)
    problem(client.get(URL), status)
    problem(client.get(f"{URL}{oak_session.pk}/"), status)


def test_viewer_reads(viewer_client, oak_session):
    assert viewer_client.get(URL).json()["count"] == 1
    data = viewer_client.get(f"{URL}{oak_session.pk}/").json()
    assert data["id"] == oak_session.pk and data["deal_count"] == 0


def test_deal_counts_in_the_list_and_the_detail(scorer_client, make_session, post_deal):
    empty, played = make_session(), make_session()
    for number, deal in enumerate(DEALS, start=1):
        assert post_deal(played, number, deal).status_code == 201
    rows = scorer_client.get(URL).json()["results"]
    assert {row["id"]: row["deal_count"] for row in rows} == {empty.pk: 0, played.pk: 3}
    assert scorer_client.get(f"{URL}?status=open&date_from=2026-11-28").json()["count"] == 2
    assert scorer_client.get(f"{URL}{empty.pk}/").json()["deal_count"] == 0
    assert scorer_client.get(f"{URL}{played.pk}/").json()["deal_count"] == 3


def test_looking_a_session_up_does_not_read_its_deals(club):
    """Every request to a session looks it up (games.selectors.session_get): its deal count is a
    subquery on the deals' index, not a join to every deal grouped by every session column, whose
    cost grew with the session on each deal recorded (bench/service.py)."""
    from games.selectors import session_list

    sql = str(session_list(club=club).filter(pk=1).query)
    assert 'JOIN "games_deal"' not in sql
    assert "GROUP BY \"games_gamesession\"" not in sql


def test_another_clubs_session_is_404(outsider_client, api_client_for, oak_session, other_club):
    from games.services.sessions import session_create

    elm = session_create(club=other_club, date="2026-11-28", seats=["ann", "bob"], first_dealer="ann",
                         rules={"preset": "three-card"})
    # otto (owner of elm) cannot see oak's session even through elm's URL
    problem(outsider_client.get(f"/api/v1/clubs/elm/sessions/{oak_session.pk}/"), 404)
    assert outsider_client.get(f"/api/v1/clubs/elm/sessions/{elm.pk}/").status_code == 200
    # and oak's members do not see elm's
    problem(api_client_for("owner").get(f"{URL}{elm.pk}/"), 404)


def test_list_filters_by_date_range_and_status(viewer_client, make_session):
    early = make_session(date="2026-10-01")
    mid = make_session(date="2026-11-01")
    late = make_session(date="2026-12-01")
    GameSession.objects.filter(pk=mid.pk).update(status="closed")

    def ids(query):
        response = viewer_client.get(URL + query)
        assert response.status_code == 200, response.content
        return [s["id"] for s in response.json()["results"]]

    assert ids("") == [late.pk, mid.pk, early.pk]
    assert ids("?date_from=2026-10-15") == [late.pk, mid.pk]
    assert ids("?date_from=2026-10-15&date_to=2026-11-15") == [mid.pk]
    assert ids("?status=open") == [late.pk, early.pk]
    assert ids("?status=closed") == [mid.pk]
    problem(viewer_client.get(URL + "?status=sideways"), 400)


def test_list_is_paginated(viewer_client, make_session):
    for day in range(1, 4):
        make_session(date=f"2026-11-0{day}", buy_ins={})
    data = viewer_client.get(URL).json()
    assert data["count"] == 3 and "results" in data


# --- links: where to go from a session or a club ---------------------------------------------


def test_a_session_links_what_hangs_off_it(oak_session, scorer_client):
    base = f"http://testserver/api/v1/clubs/oak/sessions/{oak_session.pk}/"
    detail = scorer_client.get(session_url(oak_session)).json()
    listed = scorer_client.get("/api/v1/clubs/oak/sessions/").json()["results"][0]
    links = detail["links"]
    assert listed["links"] == links
    assert links == {
        "self": base, "deals": base + "deals/", "ledger": base + "ledger",
        "purchases": base + "purchases/", "payments": base + "payments/",
        "report": base + "report", "file": base + "file", "closings": base + "closings",
        "report_page": f"http://testserver/clubs/oak/sessions/{oak_session.pk}/report/"}
    for name, url in links.items():
        if name != "report_page":  # a web page: browser login
            assert scorer_client.get(url).status_code == 200, name
    # the fields it had are all still there
    assert {"id", "club", "date", "name", "seats", "status", "deal_count", "next"} <= set(detail)


def test_a_new_session_answers_with_its_links(club, scorer_client):
    response = scorer_client.post("/api/v1/clubs/oak/sessions/", {
        "date": "2026-11-29", "seats": ["ann", "bob"], "first_dealer": "ann",
        "rules": {"preset": "three-card"}}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["links"]["self"] == response["Location"]


def test_a_club_links_what_hangs_off_it(club, viewer_client):
    club_data = viewer_client.get("/api/v1/clubs/oak/").json()
    listed = viewer_client.get("/api/v1/clubs/").json()["results"][0]
    base = "http://testserver/api/v1/clubs/oak/"
    assert club_data["links"] == listed["links"] == {
        "self": base, "sessions": base + "sessions/", "members": base + "members/",
        "results": base + "results", "imports": base + "imports/",
        "page": "http://testserver/clubs/oak/"}
    for name in ("self", "sessions", "members", "results"):
        assert viewer_client.get(club_data["links"][name]).status_code == 200, name


def test_the_browsable_api_shows_the_links_as_links(oak_session, scorer_client):
    html = scorer_client.get(session_url(oak_session), HTTP_ACCEPT="text/html").content.decode()
    assert f'<a href="http://testserver/api/v1/clubs/oak/sessions/{oak_session.pk}/deals/"' in html


def test_the_session_list_reads_the_club_once_not_per_session(make_session, scorer_client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(5):
        make_session()
    with CaptureQueriesContext(connection) as queries:
        assert scorer_client.get("/api/v1/clubs/oak/sessions/").status_code == 200
    # each session's links name its club: read with the sessions, not one query each
    assert not [q for q in queries if q["sql"].startswith('SELECT "accounts_club"')]


def test_the_session_list_reads_every_next_deal_in_a_fixed_number_of_queries(
        make_session, post_deal, scorer_client, django_assert_num_queries):
    """Each open session's ``next`` (its last deal's verdict, the pool) is read with the list,
    not with two queries a session, and says what the session's own page says."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def listed() -> dict[int, dict | None]:
        return {row["id"]: row["next"] for row in scorer_client.get(URL).json()["results"]}

    make_session()
    with CaptureQueriesContext(connection) as one_session:
        listed()
    queries = len(one_session)  # (now: the next request's start clears the connection's log)
    for deals in (0, 1, 2, 3, 1):  # (the 3rd deal leaves the pool empty; the last is closed)
        session = make_session()
        for number, deal in enumerate(DEALS[:deals], start=1):
            assert post_deal(session, number, deal).status_code == 201
    GameSession.objects.filter(pk=session.pk).update(status=GameSession.Status.CLOSED)
    make_session(first_dealer="ann")
    with django_assert_num_queries(queries):
        rows = listed()
    assert len(rows) == 7 and rows[session.pk] is None  # closed: no next deal
    assert rows == {pk: scorer_client.get(f"{URL}{pk}/").json()["next"] for pk in rows}
    assert sorted((n["number"], n["dealer"], n["pool"]) for n in rows.values() if n) == [
        (1, "ann", 0), (1, "cat", 0), (1, "cat", 0), (2, "dan", 6), (3, "ann", 3), (4, "bob", 0)]
