"""Every page a visitor or a member sees, checked by axe-core in headless Chromium: at a
desktop's width and at a phone's 320 px, with every <details> opened so that what it hides is
checked too, and the keyboard's focus visible wherever Tab goes.

axe-core is vendored (tests/assets/axe.min.js, MPL-2.0, its licence header kept): the check
runs offline, as CI does. It is handed to the page by Playwright (``page.evaluate``), which the
page's Content-Security-Policy does not stop, so the pages keep running no script of their own.

The browsable API's pages are Django REST framework's, with our fixes (its ``api.html``): they
are checked as they stand after DRF's scripts and ours have run.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import needs_chromium
from tests.reports.test_report_browser import logged_in_page

AXE = Path(__file__).resolve().parents[1] / "assets" / "axe.min.js"
WIDTHS = (1280, 320)
#: a serious or critical finding always fails; a moderate or minor one fails too unless its rule
#: is here, with the reason it is accepted (none is now)
ACCEPTED: dict[str, str] = {}
BLOCKING = ("serious", "critical")
#: the most Tab presses a page is walked through (the report has a few dozen links and boxes)
TABS = 40

pytestmark = [
    pytest.mark.browser,
    needs_chromium,
]

RUN_AXE = """async () => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const found = await axe.run(document, {resultTypes: ['violations']});
  return found.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
      targets: v.nodes.slice(0, 3).map(n => n.target.join(' ')), count: v.nodes.length}));
}"""

#: "" where the focus shows (an outline 2 px or more), else the focused element's tag
UNSEEN_FOCUS = """() => {
  const e = document.activeElement;
  // past the last stop Tab leaves the page for the browser's own controls
  if (!e || e === document.body || !document.hasFocus()) return '';
  // a date box's calendar button: Chromium rings it itself, inside the box, out of the page's reach
  if (e.matches('input[type=date], input[type=datetime-local]') && !e.matches(':focus')) return '';
  const s = getComputedStyle(e);
  return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2 ? '' : e.outerHTML.slice(0, 80);
}"""


def findings(page: Any, label: str) -> list[str]:
    """What axe finds on the page as it stands, that fails the check: one line a rule."""
    page.evaluate(AXE.read_text())
    return [f"{label}: {v['impact']} {v['id']} x{v['count']} ({v['help']}) at {v['targets']}"
            for v in page.evaluate(RUN_AXE)
            if v["impact"] in BLOCKING or v["id"] not in ACCEPTED]


def unseen_focus(page: Any, label: str) -> list[str]:
    """Each element Tab reaches whose focus does not show (WCAG 2.4.7)."""
    unseen = []
    for _ in range(TABS):
        page.keyboard.press("Tab")
        if element := page.evaluate(UNSEEN_FOCUS):
            unseen.append(f"{label}: focus not shown on {element}")
    return unseen


def check_pages(page: Any, base: str, paths: dict[str, str]) -> list[str]:
    """Every path at each width: axe's findings, a page wider than the screen, a focus unseen."""
    problems = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for name, path in paths.items():
            label = f"{name} at {width}px"
            response = page.goto(base + path)
            assert response is not None and response.status in (200, 400), (label, response)
            problems += findings(page, label)
            # a wide table scrolls in its own (labelled) box, never the whole page
            if (wide := page.evaluate("document.documentElement.scrollWidth")) > width:
                problems.append(f"{label}: the page is {wide}px wide")
            if width == WIDTHS[0]:
                problems += unseen_focus(page, label)
    return problems


def test_every_page_a_visitor_sees_passes_axe(live_server, settings, db):
    paths = {"home": "/", "login": "/api-auth/login/?next=/", "problem types": "/problems/",
             "a problem type": "/problems/conflict"}
    with logged_in_page(live_server, settings, None) as page:
        problems = check_pages(page, live_server.url, paths)
        # a refused login says so, next to the boxes, in a page that still passes
        page.goto(live_server.url + paths["login"])
        page.fill("#id_username", "nobody")
        page.fill("#id_password", "not-the-password")
        page.click("#submit-id-submit")
        assert page.locator("#login-error").is_visible()
        problems += findings(page, "a refused login")
    assert problems == []


def test_every_page_a_member_sees_passes_axe(live_server, settings, closed_report, club,
                                             member_for):
    from tests.reports.conftest import record_hand_session

    still_open = record_hand_session(club, member_for("scorer").user, n_deals=12)
    paths = {"home": "/", "club": "/clubs/oak/", "results": "/clubs/oak/results/",
             "results, a misspelt date": "/clubs/oak/results/?from=2026-13-01",
             "closed report": closed_report,
             "open report": f"/clubs/oak/sessions/{still_open.pk}/report/"}
    with logged_in_page(live_server, settings, member_for("viewer").user) as page:
        problems = check_pages(page, live_server.url, paths)
        print("\n".join(problems))
        assert problems == []


def test_the_check_finds_what_it_is_for(live_server, settings, db):
    """The check fails a page it should: a date box without its label, an image without words."""
    with logged_in_page(live_server, settings, None) as page:
        page.goto(live_server.url + "/problems/")
        page.evaluate("""() => { document.querySelector('main').insertAdjacentHTML('beforeend',
            '<input type="date" name="from"><svg role="img"><circle r="4"/></svg>'); }""")
        found = " ".join(findings(page, "spoilt"))
    assert "critical label x1" in found and "serious svg-img-alt x1" in found



def test_the_browsable_api_passes_axe(live_server, settings, club, member_for):
    """What a member sees opening an API URL in a browser (DRF's pages, with our fixes:
    templates/rest_framework/api.html): lists, details, and the forms of a club's owner."""
    from tests.reports.conftest import record_hand_session

    owner = member_for("owner").user
    session = record_hand_session(club, owner, n_deals=3)
    deals = f"/api/v1/clubs/oak/sessions/{session.pk}/deals/"
    paths = {"API root": "/api/v1/", "clubs": "/api/v1/clubs/", "a club": "/api/v1/clubs/oak/",
             "a member": "/api/v1/clubs/oak/members/sam/",
             "a session": f"/api/v1/clubs/oak/sessions/{session.pk}/", "its deals": deals,
             "a deal": f"{deals}2/"}
    with logged_in_page(live_server, settings, owner) as page:
        assert check_pages(page, live_server.url, paths) == []
        # the forms and buttons are DRF's still, each box and button named
        page.goto(live_server.url + paths["a member"])
        assert page.get_by_label("Role", exact=True).first.input_value() == "scorer"
        assert page.get_by_role("button", name="OPTIONS").count() == 1
        page.goto(live_server.url + deals)
        assert page.get_by_role("button", name="Specify a format for the GET request").count() == 1
        page.get_by_label("Number", exact=True).fill("4")  # the POST's own fields (number, record)
        assert page.get_by_role("button", name="POST").is_visible()
        # the raw data form, behind its tab, which the check above did not see
        page.get_by_role("link", name="Raw data").first.click()
        assert page.get_by_label("Content").first.is_visible()
        assert findings(page, "the raw data form") == []
        # the dialogs, which open over the page: the filters, and the DELETE's "Are you sure"
        assert open_dialog(page, "Filters", "Filters").get_by_label("Status").is_visible()
        assert findings(page, "the filters") == []
        page.goto(live_server.url + "/api/v1/clubs/oak/members/sam/user/")  # DELETE only
        open_dialog(page, "DELETE", "Are you sure")
        assert findings(page, "the DELETE's dialog") == []


def open_dialog(page: Any, button: str, dialog: str) -> Any:
    """The dialog the button opens, once it has faded in (halfway, axe measures faded colours)."""
    page.get_by_role("button", name=button).click()
    opened = page.get_by_role("dialog", name=dialog)
    opened.wait_for()
    page.wait_for_function("() => getComputedStyle(document.querySelector('.modal.in')).opacity === '1'")
    return opened
