"""A GET's query string names only parameters the URL takes: one it does not take is a 400
naming it and listing those it takes (a misspelt filter, ``?delaer=ann``, answered every deal,
quietly), and a filter's value that no field could hold is a 400 too, never a 500. A write's
names only those it reads and those the browsable API's form sends from its page.

oak_session's table is ann, bob, cat, dan with cat dealing first, so in ``played`` cat deals
deal 1, dan deal 2 and ann deal 3 (tests/api/conftest.py); bob deals none.
"""
from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.api.conftest import deals_url, problem, session_url

#: deal 4 of ``played``: bob deals into an empty pool (a simple pool, everybody plays)
DEAL4 = {"format": "loo-deal/1", "dealer": "bob", "result": {"tricks": {"ann": 2, "cat": 1}}}

pytestmark = pytest.mark.django_db

#: every GET under a club, and what each takes: its filters, its page, ``format``, its own
TAKES = {
    "sessions/": ["date_from", "date_to", "format", "page", "status"],
    "sessions/{id}/deals/": ["dealer", "format", "page", "status", "violation"],
    "sessions/{id}/purchases/": ["format", "page"],
    "sessions/{id}/payments/": ["format", "page"],
    "members/": ["format", "page", "role"],
    "imports/": ["format"],
    "sessions/{id}/closings": ["format"],
    "results": ["date_from", "date_to", "format", "from", "to"],
    "sessions/{id}/report": ["format", "table"],
    "sessions/{id}/": ["format"],
    "sessions/{id}/deals/1/": ["format"],
    "sessions/{id}/ledger": ["format"],
    "sessions/{id}/file": ["format"],
    "": ["format"],
    "members/ann/": ["format"],
}


def oak(session, tail: str) -> str:
    return f"/api/v1/clubs/oak/{tail.format(id=session.pk)}"


def refusal(response, *names: str) -> dict:
    """The 400 of a query naming ``names``, each one error."""
    body = problem(response, 400)
    assert body["code"] == "validation-error"
    assert [e["field"] for e in body["errors"]] == list(names)
    return body


@pytest.mark.parametrize("tail, takes", TAKES.items())
def test_a_parameter_the_url_does_not_take_is_a_400_listing_those_it_takes(played, owner_client,
                                                                          tail, takes):
    body = refusal(owner_client.get(oak(played, tail), {"bogus": "1"}), "bogus")
    assert body["errors"][0]["message"] == "Unknown query parameter 'bogus'."
    assert body["parameters"] == takes
    assert body["detail"] == f"Unknown query parameter 'bogus'. This URL takes {', '.join(takes)}."


def test_the_clubs_list_takes_its_page_and_format(owner_client):
    body = refusal(owner_client.get("/api/v1/clubs/", {"slug": "oak"}), "slug")
    assert body["parameters"] == ["format", "page"]


def test_a_misspelt_filter_is_named_with_the_filter_it_misspells(played, owner_client):
    """The treasurer's typo: every deal was answered as if they were ann's."""
    body = refusal(owner_client.get(deals_url(played), {"delaer": "ann"}), "delaer")
    assert body["detail"] == ("Unknown query parameter 'delaer': did you mean 'dealer'? "
                              "This URL takes dealer, format, page, status, violation.")


def test_each_unknown_parameter_is_named(played, owner_client):
    response = owner_client.get(deals_url(played), {"dealer": "ann", "sort": "x", "limit": "2"})
    refusal(response, "sort", "limit")


def test_page_size_is_not_taken(oak_session, viewer_client):
    """The lists come 50 a page; ``?page_size=2`` was passed over, answering 50."""
    body = refusal(viewer_client.get("/api/v1/clubs/oak/sessions/", {"page_size": "2"}),
                   "page_size")
    assert body["errors"][0]["message"] == "Unknown query parameter 'page_size': did you mean 'page'?"


def test_known_parameters_still_filter_and_page(played, owner_client):
    def numbers(**query: str) -> list[int]:
        response = owner_client.get(deals_url(played), query)
        assert response.status_code == 200, response.content
        return [d["number"] for d in response.json()["results"]]

    assert numbers(dealer="ann") == [3]
    assert numbers(dealer="cat", page="1", format="json") == [1]
    assert numbers(dealer="bob") == []  # a seat who dealt none: a true empty answer
    assert numbers(dealer="") == [1, 2, 3]  # left empty, as the browsable API's form sends it
    assert numbers(status="", violation="", dealer="") == [1, 2, 3]
    assert numbers(violation="revoke") == [2]  # DEAL2: bob revokes


def test_a_dealer_who_is_no_seat_is_a_400_naming_the_seats(played, owner_client):
    """``?dealer=anne`` found no deal, which reads as "anne dealt none": refused as a misspelt
    ``violation`` is, naming the values there are (the session's seats)."""
    body = refusal(owner_client.get(deals_url(played), {"dealer": "anne"}), "dealer")
    assert body["detail"] == "dealer must be one of ann, bob, cat, dan, not 'anne'."


@pytest.mark.parametrize("tail, name", [
    ("sessions/{id}/deals/", "dealer"), ("sessions/{id}/deals/", "status"),
    ("sessions/", "status"), ("sessions/", "date_from"), ("members/", "role"),
    ("results", "from"), ("sessions/{id}/report", "table"),
])
def test_a_value_no_field_could_hold_is_a_400_naming_it(played, owner_client, tail, name):
    nul = refusal(owner_client.get(oak(played, tail), {name: "a\x00b"}), name)
    assert nul["errors"][0]["message"] == (f"{name} is refused: a string holds a NUL character "
                                           "(\\u0000), which cannot be stored.")
    long = refusal(owner_client.get(oak(played, tail), {name: "x" * 201}), name)
    assert long["errors"][0]["message"] == f"{name} is 201 characters long; it may be at most 200."


def test_a_value_of_200_characters_is_read_as_any_other(played, owner_client):
    body = refusal(owner_client.get(deals_url(played), {"dealer": "x" * 200}), "dealer")
    assert body["detail"].startswith("dealer must be one of ann, bob, cat, dan, not 'xxx")


def test_who_may_not_read_is_refused_first(played, outsider_client, anon_client):
    """The query is checked once the caller may read: an outsider still learns nothing."""
    assert problem(outsider_client.get(deals_url(played), {"bogus": "1"}), 404)["code"] == "not-found"
    assert problem(anon_client.get(deals_url(played), {"bogus": "1"}), 401)


#: every write, by the owner (who may make each): its query string is checked as a GET's is
WRITES = [
    ("post", "/api/v1/clubs/oak/sessions/"),
    ("post", "/api/v1/clubs/oak/sessions/{id}/deals/"),
    ("post", "/api/v1/clubs/oak/sessions/{id}/deals/1/corrections"),
    ("post", "/api/v1/clubs/oak/sessions/{id}/purchases/"),
    ("post", "/api/v1/clubs/oak/sessions/{id}/purchases/1/void"),
    ("post", "/api/v1/clubs/oak/sessions/{id}/payments/"),
    ("post", "/api/v1/clubs/oak/sessions/{id}/close"),
    ("post", "/api/v1/clubs/oak/sessions/{id}/reopen"),
    ("post", "/api/v1/clubs/oak/imports/"),
    ("post", "/api/v1/clubs/oak/imports/1/retry"),
    ("patch", "/api/v1/clubs/oak/"),
    ("put", "/api/v1/clubs/oak/"),
    ("post", "/api/v1/clubs/oak/members/"),
    ("patch", "/api/v1/clubs/oak/members/ann/"),
    ("delete", "/api/v1/clubs/oak/members/ann/user/"),
    ("post", "/api/v1/clubs/"),
    ("post", "/api/v1/replay"),
    ("post", "/api/v1/auth/password/"),
    ("delete", "/api/v1/auth/token/"),
]


@pytest.mark.parametrize("method, path", WRITES)
def test_a_write_with_a_parameter_it_does_not_take_is_a_400_naming_it(played, owner_client,
                                                                      method, path):
    """A write's query string used to be passed over whole. It is refused before the body is
    read (an empty body here: the query is the one error), so nothing is stored."""
    from games.models import LedgerEntry

    entries = LedgerEntry.objects.count()
    url = path.format(id=played.pk) + "?bogus=1"
    body = refusal(getattr(owner_client, method)(url, {}, format="json"), "bogus")
    assert body["errors"] == [{"field": "bogus", "message": "Unknown query parameter 'bogus'.",
                               "code": "unknown"}]
    assert LedgerEntry.objects.count() == entries
    assert owner_client.get("/api/v1/clubs/oak/").status_code == 200  # the token still works


def test_the_token_endpoint_refuses_one_too(club):
    body = refusal(APIClient().post("/api/v1/auth/token/?next=/", {"username": "sam",
                                    "password": "x"}, format="json"), "next")
    assert body["parameters"] == ["format"]


def test_a_write_takes_what_its_list_page_takes_and_what_it_reads(played, scorer_client):
    """Beside its own (an import's ``allow_duplicate``), a write takes, unread, the ``format``,
    ``page`` and filters of the page whose form posts it; the refusal lists them."""
    body = refusal(scorer_client.post(deals_url(played) + "?delaer=ann", {}, format="json"),
                   "delaer")
    assert body["detail"] == ("Unknown query parameter 'delaer': did you mean 'dealer'? "
                              "This URL takes dealer, format, page, status, violation.")
    body = refusal(scorer_client.post("/api/v1/clubs/oak/imports/?alow_duplicate=true",
                                      {"source": "{}"}, format="json"), "alow_duplicate")
    assert body["errors"][0]["message"] == ("Unknown query parameter 'alow_duplicate': did you "
                                            "mean 'allow_duplicate'?")
    assert body["parameters"] == ["allow_duplicate", "format"]
    stored = scorer_client.post(session_url(played, "purchases/") + "?format=json&page=2",
                                {"player": "bob", "chips": 5}, format="json")
    assert stored.status_code == 201, stored.content
    # a filter's value is the page's, not the write's: it is not read
    stored = scorer_client.post(deals_url(played) + "?dealer=zed&status=&page=last",
                                {"number": 4, "record": DEAL4}, format="json")
    assert stored.status_code == 201, stored.content


def test_who_may_not_write_is_refused_first(played, viewer_client, outsider_client, anon_client):
    url = session_url(played, "purchases/") + "?bogus=1"
    body = {"player": "bob", "chips": 5}
    assert problem(viewer_client.post(url, body, format="json"), 403)["code"] == "permission-denied"
    assert problem(outsider_client.post(url, body, format="json"), 404)["code"] == "not-found"
    assert problem(anon_client.post(url, body, format="json"), 401)


def test_a_method_the_url_does_not_take_is_still_a_405_and_options_is_not_checked(
        played, owner_client):
    for url in (deals_url(played), "/api/v1/replay", "/api/v1/auth/token/"):
        assert problem(owner_client.put(url + "?bogus=1", {}, format="json"), 405)
    assert owner_client.options(deals_url(played) + "?bogus=1").status_code == 200


def _browser_page(client: Client, url: str) -> tuple[str, str, str]:
    """The browsable API's page at ``url``: its HTML form's action (the page's own URL, query
    and all), and the CSRF token its forms and its raw data form send."""
    page = client.get(url, HTTP_ACCEPT="text/html")
    assert page.status_code == 200, page.content[:300]
    html_text = page.content.decode()
    action = re.search(r'<form action="([^"]+)" method="POST" enctype="multipart/form-data"',
                       html_text)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html_text)
    assert action and token, html_text[:500]
    return html.unescape(action.group(1)), token.group(1), html_text


@pytest.fixture
def browser(played) -> Client:
    """sam, the scorer, logged in to the browsable API (CSRF checked, as in a browser)."""
    from django.contrib.auth import get_user_model

    client = Client(enforce_csrf_checks=True)
    client.force_login(get_user_model().objects.get(username="sam"))
    return client


def test_the_browsable_apis_form_posts_to_its_page_with_its_query(played, browser):
    """The form on ``.../purchases/?page=1&format=api`` posts to that URL: taken."""
    from games.models import ChipPurchase

    action, token, _ = _browser_page(browser, session_url(played, "purchases/") +
                                     "?page=1&format=api")
    assert action == session_url(played, "purchases/") + "?page=1&format=api"
    made = browser.post(action, {"player": "bob", "chips": "5", "csrfmiddlewaretoken": token},
                        HTTP_ACCEPT="text/html")
    assert made.status_code == 201, made.content[:500]
    assert made["Content-Type"].startswith("text/html")
    assert ChipPurchase.objects.filter(session=played, player="bob", chips=5).exists()


def test_the_raw_data_form_posts_to_a_filtered_page_with_its_query(played, browser):
    """The raw data form (JSON, sent by the page's script with the CSRF header) of the deals
    filtered by dealer posts to ``.../deals/?dealer=ann&page=1&format=api``: taken; and one
    with a parameter the page does not take is refused, naming it."""
    action, token, _ = _browser_page(browser, deals_url(played) + "?dealer=ann&page=1&format=api")
    assert action == deals_url(played) + "?dealer=ann&page=1&format=api"
    made = browser.post(action, {"number": 4, "record": DEAL4}, content_type="application/json",
                        HTTP_ACCEPT="text/html; q=1.0, */*", HTTP_X_CSRFTOKEN=token)
    assert made.status_code == 201, made.content[:500]
    assert played.deals.count() == 4
    refused = browser.post(action + "&delaer=ann", {"number": 5, "record": DEAL4},
                           content_type="application/json", HTTP_ACCEPT="text/html",
                           HTTP_X_CSRFTOKEN=token)
    assert refused.status_code == 400 and b"delaer" in refused.content
    assert played.deals.count() == 4


def test_the_browsable_api_still_reads_its_format_and_filters(played, owner_client):
    for query in ({"format": "api"}, {"format": "api", "dealer": "ann", "page": "1"}):
        page = owner_client.get(deals_url(played), query, HTTP_ACCEPT="text/html")
        assert page.status_code == 200, page.content[:300]
        assert page["Content-Type"].startswith("text/html")
    refused = owner_client.get(deals_url(played), {"format": "api", "delaer": "ann"},
                               HTTP_ACCEPT="text/html")
    assert refused.status_code == 400 and b"delaer" in refused.content


def test_the_schema_and_docs_pages_still_load():
    client = APIClient()
    schema = client.get("/api/v1/schema/", {"format": "json"})
    assert schema.status_code == 200 and "paths" in schema.json()
    for page in ("/api/v1/docs/", "/api/v1/redoc/"):
        assert client.get(page).status_code == 200


def test_what_a_url_takes_is_what_the_schema_documents(played, owner_client, schema):
    """For every GET under a club, the parameters its refusal lists are the query parameters
    the schema documents for it, and ``format``: a client reading either learns the same; and
    the schema lists the 400 (a detail's GET documented none)."""
    fill = {"{club}": "oak", "{session_id}": str(played.pk), "{number}": "1", "{name}": "ann",
            "{job_id}": "1"}
    checked = 0
    for path, operations in schema["paths"].items():
        if "get" not in operations or not path.startswith("/api/v1/clubs/"):
            continue
        url = path
        for key, value in fill.items():
            url = url.replace(key, value)
        documented = {p["name"] for p in operations["get"].get("parameters", [])
                      if p["in"] == "query"}
        body = refusal(owner_client.get(url, {"zzz": "1"}), "zzz")
        assert set(body["parameters"]) == documented | {"format"}, path
        assert "400" in operations["get"]["responses"], path  # the refusal is documented too
        checked += 1
    assert checked >= len(TAKES)


def test_the_results_page_refuses_a_parameter_it_does_not_take(client, member_for):
    """The club's results page has filters (the range), so a misspelt one (``?form=``) showed
    every session's results: it is the page again, saying so, as a bad date is."""
    client.force_login(member_for("viewer").user)
    page = client.get("/clubs/oak/results/", {"form": "2026-11-01", "to": "2026-11-30"})
    html = page.content.decode()
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")
    assert ("Unknown query parameter &#x27;form&#x27;: did you mean &#x27;from&#x27;? "
            "This URL takes date_from, date_to, from, to.") in html
    assert 'name="to" value="2026-11-30"' in html  # what was typed is shown again
    shown = client.get("/clubs/oak/results/", {"from": "2026-11-01", "date_to": "2026-11-30"})
    assert shown.status_code == 200
