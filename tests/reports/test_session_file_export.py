"""GET .../sessions/{id}/file: a stored session written back as a session file, which imports
to the same chips, pool and deals and replays through the engine's own session reader."""
from __future__ import annotations

import itertools
import json

from games.models import ChipPurchase, GameSession
from games.rules import replay_session
from tests.reports import sessionkit as kit
from tests.reports.conftest import url

IMPORTS = "/api/v1/clubs/oak/imports/"


def lines_of(response) -> list[dict]:
    return [json.loads(line) for line in response.content.decode().splitlines()]


def purchases(session: GameSession) -> list[tuple]:
    return [(p.player, p.chips, p.money, p.paid, p.memo)
            for p in ChipPurchase.objects.filter(session=session).order_by("posting")]


def settled(session: GameSession) -> list[tuple]:
    return [(d.number, d.current.dealer, d.current.pool_before, d.current.deltas,
             d.current.pool_after) for d in session.deals.select_related("current").order_by("number")]


def reimported(session: GameSession, viewer_client, scorer_client, capture) -> GameSession:
    """The session exported by a viewer, then imported by a scorer: the session it made."""
    text = viewer_client.get(url(session, "file")).content.decode()
    with capture(execute=True):
        job = scorer_client.post(IMPORTS, {"source": text}, format="json").json()
    job = scorer_client.get(job["url"]).json()
    assert job["status"] == "done", job
    return GameSession.objects.get(pk=job["session"])


def test_the_file_holds_the_session_as_it_stands(hand_session, viewer_client):
    response = viewer_client.get(url(hand_session, "file"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/jsonl")
    assert response["Content-Disposition"] == f'attachment; filename="session-{hand_session.pk}.jsonl"'
    header, *lines = lines_of(response)
    assert header["format"] == "loo-session/1" and header["seats"] == kit.SEATS
    assert (header["first_dealer"], header["pool"], header["banker"]) == ("ann", 0, "club")
    assert header["chip_value"] == kit.CHIP_VALUE and header["buy_ins"] == {}
    deals = [line for line in lines if "purchase" not in line]
    assert [d["number"] for d in deals] == list(range(1, kit.N_DEALS + 1))
    # deal 9 as corrected, not as first noted
    assert deals[8] == {**hand_session.deals.get(number=9).current.record, "format": "loo-deal/1"}
    # the buy-ins open the file, each rebuy comes after the deal it followed
    bought = [line["purchase"] for line in lines if "purchase" in line]
    assert [(b["player"], b["chips"], b["memo"]) for b in bought[:4]] == [
        (seat, kit.header()["buy_ins"][seat], "buy-in") for seat in kit.SEATS]
    rebuys = []
    for before, line in itertools.pairwise(lines):
        if "purchase" in line and line["purchase"]["memo"] == "rebuy":
            after = before.get("number") or rebuys[-1][0]  # a second rebuy follows the first
            rebuys.append((after, line["purchase"]["player"], line["purchase"]["chips"],
                           line["purchase"]["paid"]))
    assert rebuys == kit.REBUYS


def test_the_file_imports_to_the_same_chips_pool_and_deals(hand_session, viewer_client,
                                                            scorer_client,
                                                            django_capture_on_commit_callbacks):
    copy = reimported(hand_session, viewer_client, scorer_client,
                      django_capture_on_commit_callbacks)
    assert settled(copy) == settled(hand_session)
    assert purchases(copy) == purchases(hand_session)
    assert viewer_client.get(url(copy, "ledger")).json()["totals"] == \
        viewer_client.get(url(hand_session, "ledger")).json()["totals"]


def test_the_engine_replays_the_file_to_the_stored_verdicts(hand_session, viewer_client):
    lines = lines_of(viewer_client.get(url(hand_session, "file")))
    verdicts = list(replay_session(lines))
    stored = [d.current.verdict for d in hand_session.deals.select_related("current").order_by("number")]
    assert [v["settlement"] for v in verdicts] == [v["settlement"] for v in stored]
    assert [v["violations"] for v in verdicts] == [v["violations"] for v in stored]


def test_the_file_answers_either_json_lines_name(hand_session, viewer_client):
    for media in ("application/jsonl", "application/x-ndjson", "*/*"):
        response = viewer_client.get(url(hand_session, "file"), HTTP_ACCEPT=media)
        assert response.status_code == 200, media
        assert response["Content-Type"].split(";")[0] in ("application/jsonl", media)


def test_the_file_refusals(hand_session, outsider_client, anon_client, viewer_client):
    assert outsider_client.get(url(hand_session, "file")).status_code == 404
    assert anon_client.get(url(hand_session, "file")).status_code == 401
    missing = viewer_client.get(f"/api/v1/clubs/oak/sessions/{hand_session.pk + 99}/file")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/problem+json"


def test_line_separators_inside_a_name_or_memo_survive_the_round_trip(hand_session, viewer_client,
                                                                      scorer_client,
                                                                      django_capture_on_commit_callbacks):
    # JSON leaves U+2028, U+2029 and U+0085 unescaped in a string; a JSON Lines reader must not
    # break a line there
    from games.services.sessions import purchase_record

    GameSession.objects.filter(pk=hand_session.pk).update(name="Fri\u2028day\u0085night")
    purchase_record(session=hand_session, player="ann", chips=1, memo="a\u2029b")
    copy = reimported(hand_session, viewer_client, scorer_client,
                      django_capture_on_commit_callbacks)
    assert copy.name == "Fri\u2028day\u0085night"
    assert purchases(copy) == purchases(hand_session)
