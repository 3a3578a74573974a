"""Every ``manage.py`` command the docs name exists, and every command line they give to copy
(``.venv/bin/python manage.py ...``, in a shell block or inline) parses with that command's
options: the pages a newcomer or an operator copies from (README, docs/, deploy/) and the systemd units
must not drift from the commands. What the README's, settlement.md's and accounts.md's blocks *do* is checked
by tests/api/test_doc_walkthrough.py; this covers every page, deploy/README.md's lines included.
"""
from __future__ import annotations

import pathlib
import re
import shlex

import pytest
from django.core.management import get_commands, load_command_class

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = ["README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")),
         "deploy/README.md", *sorted(f"deploy/{p.name}" for p in (ROOT / "deploy").glob("*.service"))]
#: a command named in prose or code: `manage.py club_member`
NAMED = re.compile(r"manage\.py ([a-z_]+)")
#: a line to copy, up to a comment, a pipe or a redirect
COPIED = re.compile(r"\.venv/bin/python manage\.py ([a-z_]+)((?:(?! #)[^`|>\n])*)")


def named() -> list[tuple[str, str]]:
    return sorted({(page, command) for page in PAGES
                   for command in NAMED.findall((ROOT / page).read_text(encoding="utf-8"))})


def copied() -> list[tuple[str, str, str]]:
    """(page, command, arguments as written; ``"$S"``, the session id, is 1). An odd quote
    closes the ``sh -c '...'`` the line is run in (deploy/README.md): it ends the line."""
    out = []
    for page in PAGES:
        for command, rest in COPIED.findall((ROOT / page).read_text(encoding="utf-8")):
            if rest.count("'") % 2:
                rest = rest[:rest.rindex("'")]
            out.append((page, command, rest.strip().replace('"$S"', "1")))
    return out


NAMED_COMMANDS, COPIED_LINES = named(), copied()


def test_the_pages_give_command_lines_to_copy():
    assert {page for page, _c, _a in COPIED_LINES} >= {
        "README.md", "deploy/README.md", "docs/settlement.md", "docs/accounts.md",
        "deploy/loo-ledger-web.service", "deploy/loo-ledger-prune.service"}


@pytest.mark.parametrize(("page", "command"), NAMED_COMMANDS,
                         ids=[f"{p}:{c}" for p, c in NAMED_COMMANDS])
def test_a_named_command_exists(page, command):
    assert command in get_commands(), f"{page} names manage.py {command}, which does not exist"


@pytest.mark.parametrize(("page", "command", "args"), COPIED_LINES,
                         ids=[f"{p}:{c} {a}" for p, c, a in COPIED_LINES])
def test_a_command_line_to_copy_parses(page, command, args):
    parser = load_command_class(get_commands()[command], command).create_parser("manage.py",
                                                                                command)
    parser.parse_args(shlex.split(args))  # a CommandError saying why, if it does not
