"""The session-file import, for any file a client might send (hypothesis): a valid generated
session file (any preset, 2-6 seats, a few deals, purchases, payments, maybe a void, maybe a
close), with one or two mutations drawn on top (a line dropped, duplicated, swapped, truncated; a field deleted,
renamed or given another type; a card misspelt or played twice; a seat renamed; blank lines, a
BOM, bytes that are not UTF-8; the header's rules unknown or impossible), posted to
``POST imports/`` (eager Celery). The properties:

1. never a 500, and the job never ends in an unhandled exception: it is done, or it failed with
   errors that each name a line of the file, in words (no Python repr);
2. a failed import stores nothing: no session, purchase, deal, revision, ledger entry, payment
   or closing row;
3. a done import round-trips: the session's file (``GET sessions/{id}/file``) imports again to
   the same balances, pool, verdicts, purchases, payments and closings.

~40 examples by default (under a minute); ``LOO_IMPORT_EXAMPLES=3000`` for a long hunt.
"""
from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from games.models import (
    ChipPayment,
    ChipPurchase,
    Deal,
    DealRevision,
    GameSession,
    LedgerEntry,
    PurchaseVoid,
    SessionClosing,
)
from games.rules import PRESETS
from games.rules.simulate import random_session, rules_from
from tests.reports.conftest import url

pytestmark = pytest.mark.django_db
IMPORTS = "/api/v1/clubs/oak/imports/"
MEMBERS = ["ann", "bob", "cat", "dan", "eve", "olga"]
RULES: list[dict[str, Any]] = [{"preset": name} for name in PRESETS] + [
    {"game": "three-card", "end_pool": "final-deal"},
    {"game": "poker-loo", "loo_cap": 40},
]
ROWS = (GameSession, ChipPurchase, Deal, DealRevision, LedgerEntry, ChipPayment, SessionClosing,
        PurchaseVoid)
#: values a field may be given instead of its own
ODD_VALUES = ["x", "", 1.5, True, False, None, [], [1], {}, {"a": 1}, 2**63, -(2**63) - 1,
              -1, 0, 10**30, float("nan"), float("inf"), "ann", "pool", "3"]
BAD_CARDS = ["", "ZZ", "10H", "as", "A♠", "1S", "AS ", "XX", 5, None]
ODD_SEATS = ["zed", "pool", "bank", "club", "", "ANN", "otto"]
ODD_RULES = [{"game": "whist"}, {"preset": "nope"}, "three-card", [], None,
             {"game": "three-card", "loo_cap": -1}, {"game": "three-card", "end_pool": "x"},
             {"game": "three-card", "frobnicate": True}, {"game": "five-card"},
             {"preset": "three-card", "loo_cap": "40"}, {"game": "three-card", "loo_cap": 2**63}]


def examples() -> int:
    return int(os.environ.get("LOO_IMPORT_EXAMPLES", "40"))


@st.composite
def session_files(draw) -> list[str]:
    """A valid session file's lines (as JSON text), before any mutation."""
    rules = draw(st.sampled_from(RULES))
    players = draw(st.integers(2, 6))
    seats = MEMBERS[:players]
    try:
        rules_from(rules).check_seats(seats)
    except ValueError:
        assume(False)
    seed = draw(st.integers(0, 2**32))
    n_deals = draw(st.integers(0, 4))
    lines = random_session(rules, seats, n_deals, random.Random(seed))
    header = lines[0]
    header["allow_credit"] = draw(st.booleans())
    header["chip_value"] = draw(st.sampled_from([1, 5]))
    header["buy_ins"] = {s: n * 4 for s, n in header["buy_ins"].items()}
    owed: dict[str, int] = {}
    for _ in range(draw(st.integers(0, 2))):  # purchases, a paid one or one on credit
        at = draw(st.integers(1, len(lines)))
        player, paid = draw(st.sampled_from(seats)), draw(st.booleans())
        lines.insert(at, {"purchase": {"player": player, "chips": 10, "paid": paid}})
        if not paid:
            owed[player] = owed.get(player, 0) + 10 * header["chip_value"]
    for player, debt in owed.items():  # a payment toward it, at the end
        lines.append({"payment": {"player": player, "money": draw(st.integers(1, debt))}})
    if draw(st.booleans()):  # a buy-in or a purchase voided, anywhere after it (a payment too)
        made = [0] * sum(1 for s in seats if header["buy_ins"].get(s))
        made += [i for i, x in enumerate(lines) if "purchase" in x]
        if made:
            place = draw(st.integers(1, len(made)))
            at = draw(st.integers(made[place - 1] + 1, len(lines)))
            lines.insert(at, {"void": {"purchase": place, "reason": "keyed by mistake"}})
            event("a void")
    if draw(st.booleans()):
        lines.append({"close": {"reason": "the evening ends"}})
        if draw(st.booleans()):
            lines.append({"reopen": {"reason": "one more deal"}})
    return [json.dumps(x) for x in lines]


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every key or index inside a line (to a depth of 4)."""
    found = []
    items = (value.items() if isinstance(value, dict)
             else enumerate(value) if isinstance(value, list) else [])
    for key, inner in items:
        found.append((*prefix, key))
        if len(prefix) < 3:
            found += paths(inner, (*prefix, key))
    return found


def mutate_field(data, line: Any) -> Any:
    """Delete, rename or retype one field of a parsed line, or change a card or a seat."""
    where = paths(line)
    if not where:
        return line
    path = data.draw(st.sampled_from(where))
    parent = line
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    how = data.draw(st.sampled_from(["delete", "rename", "retype", "card", "seat"]))
    if how == "card" and key == "card":
        played = [a.get("card") for a in line.get("actions", []) if isinstance(a, dict)]
        parent[key] = data.draw(st.sampled_from(BAD_CARDS + [c for c in played if c]))
    elif how == "seat" and isinstance(parent[key], str):
        parent[key] = data.draw(st.sampled_from(ODD_SEATS))
    elif how == "delete" and isinstance(parent, dict):
        del parent[key]
    elif how == "rename" and isinstance(parent, dict):
        parent[key + "x"] = parent.pop(key)
    else:
        parent[key] = data.draw(st.sampled_from(ODD_VALUES))
    return line


def parsed(line: str) -> Any:
    """A line as JSON, or None when an earlier mutation left it unreadable."""
    try:
        return json.loads(line)
    except ValueError:
        return None


def mutate(data, lines: list[str]) -> list[str]:
    """One mutation of the file's lines (text)."""
    how = data.draw(st.sampled_from(["drop", "dup", "swap", "field", "field", "field", "field",
                                     "card", "card", "truncate", "blank", "bom", "rules",
                                     "seat-header"]))
    i = data.draw(st.integers(0, len(lines) - 1))
    event(f"mutation: {how}")
    lines = list(lines)
    if how == "drop":
        del lines[i]
    elif how == "dup":
        lines.insert(i, lines[i])
    elif how == "swap":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "field" and parsed(lines[i]) is not None:
        lines[i] = json.dumps(mutate_field(data, parsed(lines[i])))
    elif how == "card":  # a play's card misspelt, or one played before in the deal
        plays = [(n, k) for n, line in enumerate(lines) if isinstance(deal := parsed(line), dict)
                 and isinstance(deal.get("actions"), list)
                 for k, a in enumerate(deal["actions"]) if isinstance(a, dict) and "card" in a]
        if plays:
            n, k = data.draw(st.sampled_from(plays))
            deal = parsed(lines[n])
            played = [a["card"] for a in deal["actions"][:k] if isinstance(a, dict) and "card" in a]
            deal["actions"][k]["card"] = data.draw(st.sampled_from(BAD_CARDS + played))
            lines[n] = json.dumps(deal)
    elif how == "truncate":
        lines[i] = lines[i][:data.draw(st.integers(0, max(len(lines[i]) - 1, 0)))]
    elif how == "blank":
        lines.insert(i, data.draw(st.sampled_from(["", "  ", "\t", "\r"])))
    elif how == "bom":
        lines[i] = "\ufeff" + lines[i]
    elif how == "rules" and isinstance(header := parsed(lines[0]), dict):
        header["rules"] = data.draw(st.sampled_from(ODD_RULES))
        lines[0] = json.dumps(header)
    elif how == "seat-header" and isinstance(header := parsed(lines[0]), dict) \
            and isinstance(header.get("seats"), list) and header["seats"]:
        header["seats"][data.draw(st.integers(0, len(header["seats"]) - 1))] = \
            data.draw(st.sampled_from(ODD_SEATS))
        lines[0] = json.dumps(header)
    return lines or [""]


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in ROWS}


def post(client, capture, body: bytes):
    with capture(execute=True):
        response = client.generic("POST", f"{IMPORTS}?allow_duplicate=true", body,
                                  content_type="application/x-ndjson")
    return response


def stored(session: GameSession) -> dict[str, Any]:
    """What a round trip must keep of a session."""
    from games.services.ledger import ledger_balances

    return {
        "balances": ledger_balances(session), "status": session.status,
        "verdicts": [(d.number, d.current.verdict) for d in
                     session.deals.select_related("current").order_by("number")],
        "purchases": list(ChipPurchase.objects.filter(session=session).order_by("posting")
                          .values_list("player", "chips", "money", "paid", "memo")),
        "voids": list(PurchaseVoid.objects.filter(purchase__session=session).order_by("posting")
                      .values_list("purchase__posting", "reason")),
        "payments": list(ChipPayment.objects.filter(session=session).order_by("pk")
                         .values_list("player", "money", "memo")),
        "closes": list(SessionClosing.objects.filter(session=session).order_by("at", "id")
                       .values_list("action", "end_pool", "end_pool_shares", "returned", "reason")),
    }


#: words that give away a Python exception instead of a treasurer's message
LEAKS = ("Traceback", "NoneType", "object has no attribute", "not subscriptable",
         "unhashable", "<class", "KeyError", "TypeError", "ValueError", "internal error")


def check_failed_job(job: dict[str, Any], n_lines: int) -> None:
    """Property 1 for a failed job: errors, each at a line of the file, in words."""
    assert job["errors"], job
    for error in job["errors"]:
        assert isinstance(error.get("line"), int) and 1 <= error["line"] <= max(n_lines, 1), error
        assert isinstance(error.get("message"), str) and error["message"].strip(), error
        assert not any(w in error["message"] for w in LEAKS), error
    assert not any(w in job["detail"] for w in LEAKS), job["detail"]


@settings(max_examples=examples(), deadline=None, derandomize=False,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(base=session_files(), data=st.data())
def test_any_file_imports_whole_or_not_at_all(scorer_client, viewer_client,
                                              django_capture_on_commit_callbacks, base, data):
    lines = base
    for _ in range(data.draw(st.sampled_from([0, 1, 1, 2, 2]))):  # 0: the file as made
        lines = mutate(data, lines)
    body = ("\n".join(lines) + "\n").encode()
    damage = data.draw(st.sampled_from([None] * 17 + [b"\xff", b"\xc3", b"\x00"]))
    if damage is not None:
        at = data.draw(st.integers(0, len(body)))
        body = body[:at] + damage + body[at:]
    before = counts()
    response = post(scorer_client, django_capture_on_commit_callbacks, body)
    assert response.status_code in (202, 400), response.content
    event(f"answer: {response.status_code}")
    if response.status_code == 400:  # not UTF-8, a NUL: refused before any job
        assert response.json()["errors"] and counts() == before
        return
    job = scorer_client.get(response.json()["url"]).json()
    assert job["status"] in ("done", "failed"), job
    event(f"job: {job['status']}")
    if job["status"] == "failed":
        check_failed_job(job, body.count(b"\n") + 1)
        assert counts() == before, job["errors"]
        return
    session = GameSession.objects.get(pk=job["session"])
    text = viewer_client.get(url(session, "file")).content
    again = post(scorer_client, django_capture_on_commit_callbacks, text)
    assert again.status_code == 202, again.content
    copy_job = scorer_client.get(again.json()["url"]).json()
    assert copy_job["status"] == "done", (text.decode(), copy_job["errors"])
    assert stored(GameSession.objects.get(pk=copy_job["session"])) == stored(session)
