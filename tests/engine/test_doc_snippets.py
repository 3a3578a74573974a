"""The engine examples of README.md and docs/*.md, run as written, so they cannot drift from the
code: a newcomer's first commands must work and print what the page says they print.

Each shell example runs as its own process from the repository root, its ``/tmp/`` paths moved
into a test directory. Each Python example runs statement by statement, and a statement whose
comment says ``# -> VALUE`` must evaluate to that value. The option table of docs/engine.md is
compared with the engine's own tables (names, values, defaults, presets, seat limits).
"""
from __future__ import annotations

import ast
import json
import pathlib
import re
import subprocess
from dataclasses import fields

import pytest

from games.rules import PRESETS, RuleSet, replay
from games.rules.options import CHOICES, GAME_DEFAULTS, GAME_NAMES, SEAT_LIMITS
from games.rules.phases import IRREGULARITY_KINDS

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYTHON = ROOT / ".venv" / "bin" / "python"


def doc(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def blocks(text: str, lang: str) -> list[str]:
    """The fenced code blocks of one language, in page order."""
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)


def block_with(text: str, lang: str, needle: str) -> str:
    found = [b for b in blocks(text, lang) if needle in b]
    assert len(found) == 1, f"expected one {lang} block holding {needle!r}, found {len(found)}"
    return found[0]


def commands(block: str) -> list[tuple[str, str]]:
    """(command, its comment) of a shell block: a heredoc is one command with its body, a line
    ending in a backslash goes on, a line starting with ``#`` belongs to the command above it."""
    out: list[tuple[str, str]] = []
    lines = re.sub(r"\\\n", "", block).splitlines()  # a line ending in a backslash goes on
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("#"):
            if out:
                out[-1] = (out[-1][0], out[-1][1] + line.lstrip().lstrip("#") + "\n")
        elif heredoc := re.search(r"<<'(\w+)'$", line):
            end = lines.index(heredoc.group(1), i + 1)
            out.append(("\n".join(lines[i:end + 1]), ""))
            i = end
        elif line.strip():
            command, _, comment = line.partition("  #")
            out.append((command.strip(), comment.lstrip("#").strip() + "\n" if comment else ""))
        i += 1
    return out


def run_shell(command: str, workdir: pathlib.Path) -> subprocess.CompletedProcess[str]:
    script = command.replace("/tmp/", f"{workdir}/")
    return subprocess.run(["bash", "-o", "pipefail", "-c", script], cwd=ROOT, check=False,
                          capture_output=True, text=True, timeout=300)


def run_python(code: str, workdir: pathlib.Path) -> int:
    """Run a Python example a statement at a time; every ``expr  # -> VALUE`` must give VALUE.
    Returns how many such checks were made."""
    code = code.replace("/tmp/", f"{workdir}/")
    source = code.splitlines()
    namespace: dict = {"__name__": "__doc_snippet__"}
    checked = 0
    for statement in ast.parse(code).body:
        module = ast.Module(body=[statement], type_ignores=[])
        if isinstance(statement, ast.Expr):
            value = eval(compile(ast.Expression(statement.value), "<doc>", "eval"), namespace)
            comment = source[statement.end_lineno - 1].partition("#")[2]
            said = re.match(r"\s*->\s*(\[[^\]]*\]|\"[^\"]*\"|-?\d+|None|True|False)", comment)
            if said:
                assert value == ast.literal_eval(said.group(1)), (ast.unparse(statement), value)
                checked += 1
        else:
            exec(compile(module, "<doc>", "exec"), namespace)  # noqa: S102 (the page's own example)
    return checked


# --- README.md: "The rules engine" ---------------------------------------------------------

README_SHELL = block_with(doc("README.md"), "sh", "games.rules replay")


@pytest.fixture(scope="module")
def readme_run(tmp_path_factory):
    """Every command of the README's engine example, in order, in one directory."""
    workdir = tmp_path_factory.mktemp("readme")
    results = []
    for command, comment in commands(README_SHELL):
        done = run_shell(command, workdir)
        assert done.returncode == 0, (command, done.stderr)
        results.append((command, comment, done))
    return workdir, results


def result_of(readme_run, needle: str):
    found = [r for r in readme_run[1] if needle in r[0]]
    assert len(found) == 1, needle
    return found[0]


def test_readme_replay_prints_the_verdict_its_comment_gives(readme_run):
    _, comment, done = result_of(readme_run, "replay /tmp/deal.json")
    verdict = json.loads(done.stdout)
    # By hand: pool 6 + dan's ante 3 = 9; ann wins all three tricks and takes the 9; bob (who
    # took the miss, 5H among it) played 5C to ann's TH: a revoke, a full loo of 3 into the
    # next pool, which is then 9 - 9 + 3 = 3. Deltas: ann +9, bob -3, cat 0, dan -3 (his ante).
    assert verdict["status"] == "irregular"
    assert [(v["player"], v["rule"], v["trick"], v["evidence"]) for v in verdict["violations"]] \
        == [("bob", "revoke", 2, "held 5H when TH was led")]
    assert verdict["settlement"]["payouts"] == {"ann": 9}
    assert verdict["settlement"]["loo_payments"] == {"bob": 3}
    assert verdict["settlement"]["pool_after"] == 3
    assert verdict["settlement"]["deltas"] == {"ann": 9, "bob": -3, "cat": 0, "dan": -3}
    # ... and the README's comment says exactly that
    said = " ".join(comment.split())
    assert re.search(r'"status": "(\w+)"', said).group(1) == verdict["status"]
    assert 'bob "revoke" at trick 2 ("held 5H when TH was led")' in said
    assert int(re.search(r"ann takes (\d+)", said).group(1)) == 9
    assert int(re.search(r"full loo \((\d+)\)", said).group(1)) == 3
    assert int(re.search(r"pool_after (\d+)", said).group(1)) == 3
    deltas = re.search(r"deltas ((?:\w+ [+-]?\d+ ?)+)", said).group(1).split()
    assert {deltas[i]: int(deltas[i + 1]) for i in range(0, len(deltas), 2)} \
        == verdict["settlement"]["deltas"]


def test_readme_text_prints_the_compact_notation(readme_run):
    _, comment, done = result_of(readme_run, "games.rules text")
    said = re.findall(r'"([^"]+)"', comment)
    assert said == ["ann stand", "bob take-miss"]
    assert done.stdout.splitlines()[:len(said)] == said
    assert len(done.stdout.splitlines()) == 10  # one line an action


def test_readme_simulate_then_replay_gives_one_verdict_a_deal(readme_run):
    workdir, _ = readme_run
    lines = (workdir / "s.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["format"] == "loo-session/1"
    assert len(lines) == 1 + 20  # --deals 20
    _, _, done = result_of(readme_run, "replay /tmp/s.jsonl")
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    assert [v["number"] for v in verdicts] == list(range(1, 21))
    assert all(v["status"] == "valid" for v in verdicts)


def test_readme_python_example_runs_and_says_what_it_prints(readme_run):
    workdir, _ = readme_run
    code = block_with(doc("README.md"), "python", "from games.rules import")
    # deal.legal_plays("ann") -> ["AH"] and deal.play_violation("ann", "2C") -> "failed-..."
    assert run_python(code, workdir) == 2


# --- docs/engine-api.md: the public names --------------------------------------------------


def test_engine_api_import_block_names_every_public_name_and_imports():
    """The page's import block is the contract's list: every name ``games.rules`` exports, no
    other, and as written it imports (each comment's "now" version is the engine's)."""
    import games.rules

    code = block_with(doc("docs/engine-api.md"), "python", "from games.rules import (")
    statement = ast.parse(code).body[0]
    assert isinstance(statement, ast.ImportFrom)
    assert sorted(a.name for a in statement.names) == sorted(games.rules.__all__)
    namespace: dict = {}
    exec(compile(code, "<engine-api.md>", "exec"), namespace)  # noqa: S102 (the page's own import)
    assert f'now "{namespace["ENGINE_VERSION"]}"' in code


# --- docs/engine.md -----------------------------------------------------------------------

ENGINE_MD = doc("docs/engine.md")


def test_engine_quick_start_is_the_readme_deal_and_reads_stdin(tmp_path):
    quick = block_with(ENGINE_MD, "bash", "<<'JSON'")
    heredoc = [c for c, _ in commands(quick) if "<<'JSON'" in c]
    assert heredoc == [c for c, _ in commands(README_SHELL) if "<<'JSON'" in c]
    outputs = []
    for command, _ in commands(quick):
        done = run_shell(command, tmp_path)
        assert done.returncode == 0, (command, done.stderr)
        outputs.append(done.stdout)
    file_verdict, stdin_verdict = (json.loads(o) for o in outputs[1:])
    assert file_verdict == stdin_verdict
    assert file_verdict["settlement"]["deltas"] == {"ann": 9, "bob": -3, "cat": 0, "dan": -3}


def test_engine_session_example_prints_a_verdict_a_deal(tmp_path):
    done = run_shell(block_with(ENGINE_MD, "bash", "printf '%s\\n'"), tmp_path)
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    # deal 1: pool 3 + cat's ante 3 = 6, ann takes all three tricks (6), cat is looed (3)
    assert first["settlement"]["deltas"] == {"ann": 6, "bob": 0, "cat": -6}
    # deal 2, dealt by ann into the 3 carried: bob and cat pass, the dealer takes 3 + 3
    assert (second["number"], second["dealer"], second["ended"]) == (2, "ann", "dealer-takes")
    assert second["settlement"]["deltas"] == {"ann": 3, "bob": 0, "cat": 0}


def test_engine_notation_example_converts_both_ways(readme_run):
    workdir, _ = readme_run
    block = block_with(ENGINE_MD, "bash", "games.rules actions -")
    to_json, to_text = (run_shell(c, workdir) for c, _ in commands(block))
    assert to_json.returncode == 0 and to_text.returncode == 0
    assert json.loads(to_json.stdout)[1] == {"player": "bob", "action": "take-miss"}  # "bob miss"
    assert to_text.stdout.splitlines()[:2] == ["ann stand", "bob take-miss"]


def test_engine_python_example_runs_and_says_what_it_prints(readme_run):
    workdir, _ = readme_run
    code = block_with(ENGINE_MD, "python", "from games.rules import")
    assert run_python(code, workdir) == 2  # legal_plays -> ["AH"], play_violation -> "failed-..."


# --- docs/engine-tests.md and docs/benchmarks.md: examples that assert their own outcome ----

@pytest.mark.parametrize(("page", "needle"), [
    ("docs/engine-tests.md", "from tests.engine.dealkit import"),
    ("docs/benchmarks.md", "from games.rules.simulate import"),
])
def test_self_checking_python_examples_run(page, needle, tmp_path):
    run_python(block_with(doc(page), "python", needle), tmp_path)


# --- docs/engine.md's option table against games/rules/options.py ---------------------------

def option_rows() -> list[list[str]]:
    table = ENGINE_MD.split("\n| option | values")[1].split("\n\n")[0]
    rows = [line for line in table.splitlines()[2:] if line.startswith("|")]
    return [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows]


def ticked(text: str) -> list[str]:
    return re.findall(r"`([^`]*)`", text)


def test_option_table_names_every_option_once():
    named = [name for row in option_rows() for name in ticked(row[0])]
    assert sorted(named) == sorted(f.name for f in fields(RuleSet))


def test_option_table_lists_every_value_and_leads_with_the_default():
    defaults = RuleSet.from_options({}).to_options()  # three-card: the default game
    for names, values, what in option_rows():
        for name in ticked(names):
            if name in CHOICES:
                assert set(CHOICES[name]) <= set(ticked(values + what)), name
        name = ticked(names)[0]
        first = re.match(r"= `(\w+)`|`([^`]*)`|(\d+)", values)
        assert first, (name, values)
        if first.group(1):  # "= `loo_amount`": the same as that option
            assert defaults[name] == defaults[first.group(1)], name
            continue
        shown = first.group(2) if first.group(2) is not None else first.group(3)
        try:
            shown = json.loads(shown)
        except ValueError:
            pass
        assert shown == defaults[name], (name, shown, defaults[name])


def test_option_table_notes_each_game_whose_default_differs():
    notes = {"five-card": "five-card", "poker-loo": "poker"}
    for names, values, _ in option_rows():
        name = ticked(names)[0]
        for game, word in notes.items():
            if GAME_DEFAULTS[game][name] != GAME_DEFAULTS["three-card"][name] and name != "game":
                assert word in values, (name, game)


def test_presets_and_seat_limits_as_the_pages_list_them():
    for page in ("README.md", "docs/engine.md", "docs/engine-api.md"):
        text = " ".join(doc(page).split())
        listed = re.search(r"\(?`three-card`, `three-card-unlimited`.*?`mississippi`", text)
        assert listed, page
        assert ticked(listed.group(0)) == list(PRESETS), page
    limits = re.search(r"refuses a table the game cannot\s+seat \(([^)]*)\)", ENGINE_MD).group(1)
    said = dict(re.findall(r"([\w-]+) (\d+–\d+)", limits))
    names = {"three-card": "three-card", "irish": "Irish", "five-card": "five-card",
             "poker-loo": "poker-Loo"}
    assert set(names) == set(GAME_NAMES)
    for game, word in names.items():
        assert said[word] == "{}–{}".format(*SEAT_LIMITS[game]), game


def test_readme_version_is_the_engine_version():
    version = re.search(r"`engine\.version` \(now ([\d.]+)", doc("README.md")).group(1)
    assert replay(json.loads(re.search(r"<<'JSON'\n(.*?)\nJSON", README_SHELL, re.DOTALL).group(1))
                  )["engine"]["version"] == version


CONTRACT = ROOT.parent / "shared" / "spec" / "deal-record.md"


@pytest.mark.skipif(not CONTRACT.exists(), reason="needs ../shared/spec/deal-record.md")
def test_the_names_beyond_the_contract_are_those_the_pages_list():
    contract = CONTRACT.read_text(encoding="utf-8")
    beyond = sorted(kind for kind in IRREGULARITY_KINDS if kind not in contract)
    for page in ("docs/engine.md", "docs/engine-api.md"):
        text = " ".join(doc(page).split())
        sentence = re.search(r"Extra names beside deal-record\.md's: (.*?a single loo\))", text).group(1)
        assert sorted(n for n in ticked(sentence) if n in IRREGULARITY_KINDS) == beyond, page
