"""``python -m games.rules replay FILE|-``: a verdict (or one per deal of a session) as JSON.

Exit 0 with the verdict; exit 1 printing ``{"errors": [...]}`` for a record that cannot
describe a real deal or rules that cannot be played; exit 2 for a file that cannot be read.
Standard library only.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from .errors import RecordError, RuleError, record_error, shown
from .jsontext import UnreadableJSON, json_value
from .notation import actions_from_text, actions_to_text
from .record import replay
from .session import SESSION_FORMAT, replay_session


def run(main: Callable[[], int]) -> NoReturn:
    """Exit with ``main()``'s status; a reader that stops early (``| head``) ends the output
    quietly, as other command-line tools do, not with a BrokenPipeError traceback."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        status = 1
    sys.exit(status)


def _errors(err: Exception) -> list[dict]:
    if isinstance(err, RecordError):
        return err.errors
    if isinstance(err, RuleError):
        return [record_error(e, field="rules") for e in err.errors]
    return [record_error(str(err))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.rules",
                                     description="Replay Loo deal records and print verdicts.")
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a deal record (.json) or a session (.jsonl)")
    rp.add_argument("file", help="path, or - for standard input")
    rp.add_argument("--compact", action="store_true", help="one-line JSON output")
    tx = sub.add_parser("text", help="a record's actions in the compact table notation")
    tx.add_argument("file", help="a deal record (.json), or - for standard input")
    ac = sub.add_parser("actions", help="compact table notation -> JSON actions")
    ac.add_argument("file", help="one action per line (e.g. 'ann stand', 'bob AD'), or -")
    args = parser.parse_args(argv)
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        text = text.removeprefix("\ufeff")  # a byte-order mark, as some editors write
    except (OSError, UnicodeDecodeError) as err:
        sys.stderr.write(f"python -m games.rules: cannot read {args.file}: "
                         f"{getattr(err, 'strerror', None) or err}\n")
        return 2
    out = sys.stdout
    if args.command != "replay":
        return _convert(args.command, text)
    stripped = text.lstrip()
    first_line = stripped.split("\n", 1)[0]
    session = args.file.endswith(".jsonl")
    if not session:
        try:
            head = json_value(first_line)
            session = isinstance(head, dict) and head.get("format") == SESSION_FORMAT
        except ValueError:  # (no JSON, or none that can be read: a record's error below)
            session = False
    try:
        if session:
            # JSON Lines end at "\n" only: str.splitlines() would also break a line at a
            # U+2028, U+2029 or U+0085 that JSON leaves raw in a name or memo
            for verdict in replay_session(text.split("\n")):
                out.write(json.dumps(verdict) + "\n")
            return 0
        try:
            record = json_value(text)
        except json.JSONDecodeError as err:
            raise RecordError(f"not JSON: {err.msg} (line {err.lineno})") from None
        except UnreadableJSON as err:
            raise RecordError(str(err)) from None
        verdict = replay(record)
    except (RecordError, RuleError) as err:
        out.write(json.dumps({"errors": _errors(err)}, indent=None if session else 2) + "\n")
        return 1
    out.write(json.dumps(verdict, indent=None if args.compact else 2) + "\n")
    return 0


def _convert(command: str, text: str) -> int:
    """``text``: record JSON -> compact lines; ``actions``: compact lines -> JSON actions."""
    try:
        if command == "text":
            try:
                record = json_value(text)
                if not isinstance(record, dict):
                    raise RecordError("record: a deal record is a JSON object")
                # a result-only record may leave its actions out, as replay reads it
                actions = record.get("actions", [])
                if not isinstance(actions, list):
                    raise RecordError([record_error(f"actions: must be a list of actions, not "
                                                    f"{shown(actions)}", field="actions")])
                sys.stdout.write(actions_to_text(actions))
            except RecordError:
                raise
            except (json.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError) as err:
                raise RecordError(f"not a deal record with actions: {err}") from None
        else:
            sys.stdout.write(json.dumps(actions_from_text(text), indent=1) + "\n")
    except RecordError as err:
        sys.stdout.write(json.dumps({"errors": err.errors}, indent=2) + "\n")
        return 1
    return 0
