"""The service's one door to the rules engine (``games.rules``).

Engine errors become 400 problems here, so every caller (views, bulk import, closing) gets the
same answer shape: ``RecordError`` -> ``record-error`` with every error (action index, player,
card), ``RuleError`` -> ``rule-error`` naming each option. The two shapes are
``loo_ledger.problems``' (``record_problem``, ``rule_problem``), which also answers an engine
error that escapes anywhere else under the API.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from loo_ledger.problems import Problem, record_problem, rule_problem

__all__ = ["engine_replay", "engine_version", "record_problem", "rule_problem", "rules_check_seats",
           "rules_resolve"]


def rules_resolve(options: Mapping[str, Any]) -> dict[str, Any]:
    """``RuleSet.from_options(options).to_options()``, or a 400 naming the bad option."""
    from games.rules import RuleError, RuleSet

    if not isinstance(options, Mapping):
        raise Problem(400, detail="rules must be an object such as {\"preset\": \"three-card\"}.",
                      errors=[{"field": "rules", "message": "Expected an object."}], code="rule-error")
    try:
        return RuleSet.from_options(dict(options)).to_options()
    except RuleError as exc:
        raise rule_problem(exc) from exc


def rules_check_seats(resolved: Mapping[str, Any], seats: list[str]) -> None:
    """The rules' own seat check (e.g. 4-7 players at five-card Loo), as a 400."""
    from games.rules import RuleError, RuleSet

    rules = RuleSet.from_options(dict(resolved))
    check = getattr(rules, "check_seats", None)
    if check is None:
        return
    try:
        check(list(seats))
    except RuleError as exc:
        raise rule_problem(exc) from exc


def engine_replay(
    record: Mapping[str, Any], rules: Mapping[str, Any], *, pool: int, first_of_series: bool
) -> dict[str, Any]:
    """The verdict of one deal (raises the engine's ``RecordError`` unchanged)."""
    from games.rules import replay

    return replay(dict(record), dict(rules), pool=pool, first_of_series=first_of_series)


def engine_version() -> str:
    from games.rules import ENGINE_VERSION

    return str(ENGINE_VERSION)
