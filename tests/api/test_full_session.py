"""Whole sessions of engine-generated deals recorded through the API, deal by deal, with rebuys
when a player runs short; the service's verdicts and ledger must equal the engine's own
``replay_session`` of the same session file."""
from __future__ import annotations

import random
from typing import Any

import pytest

from games.rules import RecordError, replay_session
from games.rules.simulate import random_deal, random_session

from .conftest import deals_url, session_url

pytestmark = pytest.mark.django_db

SEATS = ["ann", "bob", "cat", "dan", "eve"]


def record_all(client: Any, lines: list[dict[str, Any]], allow_credit: bool = False
               ) -> tuple[int, list[dict[str, Any]], dict[str, int]]:
    """Open the header's session and POST every deal; buy more chips when refused for credit.

    Returns the session id, the verdicts the API answered and the chips bought per player.
    """
    header, records = lines[0], lines[1:]
    created = client.post("/api/v1/clubs/oak/sessions/", {
        "date": "2026-11-29", "seats": header["seats"], "first_dealer": header["first_dealer"],
        "rules": header["rules"], "chip_value": header["chip_value"], "buy_ins": header["buy_ins"],
        "allow_credit": allow_credit,
    }, format="json")
    assert created.status_code == 201, created.content
    sid = created.json()["id"]
    url = f"/api/v1/clubs/oak/sessions/{sid}/deals/"
    bought = dict(header["buy_ins"])
    verdicts = []
    for number, record in enumerate(records, start=1):
        response = client.post(url, {"number": number, "record": record}, format="json")
        if response.status_code == 400 and response.json()["code"] == "insufficient-chips":
            for error in response.json()["errors"]:
                chips = max(header["buy_ins"][error["player"]], error["owes"] - error["holds"])
                rebuy = client.post(f"/api/v1/clubs/oak/sessions/{sid}/purchases/",
                                    {"player": error["player"], "chips": chips}, format="json")
                assert rebuy.status_code == 201, rebuy.content
                bought[error["player"]] += chips
            response = client.post(url, {"number": number, "record": record}, format="json")
        assert response.status_code == 201, (number, response.content)
        verdicts.append(response.json()["verdict"])
    return sid, verdicts, bought


@pytest.mark.parametrize(("preset", "n_deals", "seed"), [
    ("three-card", 40, 20261130),
    ("three-card-unlimited", 32, 7),
    ("five-card", 30, 11),
    ("poker-loo", 30, 5),
    ("irish", 30, 3),
])
def test_session_through_the_api_matches_the_engines_replay(scorer_client, club, preset, n_deals, seed):
    lines = random_session({"preset": preset}, SEATS, n_deals, random.Random(seed), first_dealer="cat")
    sid, verdicts, bought = record_all(scorer_client, lines)
    engine = list(replay_session(lines))
    assert len(verdicts) == len(engine) == n_deals

    for number, (ours, theirs) in enumerate(zip(verdicts, engine), start=1):
        theirs = {k: v for k, v in theirs.items() if k != "number"}
        assert ours == theirs, f"deal {number} differs"

    ledger = scorer_client.get(f"/api/v1/clubs/oak/sessions/{sid}/ledger").json()
    assert ledger["ok"], ledger["problems"]
    deal_rows = [r for r in ledger["rows"] if r["kind"] == "deal"]
    assert [r["deal"] for r in deal_rows] == list(range(1, n_deals + 1))
    # each player's chips after deal n = everything bought before it + the engine's deltas so far
    running = {p: 0 for p in SEATS}
    rows = iter(ledger["rows"])
    for verdict in engine:
        for row in rows:
            for account, chips in row["changes"].items():
                if row["kind"] == "purchase" and account in running:
                    running[account] += chips
            if row["kind"] == "deal":
                break
        for seat, delta in verdict["settlement"]["deltas"].items():
            running[seat] += delta
        assert row["balances"] == running, f"deal {verdict['number']}"
        assert row["pool"] == verdict["settlement"]["pool_after"]
    totals = ledger["totals"]
    assert totals["pool"] == engine[-1]["next"]["pool"]
    assert totals["issued"] == sum(bought.values())
    assert sum(totals["balances"].values()) + totals["pool"] == totals["issued"]
    session = scorer_client.get(f"/api/v1/clubs/oak/sessions/{sid}/").json()
    assert session["next"]["dealer"] == engine[-1]["next"]["dealer"]
    assert session["next"]["number"] == n_deals + 1


def alternative_deal(lines: list[dict[str, Any]], number: int, rng: random.Random, *, valid_later: bool
                     ) -> tuple[dict[str, Any], list[dict[str, Any]] | RecordError] | None:
    """Another legal deal ``number`` for the same dealer and pool, and what the engine makes of
    the session file with it: the verdicts (``valid_later``: every later deal still replays and
    at least one settles differently) or the RecordError of the first later deal it breaks."""
    original = list(replay_session(lines))
    old = lines[number]
    later = [{k: v for k, v in r.items() if k != "pool"} for r in lines[number + 1:]]  # pools move
    for _ in range(200):
        new = random_deal(lines[0]["rules"], lines[0]["seats"], old["dealer"], pool=old["pool"], rng=rng,
                          first_of_series=False)
        new["number"] = number
        try:
            engine = list(replay_session([*lines[:number], new, *later]))
        except RecordError as exc:
            if not valid_later:
                return new, exc
            continue
        changed = any(a["settlement"] != b["settlement"] for a, b in zip(engine[number:], original[number:]))
        if valid_later and changed:
            return new, engine
    return None


def snapshot(session: Any) -> tuple[list[Any], list[Any]]:
    from games.models import DealRevision, LedgerEntry

    return (list(LedgerEntry.objects.filter(session=session).values_list("seq", "account", "chips")),
            list(DealRevision.objects.filter(deal__session=session).values_list("deal__number", "revision")))


def long_session_with_alternative(client: Any, number: int, *, valid_later: bool) -> tuple[Any, dict, Any]:
    """A 30-deal three-card session recorded through the API (credit allowed, so that only the
    deals themselves can refuse a correction), another deal ``number`` and the engine's answer
    to the corrected file (see :func:`alternative_deal`)."""
    from games.models import GameSession

    rng = random.Random(99)
    lines = random_session({"preset": "three-card"}, SEATS, 30, rng, first_dealer="ann")
    found = alternative_deal(lines, number, rng, valid_later=valid_later)
    assert found is not None, f"no alternative deal {number} found"
    sid, _, _ = record_all(client, lines, allow_credit=True)
    return GameSession.objects.get(pk=sid), *found


def correct(client: Any, session: Any, number: int, record: dict[str, Any]) -> Any:
    return client.post(f"{deals_url(session)}{number}/corrections", {"record": record, "reason": "wrong deal keyed"},
                       format="json")


def test_correcting_an_early_deal_resettles_every_later_deal_like_the_engine(scorer_client, club):
    session, new5, engine = long_session_with_alternative(scorer_client, 5, valid_later=True)
    response = correct(scorer_client, session, 5, new5)
    assert response.status_code == 201, response.content
    changes = response.json()["changes"]
    assert changes[0]["number"] == 5 and changes[0]["cause"] == "corrected"
    assert all(c["cause"] == "resettled" and c["number"] > 5 for c in changes[1:])
    deals = scorer_client.get(deals_url(session)).json()["results"]
    for deal, verdict in zip(deals, engine):
        assert deal["verdict"]["settlement"] == verdict["settlement"], deal["number"]
    ledger = scorer_client.get(session_url(session, "ledger")).json()
    assert ledger["ok"] and ledger["totals"]["pool"] == engine[-1]["next"]["pool"]


def test_correction_that_breaks_a_later_deal_is_refused_whole(scorer_client, club):
    session, new3, error = long_session_with_alternative(scorer_client, 3, valid_later=False)
    before = snapshot(session)
    response = correct(scorer_client, session, 3, new3)
    assert response.status_code == 409, response.content
    body = response.json()
    broken = error.errors[0]["deal"]
    assert body["code"] == "correction-refused" and body["deal"] == broken > 3
    assert body["errors"][0]["message"] == error.errors[0]["message"]
    assert f"would make deal {broken} impossible" in body["detail"]
    assert snapshot(session) == before


def _poker_loo_deal(rules: Any, dealer: str, pool: int, rng: random.Random, *, revoke: bool,
                    **state: Any) -> dict[str, Any]:
    """A poker-Loo deal record with hands and stock shown; ``revoke``: the first player able to
    revoke does (the hand is thrown in and the same dealer deals again without them)."""
    from games.rules.deal import Deal
    from games.rules.simulate import deal_cards

    cards = deal_cards(rules, SEATS, dealer, pool, rng, state.get("sits_out", ()))  # none for him
    deal = Deal(rules, SEATS, dealer, pool=pool, hands=cards["hands"], miss=cards["miss"],
                turnup=cards["turnup"], stock=cards["stock"], **state)
    actions: list[dict[str, Any]] = []
    while deal.phase != "over":
        action = rng.choice(deal.legal_actions())
        if revoke and deal.phase == "play":
            bad = [c for c in deal.hand(deal.to_act) if deal.play_violation(deal.to_act, c) == "revoke"]
            if bad:
                action, revoke = {"player": deal.to_act, "action": "play", "card": bad[0]}, False
        deal.push(action)
        actions.append(dict(action))
    return {"format": "loo-deal/1", "dealer": dealer, "turnup": cards["turnup"], "actions": actions,
            "hands": {s: list(h) for s, h in cards["hands"].items()}, "stock": list(cards["stock"])}


def test_poker_loo_revoke_redeal_is_carried_like_replay_session(scorer_client, club):
    from games.rules import RuleSet

    rules = RuleSet.from_options({"preset": "poker-loo"})
    rng = random.Random(0)
    first = _poker_loo_deal(rules, "cat", 0, rng, revoke=True, first_of_series=True)
    header = {"format": "loo-session/1", "seats": SEATS, "rules": rules.to_options(), "first_dealer": "cat",
              "pool": 0, "banker": "club", "chip_value": 1, "buy_ins": {s: 50 for s in SEATS}}
    verdict1 = next(replay_session([header, first]))
    assert verdict1["redeal"]["sits_out"] and verdict1["next"]["dealer"] == "cat"
    out = verdict1["redeal"]["sits_out"]
    second = _poker_loo_deal(rules, "cat", verdict1["next"]["pool"], rng, revoke=False, first_of_series=True,
                             redeal=True, sits_out=out)
    engine = list(replay_session([header, first, second]))

    sid, verdicts, _ = record_all(scorer_client, [header, first], allow_credit=True)
    session = scorer_client.get(f"/api/v1/clubs/oak/sessions/{sid}/").json()
    assert session["next"] == {"number": 2, "dealer": "cat", "pool": verdict1["next"]["pool"],
                               "first_of_series": True, "sits_out": out}
    response = scorer_client.post(f"/api/v1/clubs/oak/sessions/{sid}/deals/", {"number": 2, "record": second},
                                  format="json")
    assert response.status_code == 201, response.content
    assert response.json()["record"]["redeal"] is True and response.json()["record"]["sits_out"] == out
    assert [verdicts[0], response.json()["verdict"]] == [{k: v for k, v in e.items() if k != "number"} for e in engine]
