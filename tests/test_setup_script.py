"""``scripts/setup.sh`` in a bare copy of the repository (no network: PIP_NO_INDEX)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_venv_left_without_pip_is_made_again(tmp_path):
    # `python3 -m venv` fails half-way where Debian's python3-venv is missing, leaving a .venv
    # whose python runs but has no pip: every later set-up, the package installed, stopped at
    # "No module named pip" until someone thought to remove .venv
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    (tmp_path / "pyproject.toml").write_text("not a project")  # the install fails at once
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / ".venv")],
                   check=True)
    done = subprocess.run(["bash", "scripts/setup.sh"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=False,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home()),
                               "PIP_NO_INDEX": "1", "PYTHON": sys.executable})
    assert "==> creating .venv with" in done.stdout, done.stdout + done.stderr
    assert "No module named pip" not in done.stderr
    assert (tmp_path / ".venv" / "bin" / "pip").exists()
