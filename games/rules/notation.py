"""The compact text notation for the table: one action per line, round-tripping with JSON.

    ann stand              {"player": "ann", "action": "stand"}   (pass, take-miss, defend, fold)
    bob miss               {"player": "bob", "action": "take-miss"}   (read only; written take-miss)
    ann AD                 {"player": "ann", "action": "play", "card": "AD"}
    dan AS civil           ... "play", "card": "AS", "say": "pam-be-civil"
    bob exchange 2C 3D     {"player": "bob", "action": "exchange", "discard": ["2C", "3D"]}
    bob exchange 2C > 9H   ... "discard": ["2C"], "draw": ["9H"]   (">" alone: draw [])
    cat flush              {"player": "cat", "action": "flush"}   ("cat flush 2H 5H ..." adds cards)
    cat ! looked-at-miss   {"player": "cat", "action": "irregularity", "kind": "looked-at-miss"}
    cat ! exposed-card 8C  ... "kind": "exposed-card", "card": "8C"
    cat ! misdeal "two cards face up"   ... "kind": "misdeal", "evidence": "two cards face up"

``actions_from_text(actions_to_text(actions)) == actions`` for every action in canonical form
(cards written ``TH``); lines may also be separated by ``;``. A seat whose name holds a space
or a ``#`` is written in double quotes (``"mary ann" stand``); a name holding ``"``, ``;`` or
a line break has no compact form, and neither has an irregularity's ``evidence`` holding one.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .cards import format_card
from .errors import RecordError, record_error, shown
from .phases import DECLARATION_ALIASES, DECLARATIONS, unknown_action, unknown_kind

#: the declaration words a line may hold, as written (a fold stays a fold)
_DECLARATION_WORDS = (*DECLARATIONS, *DECLARATION_ALIASES)


def _seat_text(player: Any) -> str:
    """A seat as the notation writes it: bare, or in double quotes if it holds a space or #."""
    if isinstance(player, str) and re.fullmatch(r'[^\s";#]+', player):
        return player
    if isinstance(player, str) and re.fullmatch(r'[^\s";]([^";\r\n]*[^\s";])?', player):
        return f'"{player}"'
    raise ValueError(f"no compact form for the seat {shown(player)}")


def action_to_text(action: Mapping[str, Any]) -> str:
    """One record action as a line of the compact notation (RecordError, its ``field`` named,
    for an action whose words are no text: a list where a card should be)."""
    _check_words(action)
    player, kind = _seat_text(action["player"]), action["action"]
    if kind in _DECLARATION_WORDS and len(action) == 2:
        return f"{player} {kind}"
    if kind == "play" and set(action) <= {"player", "action", "card", "say"}:
        say = action.get("say")
        if say in (None, "pam-be-civil"):
            return f"{player} {action['card']}" + (" civil" if say else "")
    if kind == "exchange" and set(action) <= {"player", "action", "discard", "draw"}:
        words = [player, "exchange", *action.get("discard", [])]
        if "draw" in action:
            words += [">", *action["draw"]]
        return " ".join(words)
    if kind == "flush" and set(action) <= {"player", "action", "cards"}:
        return " ".join([player, "flush", *action.get("cards", [])])
    if kind == "irregularity" and set(action) <= {"player", "action", "kind", "card", "evidence"}:
        words = [player, "!", action["kind"]] + ([action["card"]] if "card" in action else [])
        if "evidence" in action:
            words.append(_evidence_text(action["evidence"]))
        return " ".join(words)
    raise ValueError(f"no compact form for {shown(dict(action))}")


def _evidence_text(evidence: Any) -> str:
    """An irregularity's evidence as the notation writes it: in double quotes, last."""
    if isinstance(evidence, str) and re.fullmatch(r'[^";\r\n]*', evidence):
        return f'"{evidence}"'
    raise ValueError(f"no compact form for the evidence {shown(evidence)}")


#: an irregularity line's evidence: the quoted text ending it
_EVIDENCE = re.compile(r'(.*?\s!\s[^"]*?)\s*"([^"]*)"')


def _check_words(action: Any) -> None:
    """Refuse, in the record's words, an action the notation cannot spell: joined as words, a
    list where a card should be said "sequence item 3: expected str instance, list found"."""
    if not isinstance(action, Mapping):
        raise RecordError([record_error(f"an action is an object, not {shown(action)}",
                                        field="actions")])
    for field in ("player", "action"):
        if field not in action:
            raise RecordError([record_error(f"{field}: missing", field=field)])
    if not isinstance(action["action"], str):
        raise RecordError([record_error(unknown_action(action["action"]), field="action")])
    if "kind" in action and not isinstance(action["kind"], str):
        raise RecordError([record_error(f"kind: {unknown_kind(action['kind'])}", field="kind")])
    for field in ("card", "discard", "draw", "cards"):
        if field not in action:
            continue
        value = action[field]
        cards = [value] if field == "card" else value
        if field != "card" and not isinstance(value, list):
            raise RecordError([record_error(f"{field}: must be a list of cards, not "
                                            f"{shown(value)}", player=action["player"],
                                            field=field)])
        for card in cards:
            if not isinstance(card, str):
                raise RecordError([record_error(f"{field}: {shown(card)} is not a card",
                                                player=action["player"], field=field)])


def actions_to_text(actions: Iterable[Mapping[str, Any]]) -> str:
    """A record's actions as compact text, one per line; an action it cannot spell is a
    RecordError naming its index."""
    lines = []
    for index, action in enumerate(actions):
        try:
            lines.append(action_to_text(action) + "\n")
        except RecordError as err:
            raise RecordError([dict(e, index=index) for e in err.errors]) from None
        except ValueError as err:  # no compact form (a seat or evidence holding a quote)
            raise RecordError([record_error(str(err), index=index, field="actions")]) from None
    return "".join(lines)


def _card(word: str, line: int) -> str:
    try:
        return format_card(word)
    except ValueError:
        raise RecordError([record_error(f"line {line}: {shown(word)} is not a card", card=shown(word, bare=True),
                                        field="actions")]) from None


def action_from_text(text: str, line: int = 1) -> dict[str, Any]:
    """One compact line back into a record action (RecordError if it is not one)."""
    stripped = text.strip()
    evidence = None
    if found := _EVIDENCE.fullmatch(stripped):
        stripped, evidence = found.group(1), found.group(2)
    if stripped.startswith('"'):  # a quoted seat: "mary ann" stand
        end = stripped.find('"', 1)
        player, words = (stripped[1:end], stripped[end + 1:].split()) if end > 1 else ("", [])
        words = [player, *words] if player and words else []
    else:
        words = stripped.split()
    if len(words) < 2:
        raise RecordError([record_error(f"line {line}: cannot read {shown(stripped)}",
                                        field="actions")])
    player, verb, rest = words[0], words[1], words[2:]
    if verb == "miss":
        verb = "take-miss"
    if verb in _DECLARATION_WORDS and not rest:
        return {"player": player, "action": verb}
    if verb == "exchange":
        discard, arrow, draw = " ".join(rest).partition(">")
        out: dict[str, Any] = {"player": player, "action": "exchange",
                               "discard": [_card(w, line) for w in discard.split()]}
        if arrow:
            out["draw"] = [_card(w, line) for w in draw.split()]
        return out
    if verb == "flush":
        out = {"player": player, "action": "flush"}
        if rest:
            out["cards"] = [_card(w, line) for w in rest]
        return out
    if verb == "!" and 1 <= len(rest) <= 2:
        out = {"player": player, "action": "irregularity", "kind": rest[0]}
        if len(rest) == 2:
            out["card"] = _card(rest[1], line)
        if evidence is not None:
            out["evidence"] = evidence
        return out
    if rest in ([], ["civil"]) and re.fullmatch(r"\S{2,3}", verb):
        out = {"player": player, "action": "play", "card": _card(verb, line)}
        if rest:
            out["say"] = "pam-be-civil"
        return out
    if not rest and re.fullmatch(r"[a-z][a-z-]{3,}", verb):  # a word, too long for a card
        raise RecordError([record_error(f"line {line}: {unknown_action(verb)}", player=player,
                                        field="actions")])
    raise RecordError([record_error(f"line {line}: cannot read {shown(text.strip())}",
                                    player=player, field="actions")])


def actions_from_text(text: str) -> list[dict[str, Any]]:
    """Compact text (lines or ``;``-separated) into record actions; every bad line reported."""
    actions, errors = [], []
    for number, line in enumerate(re.split(r"[;\n]", text), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            actions.append(action_from_text(line, number))
        except RecordError as err:
            errors.extend(err.errors)
    if errors:
        raise RecordError(errors)
    return actions
