"""`manage.py load_demo`: the demo club, its logins and two engine-generated sessions (one open,
one closed and settled), idempotent."""
from __future__ import annotations

import json
import pathlib
import random
import re
from io import StringIO

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from accounts.models import Club, Member

pytestmark = pytest.mark.django_db


def load_demo(**options) -> str:
    out = StringIO()
    call_command("load_demo", stdout=out, **options)
    return out.getvalue()


def token_client(username: str, password: str) -> APIClient:
    client = APIClient()
    response = client.post("/api/v1/auth/token/", {"username": username, "password": password}, format="json")
    assert response.status_code == 200, response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def test_demo_club_logins_and_session_of_30_deals():
    output = load_demo()
    club = Club.objects.get(slug="demo")
    roles = dict(Member.objects.filter(club=club).values_list("name", "role"))
    assert roles == {"demo": "owner", "scorer": "scorer", "viewer": "viewer",
                     "ann": "player", "bob": "player", "cat": "player", "dan": "player", "eve": "player"}

    viewer = token_client("viewer", "viewer-password")
    sessions = viewer.get("/api/v1/clubs/demo/sessions/").json()["results"]
    ids = {s["name"]: s["id"] for s in sessions}
    assert {s["name"]: s["status"] for s in sessions} == {"Demo evening": "open",
                                                          "Pam-Loo night": "closed"}
    # made in this order, so that on a fresh database the open evening is the README's session 1
    assert ids["Demo evening"] < ids["Pam-Loo night"]
    session_id = ids["Demo evening"]
    deals = viewer.get(f"/api/v1/clubs/demo/sessions/{session_id}/deals/").json()
    assert deals["count"] == 30
    assert f"/api/v1/clubs/demo/sessions/{session_id}/ledger" in output
    purchases = viewer.get(f"/api/v1/clubs/demo/sessions/{session_id}/purchases/").json()["results"]
    buy_ins = sorted(p["player"] for p in purchases if p["memo"] == "buy-in")
    rebuys = [p for p in purchases if p["memo"].startswith("rebuy before deal")]
    assert buy_ins == ["ann", "bob", "cat", "dan", "eve"]
    assert rebuys, "the demo shows a player rebuying when short of chips"
    assert f"/clubs/demo/sessions/{session_id}/report/" in output

    # the scorer and the owner log in with the documented passwords and may record
    assert token_client("scorer", "scorer-password").get("/api/v1/clubs/demo/").json()["role"] == "scorer"
    assert token_client("demo", "demo-password").get("/api/v1/clubs/demo/").json()["role"] == "owner"


def test_demo_ledger_balances_with_the_chips_issued():
    load_demo(deals=12)
    from games.models import GameSession
    from games.services.ledger import ledger_check

    for session in GameSession.objects.filter(club__slug="demo"):
        assert session.deals.count() == 12
        assert ledger_check(session) == []


def test_demo_closed_session_shows_a_final_report_with_money_still_owed():
    """A treasurer's first look: results in money, who pays whom, and rebuys on the slate."""
    output = load_demo()
    from games.management.commands.load_demo import PAM_LOO_NIGHT

    viewer = token_client("viewer", "viewer-password")
    night = Club.objects.get(slug="demo").game_sessions.get(name="Pam-Loo night").pk
    api = f"/api/v1/clubs/demo/sessions/{night}/"
    session = viewer.get(api).json()
    assert (session["name"], session["status"], session["resolved_rules"]["game"]) == (
        "Pam-Loo night", "closed", "five-card")
    assert f"/clubs/demo/sessions/{night}/report/" in output
    purchases = viewer.get(f"{api}purchases/").json()["results"]
    # the first rebuy was keyed in twice and the copy voided: shown, counted nowhere
    voided = [p for p in purchases if p["void"] is not None]
    assert [(p["void"]["reason"], p["memo"].startswith("rebuy before deal")) for p in voided] == [
        ("keyed in twice", True)]
    twin = next(p for p in purchases if p["memo"] == voided[0]["memo"] and p["void"] is None)
    assert (twin["player"], twin["chips"]) == (voided[0]["player"], voided[0]["chips"])
    purchases = [p for p in purchases if p["void"] is None]
    on_slate: dict[str, int] = {}
    for p in purchases:
        if not p["paid"]:
            on_slate[p["player"]] = on_slate.get(p["player"], 0) + p["money"]
    # the README says "two rebuys still owed to the banker" (the fixed seed's deals)
    assert len([p for p in purchases if not p["paid"]]) == 2
    # a rebuy is 20 chips at 10 pence: 200 pence owed for each one on the slate
    assert all(money % (PAM_LOO_NIGHT.rebuy * PAM_LOO_NIGHT.chip_value) == 0
               for money in on_slate.values())

    report = viewer.get(f"{api}report").json()
    assert report["final"] is True and report["closed_at"] == session["closed_at"]
    players = {p["name"]: p for p in report["players"]}
    assert {n: p["owed_money"] for n, p in players.items() if p["owed_money"]} == on_slate
    # every chip bought comes back: the pool is split at the close, and the results sum to zero
    assert report["totals"]["chips_returned"] == report["totals"]["chips_bought"]
    assert sum(p["result_money"] for p in players.values()) == 0
    assert all(p["result_money"] == p["result_chips"] * PAM_LOO_NIGHT.chip_value
               for p in players.values())
    assert report["transfers"], "the report says who pays whom"


def test_load_demo_twice_creates_nothing_new():
    load_demo(deals=5)
    from games.models import Deal, GameSession

    counts = (Club.objects.count(), Member.objects.count(), GameSession.objects.count())
    deal_ids = sorted(Deal.objects.filter(session__club__slug="demo").values_list("id", flat=True))
    output = load_demo(deals=5)
    assert "already there" in output and "created" not in output
    assert (Club.objects.count(), Member.objects.count(), GameSession.objects.count()) == counts
    assert sorted(Deal.objects.filter(session__club__slug="demo").values_list("id", flat=True)) == deal_ids


def test_load_demo_keeps_a_changed_password():
    load_demo(deals=1)
    from django.contrib.auth import get_user_model

    demo = get_user_model().objects.get(username="demo")
    demo.set_password("changed-password-9")
    demo.save()
    load_demo(deals=1)
    assert APIClient().post("/api/v1/auth/token/", {"username": "demo", "password": "demo-password"},
                            format="json").status_code == 400
    token_client("demo", "changed-password-9")


def test_demo_deals_are_the_simulators_deals_for_the_seed():
    load_demo(deals=4, seed=99)
    from games.management.commands.load_demo import DEMO_SESSIONS, SEATS
    from games.models import GameSession
    from games.rules.simulate import random_session

    for spec in DEMO_SESSIONS:
        _header, *expected = random_session(spec.rules, SEATS, 4, random.Random(99), first_dealer=SEATS[0])
        session = GameSession.objects.get(club__slug="demo", name=spec.name)
        stored = [d.current.record for d in session.deals.order_by("number")]
        assert [r["actions"] for r in stored] == [r["actions"] for r in expected]
        assert [r["dealer"] for r in stored] == [r["dealer"] for r in expected]


def test_readme_try_it_answers_what_the_readme_shows():
    """README "Try it": each curl line's `# -> ...` is what the demo of `make run` answers, through
    the same `jq` filter (a newcomer's first commands must print what the page shows)."""
    readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Try it", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    shown = re.findall(r"^curl .*?(/api/v1/\S+) \| jq (.+?)(?:   #.*)?\n# -> (\{.*?\})", block, re.MULTILINE)
    load_demo()
    session_id = Club.objects.get(slug="demo").game_sessions.get(name="Demo evening").id
    client = token_client("demo", "demo-password")
    # the jq filters of the README, as Python
    filters = {"'.results[] | {slug, role}'": lambda a: [{k: r[k] for k in ("slug", "role")} for r in a["results"]],
               ".next": lambda a: a["next"], ".totals.balances": lambda a: a["totals"]["balances"]}
    assert [f for _, f, _ in shown] == list(filters)
    for path, jq_filter, said in shown:
        answer = client.get(path.replace("/sessions/1/", f"/sessions/{session_id}/")).json()
        got = filters[jq_filter](answer)
        assert (got[0] if isinstance(got, list) and len(got) == 1 else got) == json.loads(said), path
