"""docs/api.md's worked example, docs/settlement.md's closing and import examples and
docs/accounts.md's clubs and members, run as written: the shell blocks themselves, with curl
and jq, against a live server holding the demo data of ``make run`` (eager Celery, as there),
one block after another as a newcomer pastes them. Every figure their comments show is
compared with what the server answered.

The ``manage.py`` lines run in the test's own process (``call_command``), since as commands they
would open the development database, not the test one.
"""
from __future__ import annotations

import io
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess

import pytest
from django.core.management import CommandError, call_command

from games.models import GameSession

ROOT = pathlib.Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.django_db(transaction=True, reset_sequences=True),  # ids as on a fresh make run
    pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="needs curl and jq"),
    pytest.mark.skipif(bool(os.environ.get("CELERY_BROKER_URL")),
                       reason="the examples are make run's: imports answer done (eager Celery)"),
]


def sh_block(page: str, needle: str) -> str:
    text = (ROOT / page).read_text(encoding="utf-8")
    found = [b for b in re.findall(r"^```sh\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
             if needle in b]
    assert len(found) == 1, (page, needle)
    return found[0]


def comments(block: str) -> str:
    """The block's comments as one line of text (where the pages show the answers)."""
    return " ".join(line.partition("#")[2].strip() for line in block.splitlines() if "#" in line)


def said(text: str, key: str, start: int = 0, *, first: bool = False):
    """The JSON value the comments give for ``"key":`` (the first one after ``start``); with
    ``first``, the first item of a list the page shortens with "..."."""
    at = text.index(f'"{key}":', start) + len(key) + 3
    rest = text[at:].lstrip()
    if first:
        rest = rest.removeprefix("[").lstrip()
    return json.JSONDecoder().raw_decode(rest)[0]


def answers(stdout: str) -> list:
    """Every JSON value the script printed, in order."""
    decoder, out, at = json.JSONDecoder(), [], 0
    while (at := len(stdout) - len(stdout[at:].lstrip())) < len(stdout):
        value, at = decoder.raw_decode(stdout, at)
        out.append(value)
    return out


def shown_as(shown: str, tmp_path: pathlib.Path) -> re.Pattern[str]:
    """What a page's comment shows, as a pattern for the whole output: ``/tmp/`` is the test's
    directory and each ``...`` a count (a group of its own)."""
    pattern = re.escape(shown.replace("/tmp/", f"{tmp_path}/"))
    return re.compile(pattern.replace(r"\.\.\.", r"(\d+)"))


def run_manage(line: str, tmp_path: pathlib.Path, session: int | None = None) -> tuple[str, str]:
    """A page's ``.venv/bin/python manage.py ...`` line run with ``call_command`` (the test
    database, not the development one): ``"$S"`` is ``session``, ``/tmp/`` the test's
    directory; a ``> FILE`` or ``| jq FILTER`` after it writes to a file with ``-o`` (the
    command writes bytes to the process's own stdout otherwise), piped through ``jq`` as the
    page pipes it. Returns (stdout, stderr)."""
    command = line.partition("  #")[0].replace('"$S"', str(session)).replace("/tmp/", f"{tmp_path}/")
    command, _, jq_filter = command.partition(" | jq ")
    command, _, target = command.partition(" > ")
    args = shlex.split(command)
    assert args[:2] == [".venv/bin/python", "manage.py"], line
    args = args[2:]
    piped = tmp_path / "piped"
    if jq_filter or target:
        args += ["-o", target.strip() or str(piped)]
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    if jq_filter:
        filtered = subprocess.run(["jq", *shlex.split(jq_filter), str(piped)], check=True,
                                  capture_output=True, text=True)
        return filtered.stdout, err.getvalue()
    return out.getvalue(), err.getvalue()


def test_api_and_settlement_examples_answer_what_the_pages_show(live_server, tmp_path):
    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115 (the demo's chatter)
    worked = sh_block("docs/api.md", "Idempotency-Key: 5c1e0d0e-deal-1")
    closing = sh_block("docs/settlement.md", "OWNER_TOKEN=")
    imports = sh_block("docs/settlement.md", "--allow-duplicate")
    script = "\n".join(line for line in f"{worked}\n{closing}\n{imports}".splitlines()
                       if "manage.py" not in line)
    script = script.replace("http://127.0.0.1:8000", live_server.url).replace("/tmp/", f"{tmp_path}/")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=ROOT, check=False,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    (deal, ledger, session, close, reopen, closings, close_again, jobs, job, duplicate) = \
        answers(done.stdout)

    # docs/api.md: deal 1 of the new session (session 3: the demo has 1 and 2)
    text = comments(worked)
    assert GameSession.objects.filter(pk=said(text, "id"), date="2026-11-28").exists()
    for key in ("number", "revision", "dealer", "pool_before", "pool_after"):
        assert deal[key] == said(text, key), key
    assert deal["verdict"]["status"] == said(text, "status")
    assert deal["verdict"]["settlement"]["deltas"] == said(text, "deltas")
    row = next(r for r in ledger["rows"] if r["kind"] == "deal")
    at = text.index('"kind": "deal"')
    for key in ("deal", "dealer", "changes", "balances", "pool", "issued"):
        assert row[key] == said(text, key, at), key
    assert (ledger["ok"], ledger["problems"]) == (said(text, "ok"), said(text, "problems"))

    # docs/settlement.md: the 53-deal Saturday table imported, closed, reopened, closed again
    text = comments(closing)
    assert session == int(re.search(r"echo \"\$S\"\s+# -> (\d+)", closing).group(1))
    assert close["session"] == said(text, "session") == session
    assert close["status"] == "closed"
    assert close["end_pool"] == said(text, "end_pool")
    for key in ("returned", "results", "currency"):
        assert close[key] == said(text, key), key
    assert close["through_banker"][0] == said(text, "through_banker", first=True)
    assert close["transfers"][0] == said(text, "transfers", first=True)
    assert close["warnings"][0] == said(text, "warnings")[0]
    assert close["warnings"][1].startswith(said(text, "warnings")[1].removesuffix("..."))
    at = text.rindex('"session":', 0, text.index('"status": "open"'))
    for key in ("session", "status", "reopened_by", "reason"):
        assert reopen[key] == said(text, key, at), key
    assert [c["action"] for c in closings] == ["close", "reopen"]
    assert close_again["status"] == "closed"

    # docs/settlement.md: the import job, and the same file again (409)
    text = comments(imports)
    assert [j["id"] for j in jobs] == [job["id"]]
    for key in ("id", "status", "total", "done", "progress", "errors", "session"):
        assert job[key] == said(text, key), key
    at = text.index('"type": "/problems/duplicate-import"')
    for key in ("type", "title", "status", "session", "job"):
        assert duplicate[key] == said(text, key, at), key
    assert " ".join(duplicate["detail"].split()) == " ".join(said(text, "detail", at).split())

    # docs/settlement.md's manage.py lines, run in this process on the test database as the
    # page writes them: the same file again from the shell (refused, then imported anew as a
    # new session), then the closed session's report
    refused_line, again_line = [line for line in imports.splitlines() if "manage.py" in line]
    with pytest.raises(CommandError) as refused:
        run_manage(refused_line, tmp_path)
    shown = re.search(r"-> CommandError: (.*?)\s*\[exit 1\]", text).group(1)
    assert " ".join(str(refused.value).split()) == shown.replace("/tmp/", f"{tmp_path}/")
    out, err = run_manage(again_line, tmp_path)
    assert out.strip() == re.search(r"stdout: (.*?\))", text).group(1)
    assert GameSession.objects.filter(pk=session).exists()  # the closed one, still there
    for bar in re.findall(r"(?:validating|storing) +\[#+\] \d+/\d+", text):
        assert bar in err, bar
    report = sh_block("docs/settlement.md", 'export_report "$S"')
    text = comments(report)
    pdf_line, _csv_line, json_line = [line for line in report.splitlines() if "manage.py" in line]
    _out, err = run_manage(pdf_line, tmp_path, session)
    wrote = shown_as(re.search(r"-> (wrote .*?bytes\))", text).group(1), tmp_path)
    assert wrote.fullmatch(err.strip()), err
    out, _err = run_manage(json_line, tmp_path, session)
    shown = [json.loads(o) for o in re.findall(r"\{[^{}]*\}", text.partition("(... bytes)")[2])]
    assert shown
    assert [json.loads(line) for line in out.splitlines()][:len(shown)] == shown


def json_block(page: str, needle: str) -> dict:
    text = (ROOT / page).read_text(encoding="utf-8")
    found = [b for b in re.findall(r"^```json\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
             if needle in b]
    assert len(found) == 1, (page, needle)
    return json.loads(found[0])


def test_accounts_examples_answer_what_the_page_shows(live_server):
    """docs/accounts.md's shell block (a token, a club, its members and roles, unlinking a
    login), run as written against the demo of ``make run``, then the refusal its "Errors"
    section shows, which that block leaves the club ready to give."""
    call_command("load_demo", deals=1, stdout=open(os.devnull, "w"))  # noqa: SIM115
    block = sh_block("docs/accounts.md", "create a club: I become its owner")
    shown = json_block("docs/accounts.md", '"instance": "/api/v1/clubs/oak/members/"')
    # the "Errors" section's request, with the block's token
    refused = ("\ncurl -s -X POST http://127.0.0.1:8000/api/v1/clubs/oak/members/ "
               "-H \"Authorization: Token $TOKEN\" -H 'Content-Type: application/json' "
               "-d '{\"name\": \"bob\", \"user\": \"demo\"}'")
    script = (block + refused).replace("http://127.0.0.1:8000", live_server.url)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=ROOT, check=False,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    clubs, oak, bob, sam, bob_viewer, scorers, problem = answers(done.stdout)

    assert [(c["slug"], c["role"]) for c in clubs["results"]] == [("demo", "owner")]
    assert (oak["slug"], oak["name"], oak["role"]) == ("oak", "Oak Card Club", "owner")
    assert (bob["name"], bob["display_name"], bob["role"], bob["user"]) == ("bob", "Bob", "player", None)
    assert (sam["name"], sam["role"], sam["user"]) == ("sam", "scorer", "scorer")
    assert bob_viewer["role"] == "viewer"
    assert [m["name"] for m in scorers["results"]] == ["sam"]
    # the DELETE answered 204 (no body) and unlinked sam's login; sam stays a member
    from accounts.models import Member
    assert Member.objects.get(club__slug="oak", name="sam").user is None
    assert Member.objects.get(club__slug="oak", name="ann").user.username == "demo"
    assert problem == shown


def test_readme_shell_commands_do_what_their_comments_say(tmp_path, settings, client, eager_celery):
    """README.md's banker block, after ``make run``'s demo and the README's engine block (which
    writes the ``/tmp/s.jsonl`` it imports): each ``manage.py`` line run as written, and what
    its comments show (``# -> ...``) or say compared with what it did."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from games.models import LedgerEntry
    from games.reports.pdf import reports_dir
    from tests.api.test_ledger import _tamper
    from tests.engine.test_doc_snippets import commands
    from tests.reports.conftest import add_rebuy

    settings.MEDIA_ROOT = tmp_path / "var" / "media"  # LOO_VAR_DIR is the test's "var"
    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    engine = sh_block("README.md", "games.rules.simulate")
    script = engine.replace("/tmp/", f"{tmp_path}/")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=ROOT, check=False,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (import_line, imported), (export_line, wrote), (ledger_line, books), (dry_line, would), \
        (prune_line, removed) = commands(sh_block("README.md", "manage.py import_session"))

    def shown(comment: str) -> re.Pattern[str]:
        return shown_as(re.search(r"-> (.*?)(?:   \(|$)", comment, re.MULTILINE).group(1)
                        .replace("$LOO_VAR_DIR", "/tmp/var"), tmp_path)

    # import_session: the simulator's deals as a new session, a progress bar on stderr
    out, err = run_manage(import_line, tmp_path)
    assert shown(imported).fullmatch(out.strip()), out
    deals = int(re.search(r"--deals (\d+)", engine).group(1))
    new = GameSession.objects.get(pk=int(re.search(r"session (\d+)", out).group(1)))
    assert (new.club.slug, new.deals.count()) == ("demo", deals)
    assert "progress bar on stderr" in imported
    for phase in ("validating", "storing"):
        assert re.search(rf"{phase} +\[#{{30}}\] {deals}/{deals}", err), phase

    # export_report: the PDF as the comment says; the other formats it names, of the same report
    _out, err = run_manage(export_line, tmp_path)
    size = int(shown(wrote).fullmatch(err.strip()).group(1))
    pdf = (tmp_path / "report.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) == size
    others = re.search(r"or --format ([\w, ]+)", wrote).group(1).split(", ")
    assert others == ["csv", "json"]
    for fmt in others:
        run_manage(export_line.replace("pdf", fmt), tmp_path)
    report = json.loads((tmp_path / "report.json").read_text())
    assert (report["session_id"], report["club"]) == (1, "demo")
    rows = (tmp_path / "report.csv").read_text().splitlines()
    names = [p["name"] for p in report["players"]]
    assert [row.partition(",")[0] for row in rows] == ["player", *names]

    # check_ledger: a line a session, the first as shown; exit 1 once a ledger is broken
    out, _err = run_manage(ledger_line, tmp_path)
    lines = out.splitlines()
    assert shown(books).fullmatch(lines[0])
    assert [line.partition(":")[0] for line in lines] == [
        f"session {pk}" for pk in GameSession.objects.order_by("pk").values_list("pk", flat=True)]
    assert all(": ok, " in line for line in lines) and "exit 1 on a break" in books
    with transaction.atomic():  # broken and put back: the change is rolled back
        entry = LedgerEntry.objects.filter(session_id=1, account="ann").last()
        _tamper(entry, entry.chips + 5)
        with pytest.raises(CommandError) as broken:
            run_manage(ledger_line, tmp_path)
        transaction.set_rollback(True)
    assert (broken.value.returncode, str(broken.value)) == (1, "1 session ledger(s) broken")

    # prune_pdfs: session 1's PDF as served, then superseded by a rebuy and served anew; the
    # dry run removes nothing, the run removes the superseded one only
    client.force_login(get_user_model().objects.get(username="demo"))
    served = []
    for _version in range(2):
        if served:
            add_rebuy(GameSession.objects.get(pk=1))
        answer = client.get("/api/v1/clubs/demo/sessions/1/report", {"format": "pdf"})
        assert answer.status_code == 200
        served.append(next(p for p in reports_dir().glob("*.pdf") if p not in served))
    superseded, current = served
    counts = (1, 0, superseded.stat().st_size)
    out, _err = run_manage(dry_line, tmp_path)
    assert tuple(map(int, shown(would).fullmatch(out.strip()).groups())) == counts, out
    assert "(nothing is)" in would and superseded.exists() and current.exists()
    out, _err = run_manage(prune_line, tmp_path)
    assert tuple(map(int, shown(removed).fullmatch(out.strip()).groups())) == counts, out
    assert not superseded.exists() and current.exists()


def test_accounts_shell_lines_make_the_club_the_page_describes(tmp_path):
    """docs/accounts.md's ``manage.py`` block, each line run as written: the first owner of a
    new club with a login of her own, a player without one, a role changed, and the demo."""
    from django.contrib.auth import authenticate

    from accounts.models import Club, Member

    lines = [line for line in sh_block("docs/accounts.md", "manage.py club_member").splitlines()
             if line.strip()]
    said_so = [run_manage(line, tmp_path)[0] for line in lines]

    oak = Club.objects.get(slug="oak")
    assert oak.name == "Oak Card Club"
    olga = Member.objects.get(club=oak, name="olga")
    assert (olga.role, olga.user.username) == ("owner", "olga")
    assert authenticate(username="olga", password="a-long-password") == olga.user
    bob = Member.objects.get(club=oak, name="bob")
    assert (bob.role, bob.user) == ("viewer", None)  # made a player, then a viewer
    assert "Created club oak (Oak Card Club)." in said_so[0]
    assert "bob (player" in said_so[1] and "bob (viewer" in said_so[2]
    assert Club.objects.filter(slug="demo").exists()
    run_manage(lines[-1], tmp_path)  # load_demo again: "idempotent"
    assert Club.objects.filter(slug="demo").count() == 1
    assert GameSession.objects.filter(club__slug="demo").count() == 2
