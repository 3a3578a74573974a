"""Run a command against the rules engine compiled with mypyc, the repository left pure Python.

usage (from the repository root; mypy, mypy_extensions and setuptools installed, a C compiler):
    .venv/bin/python bench/compiled_engine.py --build           # compile (again) and say what
    .venv/bin/python bench/compiled_engine.py -- .venv/bin/python bench/engine.py --deals 20000 \
        --poker-hands 0                                        # any command, the engine compiled
    .venv/bin/python bench/compiled_engine.py -- .venv/bin/python -m pytest tests/engine \
        -p no:cacheprovider -q -n 2

The build copies ``games/rules`` into ``var/mypyc/src/games/rules`` and compiles the modules in
``COMPILED`` there (the others stay interpreted beside them), so the repository's own package
stays the pure-Python one. The command runs with ``var/mypyc/src`` first on ``PYTHONPATH``; its
``sitecustomize`` imports the copy's ``games`` package at start-up, whose path goes on to the
repository's ``games`` for everything but ``rules`` (so the Django app, bench scripts putting the
repository first on ``sys.path`` and pytest-xdist workers all get the compiled engine). The copy
is rebuilt whenever a source file differs from the repository's. Print
``games.rules.deal.__file__`` to see which engine a process imported (a ``.so`` when compiled).
"""
from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "games" / "rules"
BUILD = ROOT / "var" / "mypyc"
SRC = BUILD / "src"
COPY = SRC / "games" / "rules"

#: the modules compiled: the replay's path (``errors`` stays interpreted: its exceptions derive
#: from ValueError; ``cli``, ``session``, ``simulate``, ``notation`` are off the replay's path)
COMPILED = ("cards", "phases", "state", "duties", "declaring", "exchanging", "flushes", "deal",
            "settlement", "verdict", "record", "jsontext", "errors")

_GAMES_INIT = f'''"""The build copy's ``games``: ``rules`` compiled here, the rest from the repository."""
__path__.append({str(ROOT / "games")!r})
'''
_SITECUSTOMIZE = '''"""Import the build copy's ``games`` first, before anything puts the repository on sys.path."""
import games  # noqa: F401
'''
_MYPY_INI = """[mypy]
follow_imports = silent
"""


def _stale() -> bool:
    """Whether the copy differs from the repository's sources (or was never compiled)."""
    if not (BUILD / "built").exists():
        return True
    ours = sorted(p.name for p in SOURCE.glob("*.py"))
    theirs = sorted(p.name for p in COPY.glob("*.py"))
    if ours != theirs:
        return True
    _, mismatch, errors = filecmp.cmpfiles(SOURCE, COPY, ours, shallow=False)
    return bool(mismatch or errors) or (BUILD / "built").read_text() != " ".join(COMPILED)


def build() -> None:
    """Copy the engine into the build tree and compile ``COMPILED`` there with mypyc."""
    if SRC.exists():
        shutil.rmtree(SRC)
    COPY.parent.mkdir(parents=True)
    shutil.copytree(SOURCE, COPY, ignore=shutil.ignore_patterns("__pycache__"))
    (SRC / "games" / "__init__.py").write_text(_GAMES_INIT)
    (SRC / "sitecustomize.py").write_text(_SITECUSTOMIZE)
    (SRC / "mypy.ini").write_text(_MYPY_INI)
    (BUILD / "built").unlink(missing_ok=True)
    modules = [f"games/rules/{m}.py" for m in COMPILED]
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mypyc", "--config-file", "mypy.ini", *modules],
                          cwd=SRC, capture_output=True, text=True, check=False)
    took = time.perf_counter() - started
    if done.returncode:
        sys.stderr.write(done.stdout[-6000:] + done.stderr[-6000:])
        sys.exit(f"mypyc failed ({took:.0f} s)")
    (BUILD / "built").write_text(" ".join(COMPILED))
    shared = sorted(SRC.glob("*.so")) + sorted(COPY.glob("*.so"))
    size = sum(p.stat().st_size for p in shared)
    print(f"compiled {len(COMPILED)} modules in {took:.0f} s: {len(shared)} .so files, "
          f"{size / 1e6:.1f} MB", file=sys.stderr)
    for p in shared:
        print(f"  {p.relative_to(SRC)}  {p.stat().st_size / 1e3:.0f} kB", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", action="store_true", help="compile even if up to date")
    parser.add_argument("command", nargs="*", help="the command to run (after --)")
    args = parser.parse_args(argv)
    if args.build or _stale():
        build()
    if not args.command:
        return 0
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return subprocess.run(args.command, cwd=ROOT, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
