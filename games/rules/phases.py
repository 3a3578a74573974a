"""The phases of a deal and the offences the engine knows by name."""
from __future__ import annotations

from collections.abc import Collection
from typing import TypeGuard

from .errors import shown

DECLARE, EXCHANGE, FLUSH, PLAY, OVER = "declare", "exchange", "flush", "play", "over"

#: the declarations a record's actions may hold (deal-record.md), and every action it knows
DECLARATIONS = ("stand", "pass", "take-miss", "defend")
ACTIONS = (*DECLARATIONS, "exchange", "flush", "play", "irregularity")
#: words the table says for a declaration, read as that declaration: poker-Loo's laws have the
#: players "stand or fold", so a scorer may write a fold (stored records hold it); it is a pass
DECLARATION_ALIASES = {"fold": "pass"}


def is_named(value: object, names: Collection[str]) -> TypeGuard[str]:
    """Whether a record's ``value`` is one of ``names`` (an action, an irregularity's kind, a
    seat): a record may hold any JSON value there, and a list or an object is no name, where
    looking it up among the names would raise TypeError (unhashable) instead of the record's
    error."""
    return type(value) is str and value in names


def unknown_action(kind: object) -> str:
    """What is said of an action the record format does not know: the actions it does."""
    known = f"{', '.join(ACTIONS[:-1])} and {ACTIONS[-1]}"
    return f"unknown action {shown(kind)}: a record's actions are {known}"
NOBODY: frozenset[int] = frozenset()

#: offences found in the plays (or recorded as corrected by the table)
PLAY_RULES = frozenset({
    "revoke", "failed-to-head", "failed-to-trump", "failed-to-overtrump",
    "failed-to-lead-trump", "failed-to-lead-trump-ace", "failed-to-lead-highest-trump",
    "played-out-of-turn", "pam-not-civil", "failed-to-play-trump-to-pam",
    "failed-to-play-trump-ace",
})
#: irregularities punished by a single loo paid into the pool at once (the player plays on)
SINGLE_LOO_KINDS = frozenset({"looked-out-of-turn", "declared-out-of-turn", "looked-at-miss",
                              "looked-at-discards", "looked-at-stock"})
#: irregularities punished like a revoke (a full loo into the next pool, winnings stay)
FULL_LOO_KINDS = PLAY_RULES | {"looked-at-hand", "exposed-card", "threw-up-after-lead"}
IRREGULARITY_KINDS = SINGLE_LOO_KINDS | FULL_LOO_KINDS | {"misdeal"}


def unknown_kind(kind: object) -> str:
    """What is said of an irregularity whose ``kind`` is left out (or null) or is no kind the
    engine knows: any other JSON value, a list or an object as much as a misspelt name, is
    named as given (as an unknown action is)."""
    if kind is None:
        return "the irregularity's kind is missing (what did the table see?)"
    return f"unknown irregularity kind {shown(kind)}"


#: offences done to a trick (a lead or a card following it), so only once the play has begun:
#: a card played out of turn or exposed may come before it (during the declarations)
IN_PLAY_KINDS = (PLAY_RULES - {"played-out-of-turn"}) | {"threw-up-after-lead"}
#: irregularities whose ``card`` is the offender's own, held when the table saw the offence (a
#: card played wrongly and taken back, exposed, thrown up); the others' card may be anyone's
#: (a misdeal's exposed card, a card seen in another hand, the miss, the stock, the discards)
OWN_CARD_KINDS = FULL_LOO_KINDS - {"looked-at-hand"}
