"""A GET's query string names only parameters the URL takes: one it does not take is a 400
naming it and listing those it takes (a misspelt filter, ``?delaer=ann``, answered every deal,
quietly), and a filter's value that no field could hold is a 400 too, never a 500.

oak_session's table is ann, bob, cat, dan with cat dealing first, so in ``played`` cat deals
deal 1, dan deal 2 and ann deal 3 (tests/api/conftest.py); bob deals none.
"""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import deals_url, problem, session_url

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


def test_a_post_keeps_its_own_query(played, scorer_client):
    """Only a GET's query string is the question: a POST's is read by its view (an import's
    ``allow_duplicate``), and a parameter beside it is not this check's business."""
    response = scorer_client.post(session_url(played, "purchases/") + "?note=x",
                                  {"player": "bob", "chips": 5}, format="json")
    assert response.status_code == 201, response.content


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
