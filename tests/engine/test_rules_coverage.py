"""docs/rules-coverage.md maps every statement of loo-rules.md to the tests that pin it; this
keeps the table honest: every row names at least one test, and every test named exists (a
`def test_name` in that file), so a renamed or deleted test cannot leave a statement unpinned
without this failing. A statement still waiting for its test is listed in KNOWN_GAPS."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "rules-coverage.md"
PREFIXES = {"E/": "tests/engine/", "R/": "tests/reports/", "A/": "tests/api/"}
ROW = re.compile(r"^\| (s\d+\.\d+) \|")
NODE = re.compile(r"\b([ERA]/[\w/]+\.py)::(test_\w+)")
# statements no test pins yet: each must be a row of the table, and each stays visible here
KNOWN_GAPS: set[str] = set()


def rows() -> dict[str, list[tuple[str, str]]]:
    """Statement id -> the (file, test name) pairs its row names."""
    found: dict[str, list[tuple[str, str]]] = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if ROW.match(line):
            ident, _statement, tests, _note = (cell.strip() for cell in line.split("|")[1:5])
            assert line.count("|") == 5, f"{ident}: a row has four cells"
            assert ident not in found, f"{ident} is listed twice"
            found[ident] = [(PREFIXES[f[:2]] + f[2:], name) for f, name in NODE.findall(tests)]
    return found


def defined_tests(path: str) -> set[str]:
    source = (ROOT / path).read_text(encoding="utf-8")
    return set(re.findall(r"^(?:async )?def (test_\w+)\(", source, flags=re.MULTILINE))


def test_the_table_maps_every_section_of_the_rules():
    # the numbering runs without holes from s<n>.1 in each of sections 0 (vocabulary) to 7
    ids = rows()
    for section in range(8):
        numbers = sorted(int(i.split(".")[1]) for i in ids if i.startswith(f"s{section}."))
        assert numbers and numbers == list(range(1, len(numbers) + 1)), (section, numbers)


@pytest.mark.parametrize("ident", sorted(rows()))
def test_every_statement_names_a_test_that_exists(ident):
    tests = rows()[ident]
    if ident in KNOWN_GAPS:
        assert not tests, f"{ident} has a test now: take it out of KNOWN_GAPS"
        pytest.xfail(f"{ident}: a known gap, no test pins it yet")
    assert tests, f"{ident} names no test (write one, or list it in KNOWN_GAPS)"
    for path, name in tests:
        assert (ROOT / path).is_file(), f"{ident}: no file {path}"
        assert name in defined_tests(path), f"{ident}: {path} defines no {name}"


def test_known_gaps_are_rows_of_the_table():
    assert KNOWN_GAPS <= set(rows())
