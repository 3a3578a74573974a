"""The HTML pages against a hostile club: a club name, display names, a session name, an
irregularity's evidence, a void's reason and the closings' reasons that hold markup are shown
as text everywhere they appear (the pages, the SVG charts, the browsable API, the admin); an
odd id or query string is a 400 or a 404, never a 500; another club's ids are not found as
ids that do not exist are not; a login switched off is sent to log in again."""
from __future__ import annotations

import datetime as dt
import html as html_lib
import json
import re
from html.parser import HTMLParser

import pytest

from tests.browser import needs_chromium
from tests.conftest import TEST_PASSWORD
from tests.reports.conftest import record_hand_session
from tests.reports.test_report_browser import logged_in_page

pytestmark = pytest.mark.django_db

#: what each hostile text is, by where it is typed in
HOSTILE = {
    "club": '<script>alert("club")</script>',
    "ann": '"><img src=x onerror=alert(1)>',
    "bob": "</svg><script>alert(2)</script>",  # the charts' legends are inline SVG
    "cat": "javascript:alert(3)",
    "session": "</title><script>alert(4)</script>",
    "evidence": "<script>alert(5)</script>",
    "void": "<b onmouseover=alert(6)>void</b>",
    "close": "<style>*{display:none}</style>",
    "reopen": "<iframe src=javascript:alert(8)>",
}
@pytest.fixture
def hostile_session(club, member_for):
    """Club oak renamed, ann bob and cat given hostile display names, and a session (named
    hostile) of two deals, a misdeal with hostile evidence, a voided rebuy, closed, reopened
    and closed again with hostile reasons."""
    from accounts.models import Member
    from games.services.closing import session_close, session_reopen
    from games.services.deals import deal_record
    from games.services.sessions import purchase_record, purchase_void

    club.name = HOSTILE["club"]
    club.save()
    for name in ("ann", "bob", "cat"):
        Member.objects.filter(club=club, name=name).update(display_name=HOSTILE[name])
    session = record_hand_session(club, member_for("scorer").user, n_deals=2, correct=False)
    session.name = HOSTILE["session"]
    session.save()
    deal_record(session=session, number=3, user=None, record={
        "format": "loo-deal/1", "dealer": "cat", "turnup": "2S", "actions": [
            {"player": "cat", "action": "irregularity", "kind": "misdeal",
             "evidence": HOSTILE["evidence"]}]})
    rebuy = purchase_record(session=session, player="bob", chips=20, paid=True, user=None)
    purchase_void(session=session, purchase_id=rebuy.pk, reason=HOSTILE["void"])
    session_close(session=session, user=member_for("scorer").user, reason=HOSTILE["close"])
    session_reopen(session=session, user=member_for("owner").user, reason=HOSTILE["reopen"])
    session_close(session=session, user=member_for("scorer").user, reason=HOSTILE["close"])
    session.refresh_from_db()
    return session


class Markup(HTMLParser):
    """What of a page a browser would act on: its tags, every attribute, and the text of its
    scripts and style sheets."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str]] = []
        self.code: list[str] = []  # inside <script> and <style>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += [(name, value or "") for name, value in attrs]

    def handle_data(self, data: str) -> None:
        if self.lasttag in ("script", "style"):
            self.code.append(data)


def assert_inert(page: str, shown: set[str], *, own: bool = False) -> None:
    """Nothing of the hostile texts is markup on ``page`` (no tag, attribute, script or style
    of theirs), and each of ``shown`` is there as text. ``own``: one of the service's own pages,
    which have no script, no image and one style sheet, so that a cut name (a chart's legend
    cuts one at 16 characters) that opened a tag is seen too."""
    markup = Markup()
    markup.feed(page)
    assert "iframe" not in markup.tags
    if own:
        assert ("script" in markup.tags, "img" in markup.tags, markup.tags.count("style")) == (
            False, False, 1)
    assert [(n, v) for n, v in markup.attrs if n in ("onerror", "onmouseover") or (
        n in ("href", "src", "action") and v.strip().lower().startswith("javascript:"))] == []
    assert [c for c in markup.code if "alert(" in c or "display:none" in c] == []
    assert [key for key, text in HOSTILE.items() if "<" in text and text in page] == []
    def as_text(text: str) -> set[str]:  # as a page, or the browsable API's JSON, writes it
        return {html_lib.escape(t, quote=q) for t in (text, json.dumps(text)[1:-1])
                for q in (False, True)}

    missing = [key for key in shown if not any(t in page for t in as_text(HOSTILE[key]))]
    assert missing == []  # the control: each text is on the page, to be shown or leaked


def test_the_pages_show_hostile_names_and_reasons_as_text(hostile_session, client, member_for):
    client.force_login(member_for("viewer").user)
    report = client.get(f"/clubs/oak/sessions/{hostile_session.pk}/report/").content.decode()
    # the header, the tables, both charts (the legend names the players), the purchases'
    # void, the deals' violation and the header's reopening
    assert_inert(report, {"club", "ann", "bob", "cat", "session", "evidence", "void", "reopen"},
                 own=True)
    chips_chart = report[report.index('<svg xmlns="http://www.w3.org/2000/svg" id="chips-chart"'):]
    chips_chart = chips_chart[:chips_chart.index("</svg>") + len("</svg>")]
    assert "&lt;/svg&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in chips_chart  # bob's name
    assert chips_chart.count("</svg>") == 1  # his name did not end the chart
    for path, shown in (("/", {"club", "session"}), ("/clubs/oak/", {"club", "session"}),
                        ("/clubs/oak/results/", {"club", "ann", "bob", "cat"})):
        response = client.get(path)
        assert response.status_code == 200, path
        assert_inert(response.content.decode(), shown, own=True)


def test_the_browsable_api_and_the_admin_show_them_as_text(hostile_session, client, club,
                                                           member_for):
    from django.contrib.auth import get_user_model

    from accounts.models import Member
    from games.models import Deal, PurchaseVoid

    client.force_login(member_for("owner").user)
    base = f"/api/v1/clubs/oak/sessions/{hostile_session.pk}"
    for path, shown in ((f"{base}/report", {"club", "ann", "session", "evidence", "void"}),
                        (f"{base}/closings", {"close", "reopen"}),
                        (f"{base}/deals/", {"evidence"}), ("/api/v1/clubs/oak/members/", {"ann"}),
                        # an owner's forms, filled in with what is there now
                        ("/api/v1/clubs/oak/members/ann/", {"ann"}), (f"{base}/", {"session"}),
                        ("/api/v1/clubs/", {"club"})):
        response = client.get(path, HTTP_ACCEPT="text/html")
        assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
        assert_inert(response.content.decode(), shown)
    staff = get_user_model().objects.create_superuser("root", "root@example.org", TEST_PASSWORD)
    client.force_login(staff)
    void = PurchaseVoid.objects.get(purchase__session=hostile_session)
    misdeal = Deal.objects.get(session=hostile_session, number=3)
    ann = Member.objects.get(club=club, name="ann")
    for path, shown in (("/admin/games/gamesession/", {"session"}),
                        (f"/admin/games/gamesession/{hostile_session.pk}/change/", {"void"}),
                        ("/admin/accounts/club/", {"club"}),
                        (f"/admin/accounts/club/{club.pk}/change/", {"club", "ann"}),
                        (f"/admin/accounts/member/{ann.pk}/change/", {"ann"}),
                        ("/admin/games/purchasevoid/", {"void"}),
                        (f"/admin/games/purchasevoid/{void.pk}/change/", {"void"}),
                        (f"/admin/games/deal/{misdeal.pk}/change/", set())):
        response = client.get(path)
        assert response.status_code == 200, path
        assert_inert(response.content.decode(), shown)


def test_the_pdf_of_a_hostile_session_renders(hostile_session, client, member_for):
    client.force_login(member_for("viewer").user)
    response = client.get(f"/api/v1/clubs/oak/sessions/{hostile_session.pk}/report",
                          {"format": "pdf"})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content).startswith(b"%PDF-")


def test_another_clubs_session_is_not_found_as_one_that_does_not_exist(
        hostile_session, client, member_for, other_club):
    """A member of oak asking for elm's session under oak's name, or under elm's, is answered
    as for a session that never was: nothing tells them it exists."""
    from games.services.sessions import session_create

    elm = session_create(club=other_club, date=dt.date(2026, 11, 28), seats=["ann", "bob"],
                         first_dealer="ann", rules={"preset": "three-card"}, name="Elm secret")
    client.force_login(member_for("viewer").user)
    never = client.get("/clubs/oak/sessions/999999/report/")
    assert never.status_code == 404
    for path in (f"/clubs/oak/sessions/{elm.pk}/report/", f"/clubs/elm/sessions/{elm.pk}/report/",
                 "/clubs/oak/sessions/99999999999999999999999999/report/",
                 "/clubs/oak/sessions/0/report/"):
        response = client.get(path)
        assert response.status_code == 404 and response.content == never.content, path
    assert client.get("/clubs/elm/results/").content == client.get("/clubs/none/results/").content
    assert client.get("/clubs/elm/").content == client.get("/clubs/none/").content


def test_a_login_switched_off_is_sent_to_log_in(hostile_session, client, member_for):
    from django.test import Client

    user = member_for("viewer").user
    client.force_login(user)
    user.is_active = False
    user.save()
    for path in ("/clubs/oak/", f"/clubs/oak/sessions/{hostile_session.pk}/report/",
                 "/clubs/oak/results/"):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith(
            "/api-auth/login/?next="), path
    assert "You are not a member" not in client.get("/").content.decode()
    assert "Log in to see your clubs" in client.get("/").content.decode()
    assert not Client().login(username=user.username, password=TEST_PASSWORD)


@pytest.mark.parametrize(("query", "status"), [
    ("/clubs/oak/results/?from=" + "9" * 5000, 400),
    ("/clubs/oak/results/?from=%ff%fe", 400),  # not UTF-8: read as U+FFFD, not a day
    ("/clubs/oak/results/?to=%00", 400),
    ("/clubs/oak/results/?from=0000-01-01", 400),
    ("/clubs/oak/results/?from=2026-02-30", 400),
    ("/clubs/oak/results/?from=9999-12-31", 200),
    ("/clubs/oak/results/?from=2026-01-01&from=2026-12-01", 200),  # the last, as the API reads it
    ("/clubs/oak/results/?from=2026-01-01&date_from=2026-12-01", 400),
    ("/clubs/oak/results/?%ff=%ff", 400),  # a parameter the page does not take, named
    ("/clubs/oak/?page=%ff", 400),
    ("/clubs/oak/?page=1&page=x", 400),
    ("/clubs/oak/?page=" + "9" * 5000, 404),
    ("/clubs/oak/sessions/{id}/report/?from=%ff&page=" + "9" * 5000, 200),  # nothing read
    ("/?page=%ff", 200),
    ("/problems/%ff", 404),
    ("/clubs/%ff/", 404),
])
def test_an_odd_query_is_a_400_or_the_page_never_a_500(hostile_session, client, member_for,
                                                       query, status):
    client.force_login(member_for("viewer").user)
    client.raise_request_exception = False
    response = client.get(query.format(id=hostile_session.pk))
    assert response.status_code == status
    if status == 400:  # the page again, saying what is wrong
        assert response["Content-Type"].startswith("text/html")
        assert 'id="error"' in response.content.decode()


@pytest.mark.browser
@needs_chromium
def test_a_browser_runs_nothing_of_them_and_shows_them_as_typed(
        hostile_session, live_server, member_for, settings):
    """Chromium parses the charts' SVG as SVG (not as the HTML parser above does): nothing of
    the names runs, and each reads as it was typed, in the tables and in the chart's legend."""
    from games.reports.charts import legend_name

    dialogs: list[str] = []
    with logged_in_page(live_server, settings, member_for("viewer").user) as page:
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        for path in (f"/clubs/oak/sessions/{hostile_session.pk}/report/", "/", "/clubs/oak/",
                     "/clubs/oak/results/"):
            assert page.goto(live_server.url + path).status == 200
            page.wait_for_load_state("load")
            assert page.locator("script, iframe, img").count() == 0, path
        page.goto(live_server.url + f"/clubs/oak/sessions/{hostile_session.pk}/report/")
        assert page.locator("h1").inner_text() == HOSTILE["session"]
        assert page.locator('tr[data-player="bob"] th').first.inner_text().startswith(
            HOSTILE["bob"])
        legends = page.locator("#chips-chart g.legend text").all_text_contents()
        assert f"{legend_name(HOSTILE['bob'])} (" in " ".join(legends)
        assert page.locator("#chips-chart polyline").count() == 4  # the chart is whole
        assert HOSTILE["evidence"] in page.locator('tr[data-deal="3"]').inner_text()
    assert dialogs == []


def test_every_link_of_the_report_page_answers_for_its_own_session(hostile_session, client,
                                                                   member_for, other_club):
    """Two sessions in the club (and one in another): the page's JSON, CSV, PDF and session file
    are this session's, each a 200 of its kind; the results and home pages answer."""
    from games.services.sessions import session_create

    session_create(club=other_club, date=dt.date(2026, 11, 28), seats=["ann", "bob"],
                   first_dealer="ann", rules={"preset": "three-card"})
    later = session_create(club=hostile_session.club, date=dt.date(2026, 11, 29),
                           seats=["ann", "bob"], first_dealer="ann",
                           rules={"preset": "three-card"})
    client.force_login(member_for("viewer").user)
    for session in (hostile_session, later):
        page = client.get(f"/clubs/oak/sessions/{session.pk}/report/").content.decode()
        nav = page[page.index('<nav aria-label="Downloads and pages">'):]
        links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', nav[:nav.index("</nav>")])
        answers = {label: client.get(html_lib.unescape(href)) for href, label in links}
        assert {label: a.status_code for label, a in answers.items()} == dict.fromkeys(
            ("JSON", "CSV: players", "CSV: deals", "CSV: transfers", "CSV: purchases", "PDF",
             "Session file (.jsonl)", "Club results", "Home"), 200)
        assert answers["JSON"].json()["session_id"] == session.pk
        final = "" if session.status == "closed" else "-provisional"
        for label, answer in answers.items():
            if label.startswith("CSV: "):
                assert answer["Content-Disposition"] == (
                    f'attachment; filename="session-{session.pk}-{label[5:]}{final}.csv"')
        assert answers["PDF"]["Content-Type"] == "application/pdf"
        assert f'filename="session-{session.pk}-report{final}.pdf"' in answers[
            "PDF"]["Content-Disposition"]
        assert answers["Session file (.jsonl)"]["Content-Disposition"] == (
            f'attachment; filename="session-{session.pk}.jsonl"')


OWN_PAGES = ("/", "/clubs/oak/", "/clubs/oak/sessions/{id}/report/", "/clubs/oak/results/",
             "/problems/", "/problems/not-found")


@pytest.mark.parametrize("path", OWN_PAGES)
def test_the_pages_carry_the_headers_deploy_promises(path, hostile_session, member_for,
                                                     settings):
    """Behind the TLS proxy (deploy/README.md): plain http is sent to https, and a page over
    https is framed by nobody, read as what it says it is, and sent with HSTS. The service's own
    pages have no script: their policy lets none run, nor any other source load, so a name
    that slipped its escaping would still be inert."""
    from django.test import Client

    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    client = Client()  # (its middleware read the settings above)
    client.force_login(member_for("viewer").user)
    url = path.format(id=hostile_session.pk)
    plain = client.get(url)
    assert plain.status_code == 301 and plain["Location"] == f"https://testserver{url}"
    page = client.get(url, HTTP_X_FORWARDED_PROTO="https")
    assert page.status_code == 200
    assert page["Content-Type"] == "text/html; charset=utf-8"
    assert page["Strict-Transport-Security"] == "max-age=3600"
    assert (page["X-Frame-Options"], page["X-Content-Type-Options"], page["Referrer-Policy"]) == (
        "DENY", "nosniff", "same-origin")
    policy = dict(part.strip().split(" ", 1) for part in page["Content-Security-Policy"].split(";"))
    assert policy == {"default-src": "'none'", "style-src": "'unsafe-inline'",
                      "img-src": "'self'", "form-action": "'self'",
                      "frame-ancestors": "'none'", "base-uri": "'none'"}


def test_the_api_docs_and_the_admin_keep_their_scripts(client, club, member_for):
    """The policy is the service's own pages': Swagger UI, the browsable API and the admin run
    scripts of their own (from /static/), and get no such header."""
    client.force_login(member_for("viewer").user)
    for path in ("/api/v1/docs/", "/api/v1/", "/api-auth/login/"):
        assert "Content-Security-Policy" not in client.get(path), path


def test_a_form_that_writes_needs_its_csrf_token(hand_session, member_for):
    """The home page's log-out button and the browsable API's forms post with the page's CSRF
    token; a post from elsewhere (a logged-in browser, no token) writes nothing."""
    from django.test import Client

    from games.models import GameSession

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(member_for("scorer").user)
    home = browser.get("/").content.decode()
    form = home[home.index('<form method="post" action="/api-auth/logout/"'):]
    assert 'name="csrfmiddlewaretoken"' in form[:form.index("</form>")]
    close = f"/api/v1/clubs/oak/sessions/{hand_session.pk}/close"
    api_form = browser.get(close, HTTP_ACCEPT="text/html").content.decode()
    assert 'name="csrfmiddlewaretoken"' in api_form
    assert browser.post(close, {"reason": "from elsewhere"}).status_code == 403
    assert browser.post("/api-auth/logout/").status_code == 403
    assert browser.get("/api-auth/logout/").status_code == 405  # no log-out by a link
    assert GameSession.objects.get(pk=hand_session.pk).status == "open"
    assert "Log out sam" in browser.get("/").content.decode()
    token = browser.cookies["csrftoken"].value  # the control: with the page's token, it closes
    done = browser.post(close, {"reason": "the page's own form", "csrfmiddlewaretoken": token})
    assert done.status_code == 200, done.content
    assert GameSession.objects.get(pk=hand_session.pk).status == "closed"
