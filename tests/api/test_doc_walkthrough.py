"""docs/api.md's worked example, docs/settlement.md's closing and import examples and
docs/accounts.md's clubs and members, run as written: the shell blocks themselves, with curl
and jq, against a live server holding the demo data of ``make run`` (eager Celery, as there),
one block after another as a newcomer pastes them. Every figure their comments show is
compared with what the server answered.

The ``manage.py`` lines are left out (they would open the development database, not the test
one); tests/reports/test_imports.py covers those commands.
"""
from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest
from django.core.management import call_command

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
