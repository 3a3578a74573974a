"""Bulk import of a session file, eagerly (the Celery task runs in-process after commit)."""
from __future__ import annotations

import hashlib
import io
import json

import pytest
from django.core.management import call_command

from tests.reports import sessionkit as kit
from tests.reports.conftest import WorkerKilled, killing

pytestmark = pytest.mark.django_db
IMPORTS = "/api/v1/clubs/oak/imports/"


class Answer:
    """The 202 answer of a POST, and the job as GET shows it once the task ran after commit."""

    def __init__(self, response, job):
        self.status_code, self.response, self.job = response.status_code, response, job

    def json(self):
        return self.job


def post_file(client, text, capture, **extra):
    with capture(execute=True) as callbacks:
        response = client.post(IMPORTS, {"source": text, "filename": "sat.jsonl"}, format="json",
                               **extra)
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "queued" and len(callbacks) == 1
    return Answer(response, client.get(response.json()["url"]).json())


def lines_with(changes: dict[int, object]) -> str:
    """The session file with some lines (1-based) replaced by raw text or a dict."""
    lines = [json.dumps(x) for x in kit.session_lines()]
    for number, new in changes.items():
        lines[number - 1] = new if isinstance(new, str) else json.dumps(new)
    return "\n".join(lines) + "\n"


def test_import_stores_the_whole_session(scorer_client, django_capture_on_commit_callbacks):
    from games.models import ChipPurchase, GameSession
    from games.services.ledger import ledger_balances

    response = post_file(scorer_client, kit.session_file(), django_capture_on_commit_callbacks)
    assert response.status_code == 202
    job = response.json()
    assert response.response["Location"] == job["url"]
    assert (job["status"], job["progress"], job["errors"]) == ("done", "53/53", [])
    session = GameSession.objects.get(pk=job["session"])
    assert session.deals.count() == 53 and session.name == "Saturday table"
    assert ChipPurchase.objects.filter(session=session).count() == 4 + len(kit.REBUYS)
    balances = ledger_balances(session)
    assert {s: balances[s] for s in kit.SEATS} == {
        s: kit.EXPECTED["bought"][s] + kit.EXPECTED["won"][s] for s in kit.SEATS}
    assert balances["pool"] == 9
    detail = scorer_client.get(job["url"]).json()
    assert detail["status"] == "done" and detail["session"] == session.pk
    # the imported session closes to the hand-worked figures
    close = scorer_client.post(f"/api/v1/clubs/oak/sessions/{session.pk}/close")
    assert close.json()["results"] == kit.EXPECTED["result_money"]


def test_import_upload_and_raw_body(scorer_client, django_capture_on_commit_callbacks):
    upload = io.BytesIO(kit.session_file(12).encode())
    upload.name = "twelve.jsonl"
    with django_capture_on_commit_callbacks(execute=True):
        response = scorer_client.post(IMPORTS, {"file": upload}, format="multipart")
    assert response.status_code == 202
    job = scorer_client.get(response.json()["url"]).json()
    assert (job["status"], job["filename"], job["total"]) == ("done", "twelve.jsonl", 12)
    with django_capture_on_commit_callbacks(execute=True):
        raw = scorer_client.generic("POST", IMPORTS, kit.session_file(4),
                                    content_type="application/x-ndjson")
    assert raw.status_code == 202
    assert scorer_client.get(raw.json()["url"]).json()["status"] == "done"


def test_every_bad_line_reported_and_nothing_stored(scorer_client, django_capture_on_commit_callbacks):
    from games.models import GameSession, LedgerEntry

    lines = kit.session_lines()
    at = next(i for i, x in enumerate(lines) if x.get("number") == 12)
    assert at + 1 == 15  # header, deals 1-8, two rebuys, deals 9-11
    deal12 = lines[at]
    twice = json.loads(json.dumps(lines[5]))  # deal 5: cat plays 2H twice
    twice["actions"][5]["card"] = "2H"
    wrong_dealer = dict(deal12, dealer="ann")
    text = lines_with({3: '{"format": "loo-deal/1", oops', 6: twice, 15: wrong_dealer})
    response = post_file(scorer_client, text, django_capture_on_commit_callbacks)
    assert response.status_code == 202
    job = response.json()
    assert job["status"] == "failed"
    assert sorted({e["line"] for e in job["errors"]}) == [3, 6, 15]
    by_line = {e["line"]: e for e in job["errors"]}
    assert by_line[3]["message"].startswith("not JSON")
    assert by_line[15]["message"] == "Deal 12 is dan's deal, not ann's."
    assert "nothing was stored" in job["detail"]
    assert GameSession.objects.count() == 0 and LedgerEntry.objects.count() == 0


def test_engine_errors_name_line_action_and_card(scorer_client, django_capture_on_commit_callbacks):
    lines = kit.session_lines()
    twice = json.loads(json.dumps(lines[5]))
    twice["actions"][5]["card"] = "2H"
    response = post_file(scorer_client, lines_with({6: twice}), django_capture_on_commit_callbacks)
    errors = response.json()["errors"]
    assert errors and all(e["line"] == 6 and e["deal"] == 5 for e in errors)
    assert any(e.get("card") == "2H" for e in errors)


def test_missing_rebuy_is_a_credit_error(scorer_client, django_capture_on_commit_callbacks):
    lines = [x for x in kit.session_lines() if "purchase" not in x]
    text = "\n".join(json.dumps(x) for x in lines)
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    # ann: 20 - 6 - 3 - 6 - 3 = 2 after deal 7, deal 9 (hers) costs 6
    first = job["errors"][0]
    assert first["deal"] == 9 and first["message"] == "ann holds 2 and owes 6: record a purchase first"


def test_header_errors(scorer_client, django_capture_on_commit_callbacks):
    bad = kit.header(seats=["ann", "zed"], rules={"game": "whist"}, chip_value=0)
    job = post_file(scorer_client, json.dumps(bad), django_capture_on_commit_callbacks).json()
    messages = " | ".join(e["message"] for e in job["errors"])
    assert {e["line"] for e in job["errors"]} == {1}
    assert '"zed" is not a member of this club' in messages and "chip_value" in messages
    assert any(e.get("field") == "rules" for e in job["errors"])


def test_a_header_without_first_dealer_starts_with_the_first_seat_as_the_engine_reads_it(
        scorer_client, django_capture_on_commit_callbacks):
    """deal-record.md's header names the seats, rules, banker, chip value and buy-ins; a file
    that leaves out who deals first is dealt first by the first seat, as ``replay_session``
    (and ``python -m games.rules replay``) reads it. The sessionkit file's first dealer is ann,
    its first seat: without the field it imports to the same session and closes to the same
    hand-worked figures. Before, the import refused it ("first_dealer null is not seated")."""
    from games.models import GameSession
    from games.rules import replay_session

    lines = kit.session_lines()
    del lines[0]["first_dealer"]
    assert [v["dealer"] for v in replay_session(lines)][:2] == ["ann", "bob"]
    text = "\n".join(json.dumps(x) for x in lines) + "\n"
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert (job["status"], job["errors"]) == ("done", [])
    session = GameSession.objects.get(pk=job["session"])
    assert session.first_dealer == "ann"
    close = scorer_client.post(f"/api/v1/clubs/oak/sessions/{session.pk}/close")
    assert close.json()["results"] == kit.EXPECTED["result_money"]
    # the same file with the seats in another order is dealt first by bob: deal 1 (ann's) is
    # then the wrong dealer's, in the import as in the engine
    lines[0]["seats"] = ["bob", "cat", "dan", "ann"]
    text = "\n".join(json.dumps(x) for x in lines) + "\n"
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert [(e["line"], e["message"]) for e in job["errors"]][:1] == [
        (2, "Deal 1 is bob's deal, not ann's.")], job["errors"]


def test_a_seat_named_as_a_ledger_account_is_a_header_error(club, scorer_client,
                                                            django_capture_on_commit_callbacks):
    """A member "pool" seated by a file would buy chips into the pool: line 1's error, found
    before anything is stored (as ``POST sessions/`` refuses it)."""
    from accounts.services import member_ensure
    from games.models import GameSession

    member_ensure(club=club, name="pool")
    bad = kit.header(seats=["ann", "bob", "pool"], first_dealer="ann", buy_ins={"pool": 20})
    job = post_file(scorer_client, json.dumps(bad), django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert [(e["line"], e.get("field")) for e in job["errors"]] == [(1, "seats[2]")]
    assert "'pool' cannot be seated" in job["errors"][0]["message"]
    assert not GameSession.objects.exists()


def test_import_refusals_and_retry(scorer_client, viewer_client, outsider_client, anon_client,
                                   django_capture_on_commit_callbacks):
    body = {"source": kit.session_file(2)}
    assert viewer_client.post(IMPORTS, body, format="json").status_code == 403
    assert outsider_client.post(IMPORTS, body, format="json").status_code == 404
    assert anon_client.post(IMPORTS, body, format="json").status_code == 401
    assert scorer_client.post(IMPORTS, {}, format="json").status_code == 400
    done = post_file(scorer_client, kit.session_file(2), django_capture_on_commit_callbacks).json()
    again = scorer_client.post(f"{done['url']}/retry")
    assert again.status_code == 409
    failed = post_file(scorer_client, "{}", django_capture_on_commit_callbacks).json()
    assert failed["status"] == "failed" and failed["attempts"] == 1
    assert outsider_client.get(failed["url"]).status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        retried = scorer_client.post(f"{failed['url']}/retry")
    assert retried.status_code == 202 and retried.json()["status"] == "queued"
    after = scorer_client.get(failed["url"]).json()
    assert after["attempts"] == 2 and after["status"] == "failed"


def test_an_unknown_import_is_a_404_saying_so(club, scorer_client):
    # GET said Django's "No ImportJob matches the given query."; the retry already said this
    for path in (f"{IMPORTS}999", f"{IMPORTS}999/retry"):
        response = scorer_client.get(path) if path.endswith("999") else scorer_client.post(path)
        assert response.status_code == 404
        assert response.json()["detail"] == "No import 999 in this club."


def test_import_session_command(club, tmp_path):
    from games.imports.models import ImportJob

    path = tmp_path / "sat.jsonl"
    path.write_text(kit.session_file(20))
    out, err = io.StringIO(), io.StringIO()
    call_command("import_session", str(path), "--club", "oak", stdout=out, stderr=err)
    job = ImportJob.objects.get()
    assert out.getvalue().startswith(f"imported session {job.session_id}: 20 deals")
    assert "validating [" in err.getvalue() and "20/20" in err.getvalue()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="failed"):
        call_command("import_session", str(bad), "--club", "oak", "--no-progress",
                     stdout=io.StringIO(), stderr=io.StringIO())
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(kit.session_file(2).encode() + b"\xe9")
    for path, says in ((tmp_path / "missing.jsonl", "cannot read"), (latin, "not UTF-8")):
        with pytest.raises(CommandError, match=says):
            call_command("import_session", str(path), "--club", "oak", "--no-progress",
                         stdout=io.StringIO(), stderr=io.StringIO())
    assert ImportJob.objects.count() == 2  # the good file's job and the bad JSON's
    # the same file again is refused, as over the API, unless asked for
    with pytest.raises(CommandError, match=f"imported already as session {job.session_id}"):
        call_command("import_session", str(tmp_path / "sat.jsonl"), "--club", "oak",
                     "--no-progress", stdout=io.StringIO(), stderr=io.StringIO())
    assert ImportJob.objects.count() == 2
    call_command("import_session", str(tmp_path / "sat.jsonl"), "--club", "oak", "--no-progress",
                 "--allow-duplicate", stdout=io.StringIO(), stderr=io.StringIO())
    assert ImportJob.objects.filter(status="done").count() == 2


def test_export_report_command(hand_session, tmp_path):
    from games.services.closing import session_close

    session_close(session=hand_session)
    for fmt, check in (("pdf", lambda b: b.startswith(b"%PDF")),
                       ("csv", lambda b: b.decode().splitlines()[1].startswith("ann,")),
                       ("json", lambda b: json.loads(b)["players"][0]["result_money"] == -3025)):
        out = tmp_path / f"report.{fmt}"
        call_command("export_report", str(hand_session.pk), "--format", fmt, "-o", str(out),
                     stderr=io.StringIO())
        assert check(out.read_bytes()), fmt


def test_import_with_idempotency_key_makes_one_job(scorer_client, django_capture_on_commit_callbacks):
    from games.imports.models import ImportJob

    body = {"source": kit.session_file(3)}
    with django_capture_on_commit_callbacks(execute=True):
        first = scorer_client.post(IMPORTS, body, format="json", HTTP_IDEMPOTENCY_KEY="imp-1")
        again = scorer_client.post(IMPORTS, body, format="json", HTTP_IDEMPOTENCY_KEY="imp-1")
    assert first.status_code == again.status_code == 202
    assert again.json()["id"] == first.json()["id"] and ImportJob.objects.count() == 1


def upload(text: str, name: str = "sat.jsonl") -> io.BytesIO:
    """A file for a multipart POST."""
    file = io.BytesIO(text.encode())
    file.name = name
    return file


def test_a_key_reused_with_another_uploaded_file_is_a_422(scorer_client,
                                                         django_capture_on_commit_callbacks):
    from games.imports.models import ImportJob

    url = f"{IMPORTS}?allow_duplicate=true"
    with django_capture_on_commit_callbacks(execute=True):
        first = scorer_client.post(url, {"file": upload(kit.session_file(3))}, format="multipart",
                                   HTTP_IDEMPOTENCY_KEY="k1")
        again = scorer_client.post(url, {"file": upload(kit.session_file(3))}, format="multipart",
                                   HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == again.status_code == 202, again.content
    assert again["Idempotent-Replayed"] == "true" and again.json()["id"] == first.json()["id"]
    # another file under the same name: not the first answer again, the key's misuse
    other = scorer_client.post(url, {"file": upload(kit.session_file(4))}, format="multipart",
                               HTTP_IDEMPOTENCY_KEY="k1")
    assert other.status_code == 422 and other.json()["code"] == "unprocessable"
    assert ImportJob.objects.count() == 1
    # the file hashed for the key is still read whole by the import
    assert scorer_client.get(first.json()["url"]).json()["total"] == 3


def test_a_key_reused_with_another_query_is_a_422(scorer_client,
                                                 django_capture_on_commit_callbacks):
    # ?allow_duplicate=true changes what the request does, so it is part of the request
    from games.imports.models import ImportJob

    body = {"source": kit.session_file(3)}
    with django_capture_on_commit_callbacks(execute=True):
        first = scorer_client.post(IMPORTS, body, format="json", HTTP_IDEMPOTENCY_KEY="q1")
        same = scorer_client.post(IMPORTS, body, format="json", HTTP_IDEMPOTENCY_KEY="q1")
    assert first.status_code == same.status_code == 202 and same["Idempotent-Replayed"] == "true"
    forced = scorer_client.post(f"{IMPORTS}?allow_duplicate=true", body, format="json",
                                HTTP_IDEMPOTENCY_KEY="q1")
    assert forced.status_code == 422 and forced.json()["code"] == "unprocessable"
    assert ImportJob.objects.count() == 1


@pytest.mark.parametrize("spelling, stored_twice", [("on", True), ("yes", True), ("1", True),
                                                    ("off", False), ("false", False)])
def test_allow_duplicate_is_read_in_a_forms_spellings(scorer_client, spelling, stored_twice,
                                                     django_capture_on_commit_callbacks):
    # ?allow_duplicate=on was read as false: a 409 telling the client to send what it had sent
    from games.models import GameSession

    body = {"source": kit.session_file(3)}
    with django_capture_on_commit_callbacks(execute=True):
        assert scorer_client.post(IMPORTS, body, format="json").status_code == 202
        again = scorer_client.post(f"{IMPORTS}?allow_duplicate={spelling}", body, format="json")
    assert again.status_code == (202 if stored_twice else 409), again.content
    assert GameSession.objects.count() == (2 if stored_twice else 1)


@pytest.mark.parametrize("value", ["maybe", "", "2"])
def test_allow_duplicate_neither_true_nor_false_is_a_400_naming_it(scorer_client, value):
    from games.imports.models import ImportJob

    response = scorer_client.post(f"{IMPORTS}?allow_duplicate={value}",
                                  {"source": kit.session_file(3)}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"] == [{
        "field": "allow_duplicate",
        "message": "allow_duplicate must be true or false, written as true/false, yes/no, "
                   "on/off or 1/0.", "code": "invalid"}]
    assert not ImportJob.objects.exists()


def test_an_upload_over_the_limit_is_not_read_for_the_key(monkeypatch):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from games.services import idempotency, limits

    monkeypatch.setattr(limits, "max_file_bytes", lambda: 10)
    big = SimpleUploadedFile("big.jsonl", b"x" * 11)
    monkeypatch.setattr(big, "chunks", lambda *a, **k: pytest.fail("read"))
    assert idempotency.upload_digest(big) == {"name": "big.jsonl", "size": 11}
    small = SimpleUploadedFile("small.jsonl", b"x" * 10)
    assert idempotency.upload_digest(small)["sha256"] == hashlib.sha256(b"x" * 10).hexdigest()
    assert small.read() == b"x" * 10  # left at its start for the view


def test_a_nul_character_is_refused_before_anything_is_stored(scorer_client,
                                                             django_capture_on_commit_callbacks):
    from games.imports.models import ImportJob
    from games.models import GameSession

    # a raw NUL in the file itself: refused at once, no job (PostgreSQL text cannot hold it)
    raw = scorer_client.generic("POST", IMPORTS, kit.session_file(4).replace("ann", "a\x00nn", 1),
                                content_type="application/x-ndjson")
    assert raw.status_code == 400
    assert raw.json()["errors"] == [{"field": "source",
                                     "message": "Null characters are not allowed.",
                                     "code": "invalid"}]
    assert ImportJob.objects.count() == 0
    # an escaped \u0000 inside a line's JSON: that line is reported, nothing stored
    lines = kit.session_lines()
    job = post_file(scorer_client, lines_with({3: dict(lines[2], note="x\u0000y")}),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed" and [e["line"] for e in job["errors"]] == [3]
    assert job["errors"][0]["message"] == \
        "a string holds a NUL character (\\u0000), which cannot be stored"
    assert GameSession.objects.count() == 0


@pytest.mark.parametrize("line", [1, 3])  # the header, a deal
def test_a_lone_surrogate_in_a_line_is_that_lines_error(scorer_client, line,
                                                       django_capture_on_commit_callbacks):
    from games.models import GameSession

    lines = [json.dumps(x) for x in kit.session_lines()]
    lines[line - 1] = lines[line - 1][:-1] + ', "memo": "x\\ud800y"}'  # an escape json.loads takes
    job = post_file(scorer_client, "\n".join(lines) + "\n", django_capture_on_commit_callbacks).json()
    # (an unreadable header is reported with what it then lacks: format, seats, ...)
    assert job["status"] == "failed" and {e["line"] for e in job["errors"]} == {line}
    assert job["errors"][0]["message"].endswith("a string holds a lone UTF-16 surrogate (\\ud800), "
                                                "which is not a character and cannot be stored")
    assert GameSession.objects.count() == 0


def test_a_lone_surrogate_in_a_json_body_is_refused_before_any_job(scorer_client):
    from games.imports.models import ImportJob

    body = json.dumps({"source": "@", "filename": "sat.jsonl"}).replace("@", "\\udfff")
    response = scorer_client.generic("POST", IMPORTS, body, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "malformed-request"
    assert ImportJob.objects.count() == 0


def _inserted(after: int, *raw: str) -> str:
    """The session file with raw lines inserted after line ``after`` (1-based)."""
    lines = [json.dumps(x) for x in kit.session_lines()]
    return "\n".join(lines[:after] + list(raw) + lines[after:]) + "\n"


@pytest.mark.parametrize("stray", [
    "null",
    "[1, 2]",
    json.dumps({"purchase": {"player": "dan", "chips": 5, "memo": "a\u0000b"}}),
    json.dumps(kit.session_lines()[0]),  # the header again
])
def test_a_stray_line_is_one_error_not_a_cascade(scorer_client, django_capture_on_commit_callbacks,
                                                stray):
    from games.models import GameSession

    response = post_file(scorer_client, _inserted(5, stray), django_capture_on_commit_callbacks)
    job = response.json()
    assert job["status"] == "failed"
    assert [e["line"] for e in job["errors"]] == [6], job["errors"]
    assert GameSession.objects.count() == 0


def test_a_byte_order_mark_is_read_past(scorer_client, django_capture_on_commit_callbacks):
    response = post_file(scorer_client, "\ufeff" + kit.session_file(4),
                         django_capture_on_commit_callbacks)
    assert (response.json()["status"], response.json()["total"]) == ("done", 4)


def test_a_raw_file_that_is_not_utf8_is_a_400(scorer_client):
    from games.imports.models import ImportJob

    body = kit.session_file(2).encode() + b"\xe9"
    response = scorer_client.generic("POST", IMPORTS, body, content_type="application/x-ndjson")
    assert response.status_code == 400 and response["Content-Type"] == "application/problem+json"
    assert "not UTF-8" in response.json()["detail"] and not ImportJob.objects.exists()


def test_a_raw_file_over_the_limit_is_a_413(scorer_client, monkeypatch):
    from games.imports.models import ImportJob
    from games.services import limits

    monkeypatch.setattr(limits, "max_file_bytes", lambda: 1000)
    response = scorer_client.generic("POST", IMPORTS, kit.session_file(4),
                                     content_type="application/x-ndjson")
    assert response.status_code == 413 and response.json()["code"] == "payload-too-large"
    assert response.json()["max_file_bytes"] == 1000 and "1,000 bytes" in response.json()["detail"]
    assert not ImportJob.objects.exists()


def test_an_uploaded_file_over_the_limit_is_a_413_too(scorer_client, monkeypatch):
    from games.imports.models import ImportJob
    from games.services import limits

    monkeypatch.setattr(limits, "max_file_bytes", lambda: 1000)
    response = scorer_client.post(IMPORTS, {"file": upload(kit.session_file(4))},
                                  format="multipart")
    assert response.status_code == 413 and response.json()["code"] == "payload-too-large"
    assert response.json()["max_file_bytes"] == 1000
    assert not ImportJob.objects.exists()


def test_the_same_file_twice_is_refused_unless_allowed(scorer_client, django_capture_on_commit_callbacks):
    from games.models import GameSession

    text = kit.session_file(4)
    first = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert first["status"] == "done"
    again = scorer_client.post(IMPORTS, {"source": text}, format="json")
    assert again.status_code == 409 and again["Content-Type"] == "application/problem+json"
    body = again.json()
    assert (body["code"], body["session"], body["job"]) == ("duplicate-import", first["session"],
                                                            first["id"])
    assert GameSession.objects.count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        allowed = scorer_client.post(f"{IMPORTS}?allow_duplicate=true", {"source": text},
                                     format="json")
    assert allowed.status_code == 202
    assert scorer_client.get(allowed.json()["url"]).json()["status"] == "done"
    assert GameSession.objects.count() == 2


def test_a_failed_import_does_not_block_the_same_file(scorer_client, django_capture_on_commit_callbacks):
    from games.imports.models import ImportJob

    text = lines_with({3: '{"oops'})
    assert post_file(scorer_client, text, django_capture_on_commit_callbacks).json()["status"] == "failed"
    assert post_file(scorer_client, text, django_capture_on_commit_callbacks).json()["status"] == "failed"
    assert ImportJob.objects.count() == 2


def test_a_purchase_line_off_the_chip_value_is_refused(scorer_client,
                                                        django_capture_on_commit_callbacks):
    lines = kit.session_lines()
    at = next(i for i, x in enumerate(lines) if "purchase" in x)
    bought = dict(lines[at]["purchase"])
    lines[at] = {"purchase": {**bought, "money": bought["chips"] * kit.CHIP_VALUE + 1}}
    text = "\n".join(json.dumps(x) for x in lines)
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert [(e["line"], e["field"], e["player"]) for e in job["errors"]] == [
        (at + 1, "money", bought["player"])]
    assert "at the session's chip value" in job["errors"][0]["message"]
    from games.models import ChipPurchase

    assert not ChipPurchase.objects.exists()


@pytest.mark.parametrize(("bad", "message"), [
    ("{not json", "not JSON: Expecting property name enclosed in double quotes at column 2"),
    ("[1, 2]", "each line must be a JSON object"),
])
def test_a_line_that_is_no_json_object_is_refused_in_the_replays_words(
        scorer_client, django_capture_on_commit_callbacks, bad, message):
    # the engine's replay said "not JSON (Expecting ...)" and "not a JSON object": now both say
    # it alike (games.rules.session.not_json, NOT_AN_OBJECT), the replay after "line 3: "
    from tests.reports.test_session_file_export import engine_errors

    lines = [json.dumps(x) for x in kit.session_lines()[:2]] + [bad]
    job = post_file(scorer_client, "\n".join(lines), django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert job["errors"] == [{"line": 3, "message": message, "code": "invalid"}]
    assert [(e["line"], e["message"]) for e in engine_errors(lines)] == [(3, message)]


@pytest.mark.parametrize(("beside", "named"), [
    ({"void": {"purchase": 1, "reason": "keyed twice"}}, '"void"'),  # two lines in one
    ({"memo": "rebuy"}, '"memo"'),  # a memo put outside the purchase
])
def test_a_key_beside_a_purchase_line_is_the_lines_error(scorer_client,
                                                        django_capture_on_commit_callbacks,
                                                        beside, named):
    # it was passed over unread: a void, or a memo, silently lost
    from games.models import ChipPurchase, GameSession

    lines = kit.session_lines()
    at = next(i for i, x in enumerate(lines) if "purchase" in x)
    lines[at] = {**lines[at], **beside}
    job = post_file(scorer_client, "\n".join(json.dumps(x) for x in lines),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    first, *later = job["errors"]
    # under the field of its kind, as the engine's replay names it (1.2.0's import named none)
    assert first == {"line": at + 1, "field": "purchase", "message": (
        f'a purchase line holds "purchase" alone: {named} beside it would not be read (one line '
        "for each purchase, void, payment, close or reopen)"), "code": "invalid"}
    from tests.reports.test_session_file_export import engine_errors

    assert engine_errors(lines[:at + 1]) == [first]
    assert all(e["line"] > at + 1 for e in later)  # (deals short of the chips it did not buy)
    assert not GameSession.objects.exists() and not ChipPurchase.objects.exists()


@pytest.mark.parametrize("kind, inside, message", [
    ("reopen", {"reason": "keyed too soon", "end_pool_mode": ""},
     "a reopen line: Unknown field 'end_pool_mode': the fields are reason."),
    ("close", {"reason": "the evening ended", "end_pool_mode": "split"},
     "a close line: Unknown field 'end_pool_mode': the fields are reason."),
    ("purchase", {"player": "ann", "chips": 5, "piad": False},
     "a purchase line: Unknown field 'piad': did you mean 'paid'?"),
])
def test_a_field_inside_a_line_it_does_not_have_is_the_lines_error(
        scorer_client, django_capture_on_commit_callbacks, kind, inside, message):
    """A key inside a purchase, void, payment, close or reopen line that is none of its fields
    was passed over unread (a reopening takes a reason alone, so an ``end_pool_mode`` beside it
    said nothing the import read; a misspelt ``piad`` left the purchase paid): the line's
    error, in the words of the API's refusal of such a field."""
    from games.models import GameSession

    lines = [*kit.session_lines(), {"close": {"reason": "the evening ended"}},
             {"reopen": {"reason": "keyed too soon"}}]
    at = next(i for i, x in enumerate(lines) if kind in x)
    lines[at] = {kind: inside}
    job = post_file(scorer_client, "\n".join(json.dumps(x) for x in lines),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert [(e["line"], e["message"]) for e in job["errors"]][:1] == [(at + 1, message)]
    assert not GameSession.objects.exists()


def test_a_seated_bankers_purchase_owed_is_the_lines_error(scorer_client,
                                                            django_capture_on_commit_callbacks):
    # as the purchases endpoint says: the banker's own chips are owed to nobody
    lines = kit.session_lines()
    at = next(i for i, x in enumerate(lines) if "purchase" in x)
    banker = lines[at]["purchase"]["player"]
    lines[0] = kit.header(banker=banker)
    lines[at] = {"purchase": {**lines[at]["purchase"], "paid": False}}
    job = post_file(scorer_client, "\n".join(json.dumps(x) for x in lines),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert [(e["line"], e["field"], e["player"]) for e in job["errors"]] == [(at + 1, "paid", banker)]
    assert job["errors"][0]["message"].startswith(f"{banker} is the banker: the banker's own chips")


@pytest.mark.parametrize("paid", ["false", 0, None, "no"])
def test_a_purchase_lines_paid_is_true_or_false(scorer_client, django_capture_on_commit_callbacks,
                                                paid):
    """A truth test would read the text "false" as paid on the spot: the debt would be lost."""
    lines = kit.session_lines()
    at = next(i for i, x in enumerate(lines) if "purchase" in x)
    lines[at] = {"purchase": {**lines[at]["purchase"], "paid": paid}}
    job = post_file(scorer_client, "\n".join(json.dumps(x) for x in lines),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert [(e["line"], e["field"]) for e in job["errors"]] == [(at + 1, "paid")]
    assert job["errors"][0]["message"] == ("paid is true (paid on the spot) or false (owed to "
                                           "the banker).")
    from games.models import GameSession

    assert not GameSession.objects.exists()


def test_an_owed_purchase_line_imports_owed(scorer_client, django_capture_on_commit_callbacks):
    lines = kit.session_lines()
    at = next(i for i, x in enumerate(lines) if "purchase" in x and x["purchase"].get("paid", True))
    lines[at] = {"purchase": {**lines[at]["purchase"], "paid": False}}
    job = post_file(scorer_client, "\n".join(json.dumps(x) for x in lines),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "done", job
    from games.models import ChipPurchase

    stored = [p.paid for p in ChipPurchase.objects.order_by("pk")]
    assert stored[-len([x for x in lines if "purchase" in x]):] == [
        x["purchase"].get("paid", True) for x in lines if "purchase" in x]


@pytest.mark.parametrize("credit", ["false", 1, None])
def test_a_headers_allow_credit_is_true_or_false(scorer_client, django_capture_on_commit_callbacks,
                                                 credit):
    lines = kit.session_lines()
    lines[0] = {**lines[0], "allow_credit": credit}
    job = post_file(scorer_client, "\n".join(json.dumps(x) for x in lines),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert [(e["line"], e.get("field")) for e in job["errors"]] == [(1, "allow_credit")]


def test_lines_over_their_size_bounds_are_each_named_and_nothing_is_stored(
        scorer_client, django_capture_on_commit_callbacks):
    from games.models import GameSession
    from games.services import limits

    lines = kit.session_lines()
    at = next(i for i, x in enumerate(lines) if "purchase" in x)
    lines[0] = {**lines[0], "name": "n" * (limits.MAX_NAME_CHARS + 1)}
    lines[1] = {**lines[1], "note": "x" * limits.MAX_RECORD_BYTES}  # deal 1
    lines[at] = {"purchase": {**lines[at]["purchase"], "memo": "m" * (limits.MAX_MEMO_CHARS + 1)}}
    # a payment's memo as a purchase's, whatever its amount (cat owes for chips by the end)
    lines.append({"payment": {"player": "cat", "money": 1,
                              "memo": "m" * (limits.MAX_MEMO_CHARS + 1)}})
    job = post_file(scorer_client, "\n".join(json.dumps(x) for x in lines),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    # the header's fault is reported before the lines are read against it
    assert job["errors"] == [{"line": 1, "field": "name", "message": (
        "the session's name is 121 characters long; it may be at most 120"), "code": "invalid"}]
    lines[0] = kit.header()
    job = post_file(scorer_client, "\n".join(json.dumps(x) for x in lines),
                    django_capture_on_commit_callbacks,
                    QUERY_STRING="allow_duplicate=true").json()
    assert job["status"] == "failed"
    [deal, purchase, payment] = job["errors"]
    assert (deal["line"], deal["deal"], deal["field"]) == (2, 1, "record")
    assert deal["message"].startswith("Deal 1's record is 17,061 bytes as a session file")
    assert "a deal record may be at most 16,384 bytes" in deal["message"]
    assert purchase == {"line": at + 1, "field": "memo", "player": lines[at]["purchase"]["player"],
                        "message": "The memo is 201 characters long; it may be at most 200.",
                        "code": "invalid"}
    assert payment == {**purchase, "line": len(lines), "player": "cat"}
    assert not GameSession.objects.exists()


@pytest.mark.parametrize("header, field", [({"currency": "pounds"}, "currency"),
                                           ({"name": "n" * 120}, "header")])
def test_a_header_the_session_refuses_when_stored_is_line_1s_error(
        scorer_client, django_capture_on_commit_callbacks, monkeypatch, header, field):
    # what only session_create checks (the currency, the header line's bytes) is found as the
    # store begins: the job names line 1, where it said "internal error" and "retry"
    from games.models import GameSession
    from games.services import limits

    monkeypatch.setattr(limits, "MAX_HEADER_BYTES", 300)  # (8 KiB in service)
    lines = [kit.header(**header), *kit.session_lines(4)[1:]]
    job = post_file(scorer_client, "\n".join(json.dumps(x) for x in lines),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed", job
    [error] = job["errors"]
    assert (error["line"], error["field"]) == (1, field)
    assert "internal error" not in job["detail"]
    assert not GameSession.objects.exists()


def test_a_file_with_more_deals_than_a_session_holds_is_refused_unread(
        scorer_client, django_capture_on_commit_callbacks, monkeypatch):
    from games.models import GameSession
    from games.services import limits

    monkeypatch.setattr(limits, "MAX_DEALS", 5)  # (1,000 in service: this file holds 53)
    job = post_file(scorer_client, kit.session_file(), django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    [error] = job["errors"]
    assert error["message"] == "deal 6: a session holds at most 5 deals; split the file"
    assert not GameSession.objects.exists()


def test_a_file_with_more_purchases_than_a_session_holds_is_refused_unread(
        scorer_client, django_capture_on_commit_callbacks, monkeypatch):
    from games.models import GameSession
    from games.services import limits

    # the header's 4 buy-ins are purchases too: room for 12 of the file's 13 purchase lines
    monkeypatch.setattr(limits, "MAX_PURCHASES", 16)  # (2,000 in service)
    last = max(i for i, line in enumerate(kit.session_lines(), start=1) if "purchase" in line)
    job = post_file(scorer_client, kit.session_file(), django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert job["errors"] == [{"line": last, "message": "purchase 17: a session holds at most 16 "
                              "purchases (the header's buy-ins among them); split the file",
                              "code": "invalid"}]
    assert not GameSession.objects.exists()


def test_a_file_of_many_bad_lines_lists_the_first_hundred(scorer_client,
                                                          django_capture_on_commit_callbacks):
    from games.imports.services import MAX_ERRORS

    text = json.dumps(kit.header()) + "\n" + "x\n" * 5000
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert len(job["errors"]) == MAX_ERRORS + 1
    assert job["errors"][-1] == {"line": 102, "message": "more than 100 errors: the first 100 "
                                 "are listed and the file was checked no further",
                                 "code": "unchecked"}
    listed = scorer_client.get(IMPORTS).json()
    assert len(listed[0]["errors"]) == MAX_ERRORS + 1  # and the list serves no more


def test_bad_purchase_lines_are_capped_too(scorer_client, django_capture_on_commit_callbacks):
    from games.imports.services import MAX_ERRORS

    bad = json.dumps({"purchase": {"player": "ann", "chips": 1, "money": 1}})
    text = json.dumps(kit.header()) + "\n" + (bad + "\n") * 500
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert len(job["errors"]) == MAX_ERRORS + 1
    assert job["errors"][-1]["message"].startswith("more than 100 errors")


def test_a_deal_after_the_final_deal_is_a_bad_line(scorer_client,
                                                   django_capture_on_commit_callbacks):
    from tests.reports.test_final_deal import FINAL

    lines = [kit.header(rules={"game": "three-card", "end_pool": "final-deal"}),
             {**FINAL, "dealer": "ann"}, kit.deal_record(2)]
    text = "\n".join(json.dumps(x) for x in lines)
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    # field and deal as the engine's replay names them (games.rules.session.order_problems)
    assert job["errors"][0] == {
        "line": 3, "field": "final", "deal": 2,
        "message": "a deal after the final deal (line 2), which plays the pool off: it is the session's last",
        "code": "invalid"}


def test_the_command_knows_a_crlf_file_the_api_imported(scorer_client, tmp_path,
                                                        django_capture_on_commit_callbacks):
    from django.core.management.base import CommandError

    text = kit.session_file(3).replace("\n", "\r\n")  # as saved on Windows
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "done"
    path = tmp_path / "sat.jsonl"
    path.write_bytes(text.encode())
    with pytest.raises(CommandError, match="imported already"):
        call_command("import_session", str(path), "--club", "oak", "--no-progress",
                     stdout=io.StringIO(), stderr=io.StringIO())


def test_an_import_stopped_at_its_time_limit_says_so(scorer_client, monkeypatch,
                                                     django_capture_on_commit_callbacks):
    from celery.exceptions import SoftTimeLimitExceeded

    from games.imports import services
    from games.models import GameSession

    def too_slow(*args, **kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(services, "store_session_file", too_slow)
    job = post_file(scorer_client, kit.session_file(3), django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert job["detail"] == ("the import took longer than its time limit and was stopped; "
                             "nothing was stored")
    assert not GameSession.objects.exists()


def test_a_file_still_being_imported_is_a_duplicate_too(scorer_client, club):
    # two uploads of one file: the first is queued (or under way) when the second arrives
    from games.imports.models import ImportJob

    text = kit.session_file(3)
    first = ImportJob.objects.create(club=club, source=text, filename="sat.jsonl")
    response = scorer_client.post(IMPORTS, {"source": text}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert (body["code"], body["job"], body["session"]) == ("duplicate-import", first.pk, None)
    assert f"is being imported already (queued) (import {first.pk})" in body["detail"]
    assert ImportJob.objects.count() == 1


def test_a_stored_job_stays_done_whatever_a_late_run_wrote(scorer_client,
                                                          django_capture_on_commit_callbacks):
    # a retry or a redelivery that started before the first run stored the session
    from games.imports.models import ImportJob
    from games.imports.services import run_import
    from games.models import GameSession

    job = post_file(scorer_client, kit.session_file(3), django_capture_on_commit_callbacks).json()
    ImportJob.objects.filter(pk=job["id"]).update(status=ImportJob.Status.STORING, finished_at=None)
    retry = scorer_client.post(f"{IMPORTS}{job['id']}/retry")
    assert retry.status_code == 409 and retry.json()["session"] == job["session"]
    again = run_import(job["id"])
    assert (again.status, again.session_id) == ("done", job["session"])
    assert again.finished_at is not None and GameSession.objects.count() == 1


@pytest.fixture
def failed_for_want_of_dan(club):
    """Upload the file while dan is not yet a member (the job fails); then add dan. Returns a
    function posting the file (``?query`` given) through the client, and the file."""
    from accounts.models import Member, Role
    from accounts.services import member_ensure

    def fail(client, capture, query: str = "") -> dict:
        Member.objects.filter(club=club, name="dan").delete()
        with capture(execute=True):
            response = client.post(f"{IMPORTS}{query}", {"source": kit.session_file(3)},
                                   format="json")
        member_ensure(club=club, name="dan", role=Role.PLAYER)
        job = client.get(response.json()["url"]).json()
        assert job["status"] == "failed", job
        return job

    return fail


def test_a_retry_is_refused_once_the_file_was_imported_since(
        scorer_client, failed_for_want_of_dan, django_capture_on_commit_callbacks):
    from games.imports.models import ImportJob
    from games.models import GameSession

    failed = failed_for_want_of_dan(scorer_client, django_capture_on_commit_callbacks)
    since = post_file(scorer_client, kit.session_file(3), django_capture_on_commit_callbacks).json()
    assert since["status"] == "done"  # a failed job does not block the same file
    with django_capture_on_commit_callbacks(execute=True) as published:
        response = scorer_client.post(f"{failed['url']}/retry")
    assert response.status_code == 409 and not published
    body = response.json()
    assert (body["code"], body["job"], body["session"]) == ("duplicate-import", since["id"],
                                                            since["session"])
    assert "allow_duplicate=true" in body["detail"]
    again = ImportJob.objects.get(pk=failed["id"])
    assert (again.status, again.attempts, again.session_id) == ("failed", 1, None)
    assert GameSession.objects.count() == 1  # the deals stored once


def test_a_retry_is_refused_while_another_import_of_the_file_is_queued(
        scorer_client, failed_for_want_of_dan, django_capture_on_commit_callbacks, club):
    from games.imports.models import ImportJob

    failed = failed_for_want_of_dan(scorer_client, django_capture_on_commit_callbacks)
    queued = ImportJob.objects.create(club=club, source=kit.session_file(3))
    response = scorer_client.post(f"{failed['url']}/retry")
    assert response.status_code == 409
    assert (response.json()["job"], response.json()["session"]) == (queued.pk, None)
    assert "is being imported already (queued)" in response.json()["detail"]


def test_a_retry_keeps_the_allow_duplicate_of_its_upload(
        scorer_client, failed_for_want_of_dan, django_capture_on_commit_callbacks):
    from games.models import GameSession

    failed = failed_for_want_of_dan(scorer_client, django_capture_on_commit_callbacks,
                                    "?allow_duplicate=true")
    post_file(scorer_client, kit.session_file(3), django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        response = scorer_client.post(f"{failed['url']}/retry")
    assert response.status_code == 202, response.content
    retried = scorer_client.get(failed["url"]).json()
    assert (retried["status"], retried["attempts"]) == ("done", 2)
    assert GameSession.objects.count() == 2  # asked for twice, stored twice


def test_a_retry_alone_with_its_file_goes_ahead(scorer_client, failed_for_want_of_dan,
                                                django_capture_on_commit_callbacks):
    # the job itself is no earlier import of its own file, whatever its state
    from games.imports.models import ImportJob

    failed = failed_for_want_of_dan(scorer_client, django_capture_on_commit_callbacks)
    ImportJob.objects.filter(pk=failed["id"]).update(status=ImportJob.Status.STORING)  # died
    with django_capture_on_commit_callbacks(execute=True):
        response = scorer_client.post(f"{failed['url']}/retry")
    assert response.status_code == 202, response.content
    assert scorer_client.get(failed["url"]).json()["status"] == "done"


def test_the_command_keeps_allow_duplicate_on_the_job(club, tmp_path):
    from games.imports.models import ImportJob

    path = tmp_path / "sat.jsonl"
    path.write_text(kit.session_file(2))
    call_command("import_session", str(path), "--club", "oak", "--no-progress",
                 stdout=io.StringIO())
    call_command("import_session", str(path), "--club", "oak", "--no-progress",
                 "--allow-duplicate", stdout=io.StringIO())
    assert list(ImportJob.objects.order_by("pk").values_list("allow_duplicate", flat=True)) == [
        False, True]


def test_a_replayed_import_answer_tells_the_job_as_it_is_now(scorer_client,
                                                             django_capture_on_commit_callbacks):
    body, key = {"source": kit.session_file(3)}, {"HTTP_IDEMPOTENCY_KEY": "imp-now"}
    with django_capture_on_commit_callbacks(execute=True):  # the task runs after the commit
        first = scorer_client.post(IMPORTS, body, format="json", **key)
    assert first.json()["status"] == "queued"  # (the test's own transaction delays the commit)
    replay = scorer_client.post(IMPORTS, body, format="json", **key)
    assert (replay.status_code, replay["Idempotent-Replayed"], replay["Location"]) == (
        202, "true", first["Location"])
    job = replay.json()
    assert (job["id"], job["status"], job["progress"]) == (first.json()["id"], "done", "3/3")
    assert job == scorer_client.get(job["url"]).json()


def test_a_replayed_retry_answer_tells_the_job_as_it_is_now(scorer_client,
                                                            django_capture_on_commit_callbacks):
    failed = post_file(scorer_client, "{}", django_capture_on_commit_callbacks).json()
    key = {"HTTP_IDEMPOTENCY_KEY": "retry-now"}
    with django_capture_on_commit_callbacks(execute=True):
        assert scorer_client.post(f"{failed['url']}/retry", **key).json()["status"] == "queued"
    replay = scorer_client.post(f"{failed['url']}/retry", **key)
    assert replay.status_code == 202 and replay["Idempotent-Replayed"] == "true"
    assert (replay.json()["status"], replay.json()["attempts"]) == ("failed", 2)


@pytest.mark.django_db(transaction=True)
def test_in_eager_mode_a_keyed_import_answers_done(scorer_client):
    # no test transaction around the request: its commit runs the task before the answer
    body, key = {"source": kit.session_file(3)}, {"HTTP_IDEMPOTENCY_KEY": "imp-eager"}
    first = scorer_client.post(IMPORTS, body, format="json", **key)
    assert (first.status_code, first.json()["status"]) == (202, "done")
    replay = scorer_client.post(IMPORTS, body, format="json", **key)
    assert replay.json() == first.json() and replay["Idempotent-Replayed"] == "true"


@pytest.mark.parametrize("change", [{"role": "viewer"}, {"user": None}])
def test_an_upload_whose_scorer_lost_the_role_before_the_store_stores_nothing(
        scorer_client, django_capture_on_commit_callbacks, change):
    # the worker stores after the upload was accepted: the uploader must still be allowed then
    from accounts.models import Member
    from games.imports.models import ImportJob
    from games.imports.services import run_import
    from games.models import GameSession

    with django_capture_on_commit_callbacks(execute=False):
        job = scorer_client.post(IMPORTS, {"source": kit.session_file(3)}, format="json").json()
    Member.objects.filter(club__slug="oak", name="sam").update(**change)
    done = run_import(job["id"])
    assert done.status == ImportJob.Status.FAILED and done.session_id is None
    assert "may no longer record in this club" in done.detail and "nothing was stored" in done.detail
    assert not GameSession.objects.exists()


def test_an_upload_from_the_shell_is_the_operators(club, tmp_path):
    # manage.py import_session has no uploader: the operator's import is not role-checked
    from games.imports.models import ImportJob

    path = tmp_path / "s.jsonl"
    path.write_text(kit.session_file(3))
    call_command("import_session", str(path), "--club", "oak", stdout=io.StringIO(),
                 stderr=io.StringIO())
    job = ImportJob.objects.get()
    assert job.created_by is None and job.status == ImportJob.Status.DONE


def test_payment_lines_are_checked_as_the_payments_endpoint_checks_them(
        scorer_client, django_capture_on_commit_callbacks):
    from games.models import ChipPayment, GameSession

    lines = kit.session_lines()
    owed = 20 * kit.CHIP_VALUE  # cat's first rebuy, on credit, comes after deal 8
    first_rebuy = next(i for i, x in enumerate(lines) if "purchase" in x)  # ann's, then cat's
    assert lines[first_rebuy + 1]["purchase"] == {"player": "cat", "chips": 20, "paid": False}
    pay = [
        {"payment": {"player": "cat", "money": owed + 1}},         # more than he owes so far
        {"payment": {"player": "cat", "money": -1}},               # a refund of nothing paid
        {"payment": {"player": "zed", "money": 5}},                # not seated
        {"payment": {"player": "cat", "money": 0}},                # not an amount
        {"payment": "cat 5"},                                      # not a payment
        {"payment": {"player": "cat", "money": owed, "memo": "cash"}},  # good
        {"payment": {"player": "cat", "money": -owed}},            # good: refunded whole
    ]
    text = "\n".join(json.dumps(x) for x in lines[:first_rebuy + 2] + pay
                     + lines[first_rebuy + 2:])
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    at = first_rebuy + 3  # the file line of the first payment
    assert [(e["line"], e.get("player"), e["field"]) for e in job["errors"]] == [
        (at, "cat", "money"), (at + 1, "cat", "money"), (at + 2, "zed", "player"),
        (at + 3, "cat", "money"), (at + 4, None, "player")]
    assert job["errors"][0]["message"] == f"cat owes {owed} for chips and cannot pay {owed + 1}."
    assert job["errors"][1]["message"] == "cat has paid 0 later and cannot be refunded 1."
    assert not GameSession.objects.exists() and not ChipPayment.objects.exists()
    # the good lines alone: stored, in order, after the purchase they pay toward
    text = "\n".join(json.dumps(x) for x in lines[:first_rebuy + 2] + pay[5:]
                     + lines[first_rebuy + 2:])
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks,
                    QUERY_STRING="allow_duplicate=true").json()
    assert job["status"] == "done", job
    assert list(ChipPayment.objects.values_list("player", "money", "memo").order_by("pk")) == [
        ("cat", owed, "cash"), ("cat", -owed, "")]


def test_a_banker_pays_nobody_in_a_file_either(scorer_client, django_capture_on_commit_callbacks):
    lines = kit.session_lines()
    lines[0] = {**lines[0], "banker": "ann"}  # (ann's rebuys are paid on the spot; cat's owed)
    lines.append({"payment": {"player": "ann", "money": 100}})
    job = post_file(scorer_client, "\n".join(json.dumps(x) for x in lines),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert [(e["line"], e["message"]) for e in job["errors"]] == [
        (len(lines), "ann is the banker: the banker's own chips are paid to nobody.")]


@pytest.mark.parametrize("body, message, code", [
    ({}, "Missing.", "required"),
    ({"source": "  \n"}, "The file is empty.", "invalid"),
    ({"source": 123}, "Must be the file's text (a string), not int.", "invalid"),
    ({"source": ["a line"]}, "Must be the file's text (a string), not list.", "invalid"),
])
def test_a_source_that_is_not_a_file_says_which(scorer_client, body, message, code):
    response = scorer_client.post(IMPORTS, body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "source", "message": message, "code": code}]


def test_a_number_in_a_file_is_a_json_integer_and_refused_as_the_api_refuses_it(
        scorer_client, django_capture_on_commit_callbacks):
    # text, a decimal or true where a line counts chips or money: the same words as the API's
    # for the same value (one check, loo_ledger.fields), and before anything is stored
    from games.models import GameSession

    lines = kit.session_lines()
    first_rebuy = next(i for i, x in enumerate(lines) if "purchase" in x)
    bad = [  # (line, the field the error names): each after cat's first rebuy, on credit
        ({"purchase": {"player": "ann", "chips": "20"}}, "chips"),
        ({"purchase": {"player": "ann", "chips": 20.0}}, "chips"),
        ({"purchase": {"player": "ann", "chips": True}}, "chips"),
        ({"purchase": {"player": "ann", "chips": 20, "money": 500.0}}, "money"),  # 20 x 25p
        ({"payment": {"player": "cat", "money": "100"}}, "money"),
        ({"payment": {"player": "cat", "money": 100.0}}, "money"),
        ({"payment": {"player": "cat", "money": True}}, "money"),
    ]
    at = first_rebuy + 2
    text = "\n".join(json.dumps(x) for x in lines[:at] + [x for x, _ in bad] + lines[at:])
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert [(e["line"], e["field"]) for e in job["errors"]] == [
        (at + 1 + i, field) for i, (_, field) in enumerate(bad)]
    assert not GameSession.objects.exists()
    # the API, asked the same of a session, says the same
    good = post_file(scorer_client, kit.session_file(12), django_capture_on_commit_callbacks)
    session = good.json()["session"]
    for (line, field), error in zip(bad, job["errors"], strict=True):
        kind, body = next(iter(line.items()))
        url = f"/api/v1/clubs/oak/sessions/{session}/{kind}s/"
        answer = scorer_client.post(url, body, format="json")
        assert answer.status_code == 400, (line, answer.content)
        assert [(e["field"], e["message"]) for e in answer.json()["errors"]] == [
            (field, error["message"])], line
    assert job["errors"][0]["message"] == (
        'chips must be a whole number of chips: a JSON integer such as 20, not text ("20"), '
        "a decimal (20.0) or true/false.")


# 0 passed the header's check, then the session refused it as the store began (a positive
# number of chips), after the other lines had been judged with ann holding nothing
@pytest.mark.parametrize("chips", [True, 0, -1])
def test_a_buy_in_that_is_no_count_of_chips_bought_is_the_headers_error(
        scorer_client, django_capture_on_commit_callbacks, chips):
    from games.models import GameSession

    lines = kit.session_lines(4)
    lines[0] = {**lines[0], "buy_ins": {**lines[0]["buy_ins"], "ann": chips}}
    job = post_file(scorer_client, "\n".join(json.dumps(x) for x in lines),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert [(e["line"], e["field"], e["message"]) for e in job["errors"]][:1] == [
        (1, "buy_ins", ("buy_ins maps seated players to whole numbers of chips from 1 (leave "
                        "out a player who buys none)"))]
    assert not GameSession.objects.exists()


def _bare(record: dict) -> dict:
    """A deal record as a hand-written file has it: without its dealer and pool (the session
    carries them from deal to deal)."""
    return {k: v for k, v in record.items() if k not in ("dealer", "pool")}


def _hand_written(changes: dict[int, object], deals: int = 8) -> str:
    """A file of bare deal records (no rebuys: 8 deals need none), some lines (1-based)
    replaced by raw text or a dict."""
    lines = [json.dumps(x) for x in [kit.header()] + [_bare(kit.deal_record(n))
                                                      for n in range(1, deals + 1)]]
    for number, new in changes.items():
        lines[number - 1] = new if isinstance(new, str) else json.dumps(new)
    return "\n".join(lines) + "\n"


def _twice(number: int) -> dict:
    """Deal ``number`` (odd: a simple pool) with a card played twice: an engine error."""
    record = _bare(kit.deal_record(number))
    record["actions"][5]["card"] = "2H"
    return record


@pytest.mark.parametrize("bad_line", ["x", _twice(1)], ids=["unreadable", "refused"])
def test_deal_lines_left_unchecked_after_a_bad_one_are_said(
        scorer_client, django_capture_on_commit_callbacks, bad_line):
    # after a bad deal line the pool and the dealer are unknown; the deals after it that do not
    # state theirs cannot be replayed, so an error they hold (deal 5's, line 6) cannot be
    # found: the answer says they were not checked, so that fixing line 2 may show more
    from games.models import GameSession

    text = _hand_written({2: bad_line, 6: _twice(5)})
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert {e["line"] for e in job["errors"]} == {2, 3}, job["errors"]
    assert job["errors"][-1] == {"line": 3, "message": (
        "the deal lines from here on were not checked: after the bad deal line 2 the pool and "
        "the dealer they start from are unknown, and they do not state them; fix line 2 and "
        "import again to have them checked"), "code": "unchecked"}
    assert job["detail"] == ("1 bad line(s), and lines left unchecked after a bad deal line "
                             "(see the errors); nothing was stored.")
    assert not GameSession.objects.exists()
    # line 2 fixed: deal 5's own error shows (and the deals after it are said unchecked)
    job = post_file(scorer_client, _hand_written({6: _twice(5)}),
                    django_capture_on_commit_callbacks).json()
    assert {e["line"] for e in job["errors"]} == {6, 7}
    assert job["errors"][-1]["message"].startswith(
        "the deal lines from here on were not checked: after the bad deal line 6 ")


def test_a_record_that_states_its_dealer_and_pool_is_checked_again(
        scorer_client, django_capture_on_commit_callbacks):
    # deal 4 states where it starts (line 5): from there on every deal is checked again, so
    # only lines 3 and 4 are said to be unchecked, and deal 7's error (line 8) is found; deal
    # 8 (line 9) is unchecked after it in turn
    text = _hand_written({2: "x", 5: kit.deal_record(4), 8: _twice(7)})
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert [e["line"] for e in job["errors"]][:2] == [2, 3]
    assert job["errors"][1]["message"].startswith(
        "the deal lines from here to line 4 were not checked: after the bad deal line 2 ")
    assert {e["line"] for e in job["errors"][2:-1]} == {8}
    assert all("not checked" not in e["message"] for e in job["errors"][2:-1])
    assert job["errors"][-1]["line"] == 9 and job["errors"][-1]["message"].startswith(
        "the deal lines from here on were not checked: after the bad deal line 8 ")
    assert job["detail"].startswith("2 bad line(s), and lines left unchecked after a bad deal line")


@pytest.mark.parametrize("header", ['{"format": "loo-session/1", "seats": [', "[1, 2]", "null"],
                         ids=["not-json", "a-list", "null"])
def test_an_unreadable_header_is_one_error_not_a_cascade(
        scorer_client, django_capture_on_commit_callbacks, header):
    # nothing of a header that cannot be read is checked: no "first_dealer None is not seated"
    from games.models import GameSession

    job = post_file(scorer_client, _hand_written({1: header}, deals=3),
                    django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert len(job["errors"]) == 1, job["errors"]
    assert job["errors"][0]["line"] == 1
    assert job["errors"][0]["message"].startswith("the session header is unreadable: ")
    assert not GameSession.objects.exists()


@pytest.mark.parametrize("bad_line", ["x", _twice(7)], ids=["unreadable", "refused"])
def test_a_close_line_after_a_bad_deal_line_is_said_unchecked(
        scorer_client, django_capture_on_commit_callbacks, bad_line):
    # the last deal (line 8) is bad: the pool the session closes with is unknown, so the close
    # line's final-deal check and the buy-back bounding the payments after it are not made
    from games.models import GameSession

    text = _hand_written({8: bad_line}, deals=7) + json.dumps({"close": {"reason": "done"}}) + "\n"
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert {e["line"] for e in job["errors"]} == {8, 9}, job["errors"]
    assert job["errors"][-1] == {"line": 9, "message": (
        "this close line was not checked, nor the payments after it: after the bad deal line 8 "
        "the pool the session closes with is unknown, so whether the final deal was played and "
        "what the closing buys back (which bounds those payments) cannot be worked out; fix "
        "line 8 and import again to have them checked"), "code": "unchecked"}
    assert job["detail"] == ("1 bad line(s), and lines left unchecked after a bad deal line "
                             "(see the errors); nothing was stored.")
    assert not GameSession.objects.exists()


def test_a_close_line_a_reopen_line_reverses_needs_no_note(
        scorer_client, django_capture_on_commit_callbacks):
    # a closing the file reopens asks for no final deal and bounds no payment by its buy-back
    text = (_hand_written({8: "x"}, deals=7) + json.dumps({"close": {"reason": "done"}}) + "\n"
            + json.dumps({"reopen": {"reason": "one more"}}) + "\n")
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert [e["line"] for e in job["errors"]] == [8], job["errors"]


@pytest.mark.parametrize(("field", "value", "message"), [
    # found by tests/reports/test_import_properties.py: each was an internal error (TypeError),
    # a list being no member's name (unhashable) and no currency code (re.fullmatch of a list)
    ("banker", ["ann"], 'banker ["ann"] is not a member of this club'),
    # a day is written YYYY-MM-DD, as the API writes it; date.fromisoformat also read these
    ("date", "20261128", 'date "20261128" is not a day written YYYY-MM-DD'),
    ("date", "2026-W48-6", 'date "2026-W48-6" is not a day written YYYY-MM-DD'),
    ("date", 20261128, "date 20261128 is not a day written YYYY-MM-DD"),
    # the engine's replay read null as left out (the first seat deals): both now refuse it,
    # in the same words (games.rules.session.first_dealer_problem)
    ("first_dealer", None, ("first_dealer: null is no seat; name the player who deals first, "
                            "or leave first_dealer out for the first seat")),
    ("first_dealer", "zed", 'first_dealer: "zed" is not seated'),
    # a long value is named cut, with its length (it was repeated whole)
    ("first_dealer", "f" * 1000, f'first_dealer: "{"f" * 57}…" (1,000 characters) is not seated'),
    ("banker", "b" * 1000, f'banker "{"b" * 57}…" (1,000 characters) is not a member of this club'),
    ("currency", ["GBP"], "Use a three-letter ISO 4217 code such as GBP."),
    # 2**63 passed the header's check (whole, at least 1) and was blamed on the purchase
    # lines ("20 chips at 9223372036854775808 cost more than ..."): the header's chip value is
    # what is wrong, as the session would refuse it (1 to limits.MAX_CHIPS)
    ("chip_value", 2**63, ("chip_value is a whole number of the smallest currency unit, "
                           "from 1 to 1000000000")),    # false and 0.0 are equal to 0 in Python and were taken for the empty pool
    ("pool", False, "a stored session starts with an empty pool (pool: 0)"),
    ("pool", 0.0, "a stored session starts with an empty pool (pool: 0)"),
])
def test_a_header_field_of_the_wrong_type_or_size_is_line_1s_error(
        scorer_client, django_capture_on_commit_callbacks, field, value, message):
    from games.models import ChipPurchase, GameSession, LedgerEntry

    text = lines_with({1: kit.header(**{field: value})})
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed" and "internal error" not in job["detail"]
    assert [(e["line"], e["message"]) for e in job["errors"]] == [(1, message)]
    if field == "first_dealer":  # the engine's replay refuses the same header alike
        from games.rules import RecordError, replay_session

        with pytest.raises(RecordError) as caught:
            list(replay_session(text.splitlines()))
        assert [(e["line"], e["message"]) for e in caught.value.errors] == [(1, message)]
    assert (GameSession.objects.count(), ChipPurchase.objects.count(),
            LedgerEntry.objects.count()) == (0, 0, 0)


def test_a_memo_that_is_not_text_is_the_lines_error(scorer_client,
                                                     django_capture_on_commit_callbacks):
    # found by tests/reports/test_import_properties.py: the import made any memo text
    # (str(["x"]) == "['x']") and stored it, where the purchases and payments endpoints refuse
    # a memo that is not text
    from games.models import ChipPayment, ChipPurchase, GameSession

    lines = kit.session_lines()
    first_rebuy = next(i for i, x in enumerate(lines) if "purchase" in x)  # ann's, then cat's
    odd = [{"purchase": {"player": "ann", "chips": 20, "memo": ["x"]}},
           {"payment": {"player": "cat", "money": 25, "memo": {"a": 1}}},  # cat owes 500
           {"payment": {"player": "cat", "money": 25, "memo": None}}]
    text = "\n".join(json.dumps(x) for x in lines[:first_rebuy + 2] + odd
                     + lines[first_rebuy + 2:])
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    at = first_rebuy + 3  # the file line of the odd purchase
    assert [(e["line"], e["field"], e["message"]) for e in job["errors"]] == [
        (at + k, "memo", "The memo must be text.") for k in range(3)]
    assert not GameSession.objects.exists() and not ChipPurchase.objects.exists()
    assert not ChipPayment.objects.exists()


@pytest.mark.parametrize(("raw", "message"), [
    # found by tests/reports/test_import_properties.py (on PostgreSQL): Python's json reads
    # NaN and Infinity, which JSON has not; PostgreSQL's jsonb refused the deal's record when
    # stored (DataError), so the job ended as an internal error
    ("NaN", "not JSON that can be read: NaN is not a JSON number (JSON has no NaN or Infinity)"),
    ("-Infinity", ("not JSON that can be read: -Infinity is not a JSON number (JSON has no "
                   "NaN or Infinity)")),
    # Python refuses to read an integer of more than 4,300 digits (ValueError, not a
    # JSONDecodeError): an internal error on any database
    ("9" * 5000, "not JSON that can be read: a number with more than 4,300 digits"),
])
def test_a_number_json_has_not_is_the_lines_error(scorer_client,
                                                  django_capture_on_commit_callbacks, raw, message):
    from games.models import DealRevision, GameSession

    deal = json.dumps(kit.session_lines()[1])  # line 2: deal 1
    text = lines_with({2: deal[:-1] + f', "note": {raw}}}'})
    job = post_file(scorer_client, text, django_capture_on_commit_callbacks).json()
    assert job["status"] == "failed"
    assert (job["errors"][0]["line"], job["errors"][0]["message"]) == (2, message)
    assert not GameSession.objects.exists() and not DealRevision.objects.exists()
    # the engine's replay reads the line alike (games.rules.jsontext): the same words, where
    # the 4,300 digits were a traceback from the command line
    from tests.reports.test_session_file_export import engine_errors

    assert [(e["line"], e["message"]) for e in engine_errors(text.split("\n"))][:1] == [(2, message)]


# --- a job that kills its worker: handed out again, but not for ever -------------------------

def queued_job(client, capture, text: str) -> int:
    """Upload ``text``; its message is queued, not run (the test delivers it as a worker would)."""
    with capture() as callbacks:
        response = client.post(IMPORTS, {"source": text}, format="json")
    assert response.status_code == 202 and len(callbacks) == 1, response.content
    return response.json()["id"]


def killed_runs(job_id: int, times: int) -> None:
    """Deliver the job ``times`` times, each run's worker killed half-way through storing."""
    from games.imports.tasks import import_session

    for _ in range(times):
        with pytest.raises(WorkerKilled):
            import_session(job_id)


def test_a_job_whose_worker_was_killed_twice_runs_the_third_time(
        scorer_client, monkeypatch, django_capture_on_commit_callbacks):
    # a restart mid-import (a deploy, a worker killed once or twice) still finishes the job
    from games.imports import services
    from games.imports.models import ImportJob
    from games.imports.tasks import import_session
    from games.models import GameSession

    job_id = queued_job(scorer_client, django_capture_on_commit_callbacks, kit.session_file(3))
    store = services.store_session_file
    kills = killing(monkeypatch, services, "store_session_file")
    killed_runs(job_id, 2)
    job = ImportJob.objects.get(pk=job_id)
    # each start counted before the work, and left behind by the kill; nothing half stored
    assert (job.status, job.starts, job.attempts, job.session_id) == ("storing", 2, 2, None)
    assert len(kills) == 2 and not GameSession.objects.exists()
    monkeypatch.setattr(services, "store_session_file", store)
    assert import_session(job_id) == "done"
    job = ImportJob.objects.get(pk=job_id)
    assert (job.status, job.starts, job.attempts, job.done) == ("done", 3, 3, 3)
    assert GameSession.objects.get().deals.count() == 3


def test_the_delivery_after_three_kills_fails_the_job_unrun_and_a_retry_runs_it_afresh(
        scorer_client, monkeypatch, django_capture_on_commit_callbacks):
    from games.imports import services
    from games.imports.models import ImportJob
    from games.imports.tasks import import_session
    from games.models import GameSession

    assert services.MAX_STARTS == 3
    job_id = queued_job(scorer_client, django_capture_on_commit_callbacks, kit.session_file(3))
    store, parse = services.store_session_file, services.parse_session_file
    kills = killing(monkeypatch, services, "store_session_file")
    killed_runs(job_id, 3)
    assert len(kills) == 3
    reads = []
    monkeypatch.setattr(services, "parse_session_file",
                        lambda text: reads.append(text) or parse(text))
    # the fourth delivery: the job fails, saying why, and nothing of the run is done (the file
    # not even read, the worker not killed); the task returns, so the message is acknowledged
    assert import_session(job_id) == "failed"
    assert reads == [] and len(kills) == 3
    job = scorer_client.get(f"{IMPORTS}{job_id}").json()
    assert (job["status"], job["attempts"], job["session"]) == ("failed", 3, None)
    assert job["detail"] == (
        "the import stopped its worker 3 times (the worker was killed while running it, most "
        "likely out of memory: the file is probably too large for the server), so it was not "
        "run again; nothing was stored. Split the file into smaller sessions, or POST "
        ".../retry once the cause is fixed")
    assert job["finished_at"] is not None
    # another copy of the message finds the job ended: left as it is, still not run
    assert import_session(job_id) == "failed" and reads == []
    assert ImportJob.objects.get(pk=job_id).detail == job["detail"]

    # the cause fixed (more memory, say): a retry counts its starts afresh and runs the job
    monkeypatch.setattr(services, "store_session_file", store)
    with django_capture_on_commit_callbacks(execute=True):
        retried = scorer_client.post(f"{IMPORTS}{job_id}/retry")
    assert retried.status_code == 202
    job = ImportJob.objects.get(pk=job_id)
    assert (job.status, job.starts, job.attempts, job.detail) == ("done", 1, 4, "")
    assert len(reads) == 1 and GameSession.objects.get().deals.count() == 3


def test_a_retry_resets_the_starts_of_a_job_killed_short_of_the_cap(
        scorer_client, monkeypatch, django_capture_on_commit_callbacks):
    # killed twice, retried (the user did not wait for the redelivery): three starts afresh
    from games.imports import services
    from games.imports.models import ImportJob
    from games.imports.tasks import import_session

    job_id = queued_job(scorer_client, django_capture_on_commit_callbacks, kit.session_file(3))
    killing(monkeypatch, services, "store_session_file")
    killed_runs(job_id, 2)
    with django_capture_on_commit_callbacks() as published:
        assert scorer_client.post(f"{IMPORTS}{job_id}/retry").status_code == 202
    job = ImportJob.objects.get(pk=job_id)
    assert (job.status, job.starts, job.attempts) == ("queued", 0, 2) and len(published) == 1
    killed_runs(job_id, 3)  # three more runs, not one: the count began again
    assert import_session(job_id) == "failed"
    assert ImportJob.objects.get(pk=job_id).detail.startswith("the import stopped its worker 3 times")
