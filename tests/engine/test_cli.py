"""The command line (issue 2 item 5): ``python -m games.rules replay FILE|-`` run from the
repository root with the project's Python, as a separate process."""
import json
import pathlib
import subprocess

import pytest

from games.rules import replay, replay_session
from tests.engine.dealkit import assert_conserved, nonzero, record
from tests.engine.test_five_card_declare import EXCHANGE_DEAL

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYTHON = ROOT / ".venv" / "bin" / "python"
EXAMPLES = pathlib.Path(__file__).resolve().parent / "examples"
SEATS = ["ann", "bob", "cat", "dan"]


def cli(*args, stdin=None, flags=()):
    """Run the engine's command line from the repository root; returns the finished process."""
    return subprocess.run([str(PYTHON), *flags, "-m", "games.rules", *args], cwd=ROOT, check=False,
                          input=stdin, capture_output=True, text=True, timeout=120)


def deal_file(tmp_path, rec, name="deal.json"):
    path = tmp_path / name
    path.write_text(json.dumps(rec))
    return path


def exchange_record():
    return record(" ".join(SEATS), "dan", rules={"game": "five-card"}, pool=18, turnup="9H",
                  actions=EXCHANGE_DEAL)


def test_replay_file_prints_the_verdict_and_exits_0(tmp_path):
    rec = exchange_record()
    done = cli("replay", str(deal_file(tmp_path, rec)))
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)
    assert_conserved(verdict, SEATS)
    assert verdict == replay(rec)
    assert verdict["settlement"]["pool_after"] == 8  # see test_five_card_declare


def test_replay_from_stdin(tmp_path):
    rec = exchange_record()
    done = cli("replay", "-", stdin=json.dumps(rec))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == replay(rec)


def test_replay_runs_on_the_standard_library_alone(tmp_path):
    # -S: no site-packages at all (no Django, nothing third-party), only the repository root.
    rec = exchange_record()
    done = cli("replay", str(deal_file(tmp_path, rec)), flags=("-S",))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == replay(rec)


def test_record_error_prints_every_error_and_exits_1(tmp_path):
    rec = exchange_record()
    rec["actions"][11]["card"] = "ZZ"      # not a card
    rec["actions"][3]["player"] = "zed"    # no such seat
    done = cli("replay", str(deal_file(tmp_path, rec)))
    assert done.returncode == 1
    errors = json.loads(done.stdout)["errors"]
    assert any(e["index"] == 11 and e["player"] == "bob" and e["card"] == "ZZ" for e in errors)
    assert any(e["index"] == 3 and e["player"] == "zed" for e in errors)


def session_lines(second_dealer="ann"):
    """Five-card session: deal 1 nobody stands (pool 5 stays), deal 2 bob stands alone."""
    header = {"format": "loo-session/1", "seats": SEATS, "rules": {"game": "five-card"},
              "first_dealer": "dan", "pool": 0, "banker": "club", "chip_value": 1,
              "buy_ins": {seat: 50 for seat in SEATS}}
    first = {"format": "loo-deal/1", "number": 1, "dealer": "dan", "turnup": "4S",
             "actions": [{"player": p, "action": "pass"} for p in SEATS]}
    second = {"format": "loo-deal/1", "number": 2, "dealer": second_dealer, "turnup": "5H",
              "actions": [{"player": "bob", "action": "stand"},
                          {"player": "cat", "action": "pass"},
                          {"player": "dan", "action": "pass"},
                          {"player": "ann", "action": "pass"}]}
    return [json.dumps(line) for line in (header, first, second)]


def test_session_file_prints_one_verdict_per_line_carrying_the_pool(tmp_path):
    path = tmp_path / "night.jsonl"
    path.write_text("\n".join(session_lines()) + "\n")
    done = cli("replay", str(path))
    assert done.returncode == 0, done.stderr
    verdicts = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(verdicts) == 2
    for v in verdicts:
        assert_conserved(v, SEATS)
    first, second = (v["settlement"] for v in verdicts)
    # deal 1: 0 + 5 ante stays; deal 2: 5 + 5 ante to bob, the lone stander
    assert (first["pool_before"], first["pool_after"], first["deltas"]["dan"]) == (0, 5, -5)
    assert (second["pool_before"], second["pool"], second["pool_after"]) == (5, 10, 0)
    assert second["deltas"] == {"ann": -5, "bob": 10, "cat": 0, "dan": 0}
    assert verdicts == list(replay_session(session_lines()))


def test_session_on_stdin(tmp_path):
    done = cli("replay", "-", stdin="\n".join(session_lines()) + "\n")
    assert done.returncode == 0, done.stderr
    assert len([line for line in done.stdout.splitlines() if line.strip()]) == 2


def test_session_deal_with_the_wrong_dealer_is_a_record_error(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(session_lines(second_dealer="cat")) + "\n")
    done = cli("replay", str(path))
    assert done.returncode == 1
    assert json.loads(done.stdout.splitlines()[-1])["errors"]


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_every_shared_example_through_the_command_line(tmp_path, example):
    case = json.loads((EXAMPLES / example).read_text())
    done = cli("replay", str(deal_file(tmp_path, case["record"])))
    expect = case["expect"]
    if expect.get("error"):
        assert done.returncode == 1 and json.loads(done.stdout)["errors"]
        return
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)
    assert_conserved(verdict, case["record"]["seats"])
    s = verdict["settlement"]
    assert sorted((v["player"], v["rule"], v["trick"]) for v in verdict["violations"]) == sorted(
        tuple(v) for v in expect["violations"])
    assert verdict["status"] == expect["status"]
    assert verdict.get("pool_kind") == expect.get("pool_kind", verdict.get("pool_kind"))
    assert nonzero(verdict["tricks_won"]) == expect["tricks_won"]
    assert nonzero(s["payouts"]) == expect["payouts"]
    assert nonzero(s["loo_payments"]) == expect["loo_payments"]
    assert nonzero(s["deltas"]) == expect["deltas"]
    assert s["pool_after"] == expect["pool_after"]


def test_text_that_is_not_json_is_a_record_error(tmp_path):
    path = tmp_path / "torn.json"
    path.write_text('{"format": "loo-deal/1", "seats": [')
    done = cli("replay", str(path))
    assert done.returncode == 1 and json.loads(done.stdout)["errors"]


@pytest.mark.parametrize(("raw", "problem"), [
    ("NaN", "NaN is not a JSON number (JSON has no NaN or Infinity)"),
    ("Infinity", "Infinity is not a JSON number (JSON has no NaN or Infinity)"),
    ("9" * 5000, "a number with more than 4,300 digits"),  # (was a traceback, exit 1)
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_text_python_reads_beyond_json_is_a_record_error_not_a_traceback(tmp_path, raw, problem):
    # a deal record, and a session file's deal line 2 (the import's words, after "line 2: ")
    said = f"not JSON that can be read: {problem}"
    done = cli("replay", "-", stdin=f'{{"format": "loo-deal/1", "pool": {raw}}}')
    assert (done.returncode, done.stderr) == (1, "")
    assert [e["message"] for e in json.loads(done.stdout)["errors"]] == [said]
    path = tmp_path / "night.jsonl"
    path.write_text(session_lines()[0] + "\n" + f'{{"format": "loo-deal/1", "pool": {raw}}}\n')
    done = cli("replay", str(path))
    assert (done.returncode, done.stderr) == (1, "")
    assert [(e["line"], e["field"], e["message"]) for e in json.loads(done.stdout)["errors"]] == [
        (2, "line", f"line 2: {said}")]


def test_bad_rules_beside_the_record_are_refused_naming_the_option(tmp_path):
    rec = {**exchange_record(), "rules": {"game": "five-card", "loo": "bogus"}}
    done = cli("replay", "-", stdin=json.dumps(rec))
    assert done.returncode == 1
    assert any("loo" in e["message"] for e in json.loads(done.stdout)["errors"])


def test_a_missing_file_is_reported_by_name_without_a_traceback(tmp_path):
    missing = tmp_path / "no-such-deal.json"
    done = cli("replay", str(missing))
    assert done.returncode != 0
    assert "no-such-deal.json" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_session_deal_whose_pool_disagrees_with_the_ledger_is_a_record_error(tmp_path):
    lines = session_lines()
    second = json.loads(lines[2])
    lines[2] = json.dumps({**second, "pool": 7})   # the ledger carries 5 from deal 1
    path = tmp_path / "pool.jsonl"
    path.write_text("\n".join(lines) + "\n")
    done = cli("replay", str(path))
    assert done.returncode == 1
    errors = json.loads(done.stdout.splitlines()[-1])["errors"]
    assert any("pool" in (e.get("field") or "") + e["message"] for e in errors), errors


def _session_errors(lines):
    from games.rules import RecordError

    with pytest.raises(RecordError) as caught:
        list(replay_session(lines))
    return caught.value.errors


@pytest.mark.parametrize(("spoil", "says"), [
    (lambda lines: ["{not json"] + lines[1:], "line 1: not JSON"),
    (lambda lines: ["[1, 2]"] + lines[1:], "line 1: each line must be a JSON object"),
    (lambda lines: lines[1:], "line 1: a session file starts with a loo-session/1 header"),
    (lambda lines: [json.dumps({**json.loads(lines[0]), "seats": []})] + lines[1:],
     "seats: the session header lists the players"),
    (lambda lines: [json.dumps({**json.loads(lines[0]), "pool": -5})] + lines[1:],
     "pool: -5 is not a number of units"),
    (lambda lines: lines[:2] + [json.dumps({**json.loads(lines[2]), "seats": SEATS[:3]})],
     "seats: deal 2 seats ['ann', 'bob', 'cat'], session has ['ann', 'bob', 'cat', 'dan']"),
    (lambda lines: session_lines(second_dealer="cat"),
     "dealer: deal 2 is dealt by cat, expected ann"),
])
def test_a_session_file_that_cannot_be_is_refused_by_line_or_deal(spoil, says):
    errors = _session_errors(spoil(session_lines()))
    assert errors[0]["message"].startswith(says), errors


def _header(**fields):
    """session_lines()'s header line with ``fields`` written over (None: left out)."""
    header = {**json.loads(session_lines()[0]), **fields}
    return json.dumps({k: v for k, v in header.items() if v is not None})


def _bare(line, field, message, **more):
    """An error as the engine gives it: the contract's fields, the file's line (and deal)."""
    return {"index": None, "player": None, "card": None, "field": field, "message": message,
            "line": line, **more}


@pytest.mark.parametrize(("lines", "errors"), [
    # 1.2.0 named no line for the header's seats, pool or rules (first_dealer's it named), nor
    # for a line that is no JSON object; an empty file replayed to nothing (exit 0)
    ([_header(seats=[])], [_bare(1, "seats", "seats: the session header lists the players")]),
    ([_header(pool=-5)], [_bare(1, "pool", "pool: -5 is not a number of units")]),
    # every error of the header found, as the import lists them (1.2.0 stopped at the pool)
    ([_header(pool="5", first_dealer="zed")],
     [_bare(1, "pool", "pool: '5' is not a number of units"),
      _bare(1, "first_dealer", 'first_dealer: "zed" is not seated')]),
    # rules that cannot be played: a record error of line 1 (1.2.0 raised a bare RuleError)
    ([_header(rules={"game": "whist"})],
     [_bare(1, "rules", "game: unknown game 'whist' (known: three-card, irish, five-card, "
                        "poker-loo)")]),
    (["", _header(format=None)],
     [_bare(2, "format", "line 2: a session file starts with a loo-session/1 header")]),
    # in the import's words (games.rules.session.not_json, NOT_AN_OBJECT; 1.2.0 said "not JSON
    # (Expecting ...)" and "not a JSON object")
    ([_header(), "{not json"], [_bare(2, "line", "line 2: not JSON: Expecting property name "
                                                 "enclosed in double quotes at column 2")]),
    ([_header(), "[1, 2]"], [_bare(2, "line", "line 2: each line must be a JSON object")]),
    ([], [_bare(1, "format", "line 1: a session file starts with a loo-session/1 header (the "
                             "file is empty)")]),
    (["", "  "], [_bare(1, "format", "line 1: a session file starts with a loo-session/1 "
                                     "header (the file is empty)")]),
])
def test_every_error_of_a_session_file_names_its_line(lines, errors):
    assert _session_errors(lines) == errors


def test_a_deal_after_a_close_line_and_after_the_final_deal_has_both_errors():
    # redeal_final_session: bob's final deal 2 (line 3), its redeal flush taking the 6, ends
    # the session and the close line (line 4) closes it; bob's deal 3 at line 5 comes after
    # both and is refused for both, as the import refuses it: its words, fields and deal
    # (1.2.0 said "close: deal 3 comes after the close line ..." and "final: deal 3 comes
    # after deal 2, the final deal ...", words of its own)
    lines = redeal_final_session()
    third = {"dealer": "bob", "result": {"tricks": {"cat": 2, "dan": 1}}}
    errors = _session_errors([*lines, CLOSE, third])
    assert errors == [
        _bare(5, "close", "line 5: a deal after the close line (line 4): a closed session takes "
                          "none, so only payments come between a close line and the reopen "
                          "line that reopens the session", deal=3),
        _bare(5, "final", "line 5: a deal after the final deal (line 3), which plays the pool "
                          "off: it is the session's last", deal=3)]


@pytest.mark.parametrize(("text", "errors"), [
    (_header(pool=-5) + "\n", [_bare(1, "pool", "pool: -5 is not a number of units")]),
    ("\n", [_bare(1, "format", "line 1: a session file starts with a loo-session/1 header (the "
                               "file is empty)")]),
])
def test_the_command_line_prints_a_session_files_errors_on_one_line_and_exits_1(
        tmp_path, text, errors):
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 1, done.stdout
    assert done.stdout.splitlines() == [json.dumps({"errors": errors})]
    assert done.stderr == ""


def test_a_record_error_in_a_session_names_its_deal():
    lines = session_lines()
    second = json.loads(lines[2])
    second["actions"][0]["player"] = "zed"
    errors = _session_errors(lines[:2] + [json.dumps(second)])
    assert errors[0]["deal"] == 2 and errors[0]["index"] == 0, errors
    assert errors[0]["line"] == 3  # the header, deal 1, deal 2


def test_purchase_lines_are_passed_over_and_lines_still_counted():
    lines = session_lines()
    buy = json.dumps({"purchase": {"player": "dan", "chips": 20, "paid": False}})
    assert list(replay_session([lines[0], buy, lines[1], buy, lines[2]])) == \
        list(replay_session(lines))
    second = json.loads(lines[2])
    second["dealer"] = "cat"
    errors = _session_errors([lines[0], buy, lines[1], buy, json.dumps(second)])
    assert (errors[0]["line"], errors[0]["deal"]) == (5, 2), errors
    assert errors[0]["message"] == "dealer: deal 2 is dealt by cat, expected ann"


def test_a_byte_order_mark_before_the_header_is_read_past(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text("\ufeff" + "\n".join(session_lines()) + "\n", encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 0, done.stdout
    assert len(done.stdout.splitlines()) == len(session_lines()) - 1


def test_blank_lines_in_a_session_file_are_skipped():
    lines = session_lines()
    assert list(replay_session([lines[0], "", lines[1], "   ", lines[2]])) == \
        list(replay_session(lines))


def test_payment_lines_are_passed_over_as_purchase_lines_are():
    lines = session_lines()
    pay = json.dumps({"payment": {"player": "dan", "money": 100}})
    assert list(replay_session([lines[0], pay, lines[1], pay, lines[2]])) == \
        list(replay_session(lines))


def test_void_lines_are_passed_over_as_purchase_lines_are():
    lines = session_lines()
    buy = json.dumps({"purchase": {"player": "dan", "chips": 20}})
    void = json.dumps({"void": {"purchase": 1, "reason": "keyed twice"}})
    assert list(replay_session([lines[0], buy, lines[1], void, lines[2]])) == \
        list(replay_session(lines))


def test_a_deal_record_with_a_stray_service_key_is_refused_not_dropped(tmp_path):
    # deal 2 with a "void" key beside its fields was taken for a void line and passed over:
    # the command line printed deal 1 alone and exited 0 (the import refuses the line). Now
    # the line is a record error, as the import says it; a service line stays one key alone.
    lines = session_lines()
    second = {**json.loads(lines[2]), "void": {"purchase": 1, "reason": "keyed twice"}}
    path = tmp_path / "stray.jsonl"
    path.write_text("\n".join([lines[0], lines[1], json.dumps(second)]) + "\n", encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 1, done.stdout
    first, refused = done.stdout.splitlines()  # deal 1's verdict, then the error
    assert json.loads(first)["number"] == 1
    errors = json.loads(refused)["errors"]
    assert [(e["line"], e["field"]) for e in errors] == [(3, "void")]
    assert errors[0]["message"] == (
        'line 3: a void line holds "void" alone: "format", "number", "dealer", "turnup", '
        '"actions" beside it would not be read (one line for each purchase, void, payment, '
        "close or reopen)")
    close = json.dumps({"close": {"reason": "done"}, "memo": "kept outside"})
    assert [(e["line"], e["field"]) for e in _session_errors([*lines, close])] == [(4, "close")]


def test_a_close_line_is_passed_over_by_the_command_line_as_payment_lines_are(tmp_path):
    # a closed session's file (the service's export): the close after the last deal, the
    # payments recorded after the close after it
    lines = session_lines()
    close = json.dumps({"close": {"reason": "the evening ended"}})
    pay = json.dumps({"payment": {"player": "dan", "money": 100}})
    path = tmp_path / "closed.jsonl"
    path.write_text("\n".join([*lines, close, pay]) + "\n", encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 0, done.stdout
    assert [json.loads(v) for v in done.stdout.splitlines()] == list(replay_session(lines))


def test_close_and_reopen_lines_between_deals_are_passed_over_by_the_command_line(tmp_path):
    # a session closed after deal 1, paid while closed, reopened, dealt on and closed again (the
    # service's export): the reopening gives the pool back, so deal 2 is dealt into what deal 1
    # left, as without the closing
    header, first, second = session_lines()
    pay = json.dumps({"payment": {"player": "dan", "money": 100}})
    path = tmp_path / "reopened.jsonl"
    path.write_text("\n".join([
        header, first, json.dumps({"close": {"reason": "the evening ended"}}), pay,
        json.dumps({"reopen": {"reason": "one more deal"}}), second,
        json.dumps({"close": {"reason": "now it ended"}})]) + "\n", encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 0, done.stdout
    verdicts = [json.loads(v) for v in done.stdout.splitlines()]
    assert verdicts == list(replay_session([header, first, second]))
    assert verdicts[1]["settlement"]["pool_before"] == 5  # deal 1's pool, carried


def test_a_deal_after_a_close_line_and_before_its_reopen_line_is_a_record_error():
    # the close shared deal 1's 5 units out and the banker bought every chip back: deal 2 was
    # judged on the pool of 5 carried past the close, as if nothing had happened (the import
    # refuses such a line). A reopen line between them lets it be dealt as before.
    header, first, second = session_lines()
    close = json.dumps({"close": {"reason": "the evening ended"}})
    pay = json.dumps({"payment": {"player": "dan", "money": 100}})
    errors = _session_errors([header, first, close, pay, second])
    assert [(e["line"], e["deal"], e["field"]) for e in errors] == [(5, 2, "close")]
    # in the import's words (games.rules.session.order_problems; 1.2.0 had words of its own)
    assert errors[0]["message"] == (
        "line 5: a deal after the close line (line 3): a closed session takes none, so only "
        "payments come between a close line and the reopen line that reopens the session")
    reopen = json.dumps({"reopen": {"reason": "one more deal"}})
    assert len(list(replay_session([header, first, close, pay, reopen, second]))) == 2
    # where the line stands first, then the record's own errors, as the import lists them
    wrong = session_lines(second_dealer="cat")[2]
    errors = _session_errors([header, first, close, pay, wrong])
    assert [(e["line"], e["deal"], e["field"]) for e in errors] == [(5, 2, "close"),
                                                                    (5, 2, "dealer")]
    assert errors[1]["message"] == "dealer: deal 2 is dealt by cat, expected ann"


CLOSE = json.dumps({"close": {"reason": "the evening ended"}})
REOPEN = json.dumps({"reopen": {"reason": "one more deal"}})
BUY = json.dumps({"purchase": {"player": "dan", "chips": 20}})
VOID = json.dumps({"void": {"purchase": 5, "reason": "keyed twice"}})


@pytest.mark.parametrize(("between", "at", "field", "message"), [
    # a reopen with nothing closed: the replay passed over it (the import refused it)
    ([REOPEN], 3, "reopen", ("a reopen line with no close line before it to reverse: only a "
     "closed session is reopened, so a reopen line follows its close line (and the payments "
     "made while the session was closed)")),
    ([CLOSE, REOPEN, REOPEN], 5, "reopen", ("a reopen line with no close line before it to "
     "reverse")),
    ([CLOSE, CLOSE, REOPEN], 4, "close", ("a close line in a closed session (closed at line 3): "
     "a reopen line comes between two close lines")),
    ([CLOSE, BUY, REOPEN], 4, "purchase", ("a purchase after the close line (line 3): a closed "
     "session takes none, so only payments come between a close line and the reopen line")),
    ([CLOSE, VOID, REOPEN], 4, "void", "a void after the close line (line 3)"),
])
def test_close_and_reopen_lines_out_of_the_services_order_are_a_record_error(
        between, at, field, message):
    # the service closes an open session, reopens a closed one and takes only payments while
    # closed: its export writes them so, and a file in another order is refused at its line,
    # in the words the import uses (games.rules.session.out_of_order), deal 2 never replayed
    header, first, second = session_lines()
    errors = _session_errors([header, first, *between, second])
    assert [(e["line"], e["field"]) for e in errors] == [(at, field)]
    assert errors[0]["message"].startswith(f"line {at}: {message}"), errors
    assert "deal" not in errors[0]


def test_closes_and_reopens_in_turn_with_payments_between_replay():
    # close, pay, reopen, close, reopen, close: the order the export writes (a payment while
    # closed stands between the close line and its reopen line)
    header, first, second = session_lines()
    pay = json.dumps({"payment": {"player": "dan", "money": 100}})
    lines = [header, first, CLOSE, pay, REOPEN, CLOSE, REOPEN, BUY, second, CLOSE, pay]
    assert list(replay_session(lines)) == list(replay_session([header, first, second]))


@pytest.mark.parametrize(("given", "message"), [
    # null was read as left out: dan's deal 1 was then refused as the wrong dealer's ("ann"
    # expected), or, with no dealer in the record, dealt by ann; the import refused the header
    (None, ("first_dealer: null is no seat; name the player who deals first, or leave "
           "first_dealer out for the first seat")),
    ("", 'first_dealer: "" is not seated'),  # (also read as left out)
    ("zed", 'first_dealer: "zed" is not seated'),
    (["dan"], 'first_dealer: ["dan"] is not seated'),
])
def test_a_first_dealer_that_names_no_seat_is_a_header_error(given, message):
    header, first, second = session_lines()
    bad = json.dumps({**json.loads(header), "first_dealer": given})
    errors = _session_errors([bad, first, second])
    assert [(e["line"], e["field"], e["message"]) for e in errors] == [(1, "first_dealer", message)]


def test_a_first_dealer_left_out_is_the_first_seat():
    # the header's seats are ann, bob, cat, dan: left out, ann deals deal 1 (its record names no
    # dealer, so nothing else says who), and bob deal 2
    header, first, second = session_lines()
    lean = {k: v for k, v in json.loads(header).items() if k != "first_dealer"}
    records = [{k: v for k, v in json.loads(x).items() if k != "dealer"} for x in (first, second)]
    assert [v["dealer"] for v in replay_session([lean, *records])] == ["ann", "bob"]


def redeal_final_session() -> list[dict]:
    """end_pool "final-deal", flush "three-trumps-redeal". Deal 1, ann's simple pool (P = 3):
    bob 2 tricks, cat 1, dan and ann looed 3: pool 6. Deal 2, bob's final deal: cat, dealt three
    hearts (3H turned), shows the redeal flush and takes the 6; nobody is looed, the pool is
    empty and the cards are thrown in (ended "redeal", bob to deal again)."""
    header = {"format": "loo-session/1", "seats": SEATS, "first_dealer": "ann", "pool": 0,
              "rules": {"game": "three-card", "end_pool": "final-deal",
                        "flush": "three-trumps-redeal"}}
    first = {"dealer": "ann", "result": {"tricks": {"bob": 2, "cat": 1}}}
    final = {"dealer": "bob", "final": True, "turnup": "3H", "hands": {"cat": ["2H", "5H", "7H"]},
             "actions": [{"player": "cat", "action": "flush"}]}
    return [header, first, final]


@pytest.mark.parametrize("final", [False, True])
def test_no_deal_follows_a_final_deal_its_redeal_flush_ended(final):
    # the flusher took the pool the final deal was to play off: it is the final deal played,
    # and bob's deal 3 (ordinary, or marked final again, into an empty pool) was replayed as if
    # the session went on; it is refused as after any final deal played
    lines = redeal_final_session()
    verdicts = list(replay_session(lines))
    assert [(v["ended"], v["settlement"]["pool_after"]) for v in verdicts] == [
        ("played", 6), ("redeal", 0)]
    assert verdicts[1]["settlement"]["deltas"] == {"ann": 0, "bob": 0, "cat": 6, "dan": 0}
    third = {"dealer": "bob", "result": {"tricks": {"cat": 2, "dan": 1}}, "final": final}
    errors = _session_errors([*lines, third])
    assert [(e["line"], e["deal"], e["field"], e["message"]) for e in errors] == [
        (4, 3, "final", ("line 4: a deal after the final deal (line 3), which plays the pool off: "
                        "it is the session's last"))]


def test_a_misdealt_final_deal_is_dealt_again_as_the_final_deal():
    # a misdeal is void: bob pays a single loo (3) into the pool (9) and deals the final deal
    # again; the redeal flush of that one takes the 9
    header, first, final = redeal_final_session()
    misdealt = {"dealer": "bob", "final": True,
                "actions": [{"player": "bob", "action": "irregularity", "kind": "misdeal"}]}
    verdicts = list(replay_session([header, first, misdealt, final]))
    assert [(v["ended"], v["settlement"]["pool_after"]) for v in verdicts] == [
        ("played", 6), ("misdeal", 9), ("redeal", 0)]
    assert verdicts[2]["settlement"]["deltas"]["cat"] == 9


def test_a_session_file_with_a_line_separator_in_a_name_replays(tmp_path):
    # JSON leaves U+2028 / U+2029 / U+0085 unescaped in a string (the service's export writes
    # them so): the file's lines end at "\n" only
    lines = session_lines()
    header = json.loads(lines[0])
    header["name"] = "Fri\u2028day\u0085night"
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join([json.dumps(header, ensure_ascii=False), *lines[1:]]) + "\r\n",
                    encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 0, done.stdout
    assert len(done.stdout.splitlines()) == len(lines) - 1


@pytest.mark.parametrize("module, args", [
    ("games.rules.simulate", ("--deals", "3000", "--seed", "1")),
    ("games.rules", ("replay", "FILE")),
])
def test_a_reader_that_stops_early_ends_the_output_quietly(tmp_path, module, args):
    # `... | head`: the pipe closes under the writer; no BrokenPipeError traceback
    path = tmp_path / "s.jsonl"
    path.write_text(subprocess.run(
        [str(PYTHON), "-m", "games.rules.simulate", "--deals", "300", "--seed", "2"], cwd=ROOT,
        capture_output=True, text=True, check=True, timeout=120).stdout)
    proc = subprocess.Popen([str(PYTHON), "-m", module, *(str(path) if a == "FILE" else a
                                                          for a in args)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.read(10)
    proc.stdout.close()
    assert proc.wait(timeout=120) in (0, 1)
    assert b"Traceback" not in proc.stderr.read()


def test_a_file_that_cannot_be_read_exits_2_and_a_result_only_record_prints_unverified(tmp_path):
    """Exit codes: 0 a verdict, 1 record errors (JSON on stdout), 2 a file that cannot be read
    at all (named on stderr, nothing on stdout)."""
    for bad in (tmp_path / "missing.json", tmp_path / "latin1.json"):
        if bad.name == "latin1.json":
            bad.write_bytes(b'{"seats": ["b\xf8b"]}')  # not UTF-8
        done = cli("replay", str(bad))
        assert (done.returncode, done.stdout) == (2, "") and bad.name in done.stderr
    # P = 6 + dan's 3 = 9, a trick 3: ann 2 x 3 = 6, bob 3; dan -3 (his ante)
    rec = record(" ".join(SEATS), "dan", pool=6, result={"tricks": {"ann": 2, "bob": 1}})
    done = cli("replay", str(deal_file(tmp_path, rec)), "--compact")
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 1
    verdict = json.loads(done.stdout)
    assert (verdict["status"], verdict["tricks"], verdict["tricks_won"]) == (
        "unverified", [], {"ann": 2, "bob": 1})
    assert nonzero(verdict["settlement"]["deltas"]) == {"ann": 6, "bob": 3, "dan": -3}
    # counts that leave the dealer alone (he takes the pool without play): exit 1, the
    # errors as JSON on stdout
    done = cli("replay", "-", stdin=json.dumps({**rec, "result": {"tricks": {"dan": 3}}}))
    assert done.returncode == 1 and [(e["index"], e["field"]) for e in
                                     json.loads(done.stdout)["errors"]] == [(None, "result")]


def test_text_of_a_result_only_record_without_actions_is_empty():
    # replay reads a record with no "actions" (a result-only one) as having none; so does text
    rec = record(" ".join(SEATS), "dan", pool=6, result={"tricks": {"ann": 2, "bob": 1}})
    del rec["actions"]
    done = cli("text", "-", stdin=json.dumps(rec))
    assert (done.returncode, done.stdout) == (0, "")
    for not_a_record in ("[1]", "null", '{"actions": 5}'):
        done = cli("text", "-", stdin=not_a_record)
        assert done.returncode == 1 and json.loads(done.stdout)["errors"], not_a_record
        assert "Traceback" not in done.stderr
