"""The service's one door to the rules engine (``games.rules``).

Engine errors become 400 problems here, so every caller (views, bulk import, closing) gets the
same answer shape: ``RecordError`` -> ``record-error`` with every error (action index, player,
card), ``RuleError`` -> ``rule-error`` naming each option.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from loo_ledger.problems import Problem


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


def rule_problem(exc: Exception) -> Problem:
    errors = [{"field": "rules", "message": str(e)} for e in getattr(exc, "errors", [])]
    return Problem(400, detail=str(exc), errors=errors or [{"field": "rules", "message": str(exc)}],
                   code="rule-error")


def record_problem(exc: Exception, *, deal: int | None = None) -> Problem:
    """A RecordError as a 400 problem; ``deal`` prefixes messages when a later deal broke."""
    errors: list[dict[str, Any]] = []
    for e in getattr(exc, "errors", None) or [{"message": str(exc)}]:
        item = dict(e) if isinstance(e, Mapping) else {"message": str(e)}
        if deal is not None:
            item["deal"] = deal
        errors.append(item)
    first = errors[0].get("message", str(exc))
    detail = first if len(errors) == 1 else f"{len(errors)} errors in the record."
    return Problem(400, detail=detail, errors=errors, code="record-error")


def engine_replay(
    record: Mapping[str, Any], rules: Mapping[str, Any], *, pool: int, first_of_series: bool
) -> dict[str, Any]:
    """The verdict of one deal (raises the engine's ``RecordError`` unchanged)."""
    from games.rules import replay

    return replay(dict(record), dict(rules), pool=pool, first_of_series=first_of_series)


def engine_version() -> str:
    from games.rules import ENGINE_VERSION

    return str(ENGINE_VERSION)
