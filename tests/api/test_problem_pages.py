"""The pages behind problem ``type`` URIs: one per code, readable (`code` spans as <code>), an
index at /problems/, and every code in docs/api.md's table of refusals."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from loo_ledger.problems import PROBLEM_TYPES, ProblemType

API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"


@pytest.mark.parametrize("code", sorted(PROBLEM_TYPES))
def test_a_problem_page_shows_no_markdown_backticks(code):
    html = APIClient().get(f"/problems/{code}").content.decode()
    assert "`" not in html
    assert html.count("<code>") == html.count("</code>") >= 1 + PROBLEM_TYPES[code].description.count("`") // 2


def test_backticked_text_becomes_code_after_escaping(monkeypatch):
    made_up = ProblemType("made-up", 400, "Made <up>", "Send `<b>` & `x=1`, not <i>.")
    monkeypatch.setitem(PROBLEM_TYPES, "made-up", made_up)
    html = APIClient().get("/problems/made-up").content.decode()
    assert "<h1>Made &lt;up&gt;</h1>" in html
    assert "<p>Send <code>&lt;b&gt;</code> &amp; <code>x=1</code>, not &lt;i&gt;.</p>" in html


def test_the_index_lists_every_problem_type_with_its_status_and_title():
    response = APIClient().get("/problems/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    for code, problem in PROBLEM_TYPES.items():
        row = (f'<tr><td>{problem.status}</td><td><a href="/problems/{code}"><code>{code}</code>'
               f"</a></td><td>")
        assert row in html, code
    assert html.count("<tr><td>") == len(PROBLEM_TYPES)


def test_a_problem_page_links_to_the_index():
    assert '<a href="/problems/">' in APIClient().get("/problems/conflict").content.decode()


def test_every_problem_code_is_in_the_refusals_table_of_api_md():
    text = API_MD.read_text()
    table = text[text.index("## Refusals"):].split("\n\n## ", 1)[0]
    documented = {code for line in table.splitlines() if line.startswith("| ")
                  for code in re.findall(r"`([a-z-]+)`", line.split("|")[1])}
    assert set(PROBLEM_TYPES) - documented == set()
