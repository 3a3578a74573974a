"""How the service's own pages and the report's files answer, beyond what they show: an answer
made for a signed-in member is kept by no shared cache (``Cache-Control: private, max-age=0``)
while a public page stays as it was; the pages answer GET and HEAD only; and the report's two
settling tables head their explanations alike."""
from __future__ import annotations

import html as html_lib
import io
import re

import pytest

from games.reports.model import build_report
from games.reports.render import report_html, report_pdf
from tests.reports.conftest import url
from tests.reports.test_close_and_report import Tables
from tests.reports.test_pages_hostile import OWN_PAGES
from tests.reports.test_report_model import facts

pytestmark = pytest.mark.django_db

#: the pages only a member sees: a club's data on each (the home page lists the member's clubs)
MEMBER_PAGES = ("/", "/clubs/oak/", "/clubs/oak/sessions/{id}/report/", "/clubs/oak/results/")


def directives(response) -> set[str]:
    """The answer's Cache-Control directives, as a set ("" when it has none)."""
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


PRIVATE = {"private", "max-age=0"}


@pytest.mark.parametrize("path", MEMBER_PAGES)
def test_a_members_page_is_kept_by_no_shared_cache(path, hand_session, client, member_for):
    """The pages said ``Vary: Cookie`` and nothing else: a proxy that keys on the URL alone could
    hand one club's report to the next caller of that URL."""
    client.force_login(member_for("viewer").user)
    page = client.get(path.format(id=hand_session.pk))
    assert page.status_code == 200
    assert directives(page) == PRIVATE
    assert "Cookie" in page["Vary"]


def test_every_download_the_report_page_links_is_kept_by_no_shared_cache(hand_session, client,
                                                                         member_for):
    """The JSON, each CSV table, the PDF and the session file, fetched as the page's browser
    fetches them (its session); the PDF can be fetched again, and is the same file."""
    client.force_login(member_for("viewer").user)
    page = client.get(f"/clubs/oak/sessions/{hand_session.pk}/report/").content.decode()
    nav = page[page.index('<nav aria-label="Downloads and pages">'):]
    links = dict(re.findall(r'<a href="([^"]+)">([^<]+)</a>', nav[:nav.index("</nav>")]))
    answers = {label: client.get(html_lib.unescape(href)) for href, label in links.items()}
    assert {label: (a.status_code, directives(a)) for label, a in answers.items()} == dict.fromkeys(
        ("JSON", "CSV: players", "CSV: deals", "CSV: transfers", "CSV: purchases", "PDF",
         "Session file (.jsonl)", "Club results", "Home"), (200, PRIVATE))
    again = client.get(url(hand_session, "report"), {"format": "pdf"})
    assert again.status_code == 200 and directives(again) == PRIVATE
    assert b"".join(again.streaming_content) == b"".join(answers["PDF"].streaming_content)


def test_the_reports_files_by_token_are_kept_by_no_shared_cache(hand_session, viewer_client):
    """A script with a token gets the same: the API said no Cache-Control at all."""
    for fmt in ("json", "csv", "pdf"):
        answer = viewer_client.get(url(hand_session, "report"), {"format": fmt})
        assert (answer.status_code, directives(answer)) == (200, PRIVATE), fmt
    results = viewer_client.get("/api/v1/clubs/oak/results", {"format": "csv"})
    assert (results.status_code, directives(results)) == (200, PRIVATE)


def test_a_members_write_and_refusal_are_private_too(hand_session, scorer_client, viewer_client):
    """The close answers the results in money; a refusal to a member names the club's session."""
    closed = scorer_client.post(url(hand_session, "close"), {}, format="json")
    assert (closed.status_code, directives(closed)) == (200, PRIVATE)
    refused = viewer_client.post(url(hand_session, "reopen"), {"reason": "x"}, format="json")
    assert (refused.status_code, directives(refused)) == (403, PRIVATE)


@pytest.mark.parametrize("path", ["/", "/problems/", "/problems/not-found"])
def test_a_public_page_to_a_visitor_is_not_made_private(path, client, club):
    """The home page and the problem types to a visitor: shown alike to anybody, so no
    Cache-Control is added, and a page that never read the session is not marked
    ``Vary: Cookie`` for looking whether anybody had signed in."""
    page = client.get(path)
    assert page.status_code == 200
    assert directives(page) == set()
    if path != "/":  # the home page reads the session to know whose clubs to list
        assert "Cookie" not in page.get("Vary", "")


def test_a_page_that_does_not_depend_on_who_asks_stays_public_for_a_member(client, member_for):
    """The problem types read nothing of the member, and the favicon says public itself: a
    member's browser asking for them keeps them as they were."""
    client.force_login(member_for("viewer").user)
    assert directives(client.get("/problems/not-found")) == set()
    assert directives(client.get("/favicon.ico")) == {"public", "max-age=604800"}


def test_a_visitor_sent_to_log_in_or_refused_gets_no_private_answer(hand_session, client,
                                                                   anon_client):
    """Nothing of the club is in a login redirect or a 401: they are left alone."""
    page = client.get(f"/clubs/oak/sessions/{hand_session.pk}/report/")
    assert page.status_code == 302 and directives(page) == set()
    refused = anon_client.get(url(hand_session, "report"))
    assert refused.status_code == 401 and directives(refused) == set()


# --- the pages answer GET and HEAD only -------------------------------------------------------


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize("path", OWN_PAGES)
def test_an_own_page_refuses_every_method_but_get_and_head(path, method, hand_session, client,
                                                           member_for):
    """Each page only renders (its forms post elsewhere or GET): a POST rendered the page as a
    GET would. Now a 405 naming what it takes, before the login is even asked for."""
    target = path.format(id=hand_session.pk)
    anonymous = getattr(client, method)(target)
    assert (anonymous.status_code, anonymous["Allow"]) == (405, "GET, HEAD")
    client.force_login(member_for("viewer").user)
    refused = getattr(client, method)(target)
    assert (refused.status_code, refused["Allow"]) == (405, "GET, HEAD")
    assert refused.content == b""
    assert "default-src 'none'" in refused["Content-Security-Policy"]  # the page's own policy


@pytest.mark.parametrize("path", OWN_PAGES)
def test_an_own_page_answers_head_as_get_without_the_body(path, hand_session, client,
                                                          member_for):
    client.force_login(member_for("viewer").user)
    target = path.format(id=hand_session.pk)
    head, get = client.head(target), client.get(target)
    assert (head.status_code, get.status_code) == (200, 200)
    assert head.content == b"" and get.content
    assert head["Content-Type"] == get["Content-Type"]


@pytest.mark.parametrize("path", ["/api/v1/clubs/oak/sessions/{id}/report",
                                  "/api/v1/clubs/oak/results"])
def test_the_reports_api_refuses_a_post_as_every_api_view_does(path, hand_session, viewer_client):
    """The files' URLs (DRF) took only GET already: a 405 problem naming what they take."""
    refused = viewer_client.post(path.format(id=hand_session.pk), {}, format="json")
    assert refused.status_code == 405
    assert refused.json()["code"] == "method-not-allowed"
    assert refused["Allow"] == "GET, HEAD, OPTIONS"


# --- the two settling tables head their explanations alike -----------------------------------

BANKER_HEADS = ["Player", "Owed for chips (GBP)", "Buy-back (GBP)",
                "Banker pays / player pays (GBP)", "Why"]
TRANSFER_HEADS = ["Pays", "To", "Amount (GBP)", "Why"]


def test_the_banker_lines_and_the_transfers_head_their_explanations_why():
    """The banker lines headed theirs "Settles" beside a "Banker pays / player pays" column,
    which is what settles; the transfers headed the same kind of words "Why"."""
    for for_pdf in (False, True):  # the page, and the PDF's source
        parser = Tables()
        parser.feed(report_html(build_report(facts()), for_pdf=for_pdf))
        assert parser.tables["through-banker"]["heads"] == BANKER_HEADS
        assert parser.tables["transfers"]["heads"] == TRANSFER_HEADS
        # each "Why" cell is its line's explanation
        banker, transfers = parser.tables["through-banker"], parser.tables["transfers"]
        assert banker["rows"][0][4].startswith("bought 3.00 (2.00 paid, 1.00 owed)")
        assert transfers["rows"][0][3].startswith("ann owes 0.50")


def test_the_pdf_heads_both_explanations_why():
    from pypdf import PdfReader

    pdf = PdfReader(io.BytesIO(report_pdf(build_report(facts()))))
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in pdf.pages))
    assert re.search(r"Banker pays / player pays \(GBP\) Why", text), text[:2000]
    assert re.search(r"Amount \(GBP\) Why", text)
    assert "Settles" not in text


def test_the_page_of_a_closed_session_heads_both_explanations_why(hand_session, scorer_client,
                                                                  client, member_for):
    assert scorer_client.post(url(hand_session, "close"), {}, format="json").status_code == 200
    client.force_login(member_for("viewer").user)
    parser = Tables()
    parser.feed(client.get(f"/clubs/oak/sessions/{hand_session.pk}/report/").content.decode())
    assert parser.tables["through-banker"]["heads"] == BANKER_HEADS
    assert parser.tables["transfers"]["heads"] == TRANSFER_HEADS
