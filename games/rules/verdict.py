"""From a finished ``Deal`` to the verdict of deal-record.md: who won what, who is looed.

Play offenders are looed once (the penalty replaces the ordinary loo unless
``penalty_and_loo: both``) and their trick winnings stay in the pool; a defending dealer's
shares stay too. Every verdict is checked for conservation in ``Books.settlement``.

This runs once per replayed deal, so it is written for speed as well as clarity: each way of
ending names who takes what and who is looed, and the books are filled in one pass each.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .cards import NAME, SUITS
from .flushes import best_flushes
from .settlement import trick_shares
from .version import ENGINE_VERSION

if TYPE_CHECKING:
    from .deal import Deal

#: the endings after which the same dealer deals the hand again (the deal did not count)
DEALT_AGAIN = frozenset({"misdeal", "redeal", "thrown-in"})
#: the endings that leave the deal void: nothing is paid out of the pool (a penalty apart) and
#: the hand is dealt again as it was, for the same pool. A ``three-trumps-redeal`` flush is not
#: one of them: its flusher takes the pool, and only the cards are dealt again (for a new round,
#: "сдаются на новый раунд", 001:39)
VOID_ENDINGS = frozenset({"misdeal", "thrown-in"})


def played_to_a_result(verdict: Mapping[str, Any]) -> bool:
    """The deal was played to a result (won, divided, carried, flushed), not void: the final
    deal so played plays the pool off, and the older rule's "deal without a loo" is such a
    deal (``games.services.closing.closing_warnings``)."""
    return verdict.get("ended") not in VOID_ENDINGS


def marked_final(record: Mapping[str, Any]) -> bool:
    """A record of the play-off deal of `end_pool: "final-deal"` (`"final": true`), played or
    void: a misdealt final deal is dealt again as the final deal, so it is no turn of a round
    at the deal either (``games.settlement.turns_dealt`` asks it)."""
    return record.get("final") is True


def is_final_deal(record: Mapping[str, Any], verdict: Mapping[str, Any]) -> bool:
    """The play-off deal of `end_pool: "final-deal"`, played: a record marked `"final": true`
    (replayed with everybody standing, no miss and no ante) that did not end void. A misdealt
    final deal (or one thrown in for a poker-Loo revoke) is dealt again by the same dealer, for
    the same pool, and that one is the final deal. One that a ``three-trumps-redeal`` flush
    ends is played: the flusher took the pool it was to play off, so nothing is left to deal
    again for, and no deal comes after it. The session replay and the service both ask it."""
    return marked_final(record) and played_to_a_result(verdict)

#: who a way of ending pays, and beside each how much: before the offenders' and the defender's
#: exception (two lists, not a list of pairs: no tuple to make per trick)
Takes = tuple[list[int], list[int]]


def build_verdict(deal: Deal) -> dict[str, Any]:
    """Settle a finished deal's books and describe it; shares no dict with another verdict."""
    books = deal.books
    pool = books.pool
    full = deal.rules.full_loo(pool)
    takes, looed = _ending(deal, pool, full)
    _enter(deal, takes, looed, full)
    return _describe(deal, books.settlement(pool))


def _ending(deal: Deal, pool: int, full: int) -> tuple[Takes, list[int]]:
    """Who takes what and who is looed, by the way the deal ended (exceptions come later)."""
    how = deal._ended
    if how == "played":
        if deal.rules.game == "poker-loo":
            return _settle_poker(deal, pool)
        return _settle_tricks(deal, pool)
    if how == "flush":
        return _settle_flush(deal, pool, full)
    if how == "dealer-takes":
        return ([deal._d], [pool]), []
    if how in ("conceded", "lone-stander"):
        standers = deal._standers
        return ([next(s for s in standers if s != deal._d or len(standers) == 1)], [pool]), []
    if how == "redeal":
        return ([deal._flushes[0][0]], [pool]), []
    return ([], []), []


def _enter(deal: Deal, takes: Takes, looed: list[int], full: int) -> None:
    """Into the books: offenders are looed once, first; their takes and the defender's stay in
    the pool; under ``penalty_and_loo: replace`` an offender is not looed again."""
    seats, books = deal.seats, deal.books
    offenders, defender = deal._offenders, deal._defender
    payouts = books.payouts
    for s, units in zip(*takes):
        if units and s not in offenders and s != defender:
            seat = seats[s]
            payouts[seat] = payouts.get(seat, 0) + units
    if not full:
        return
    if offenders:
        if deal.rules.penalty_and_loo != "both":
            looed = [s for s in looed if s not in offenders]
        looed = offenders + looed
    loos = books.loos
    for s in looed:
        seat = seats[s]
        loos[seat] = loos.get(seat, 0) + full


def _describe(deal: Deal, settlement: dict[str, Any]) -> dict[str, Any]:
    """The verdict dict: every list and dict in it is new, or the deal's own."""
    seats, standers, won, how = deal.seats, deal._standers, deal._won, deal._ended
    verdict: dict[str, Any] = {
        "status": ("unverified" if deal._unverified
                   else "irregular" if deal.violations else "valid"),
        "pool_kind": deal.pool_kind,
        "trumps": None if deal._trump is None else SUITS[deal._trump],
        "dealer": deal.dealer,
        "standers": [seats[s] for s in standers],
        "tricks": _tricks(deal._tricks, seats),
        "tricks_won": {seats[s]: won[s] for s in standers},
        "violations": deal.violations,
        "settlement": settlement,
        "ended": how,
        "next": _next(deal, settlement["pool_after"]),
        "engine": {"version": ENGINE_VERSION, "rules": deal.rules.to_options()},
    }
    if how == "thrown-in":
        verdict["redeal"] = {"sits_out": list(deal._sits_out_next)}
    elif how == "misdeal" and deal._redeal:  # a misdealt redeal is still that redeal
        verdict["redeal"] = {"sits_out": [seats[s] for s in sorted(deal._out_of_deal)]}
    if deal._defender >= 0:
        verdict["defender"] = seats[deal._defender]
    if deal._flushes:
        verdict["flushes"] = [{"player": seats[s], "cards": [NAME[c] for c in hand]}
                              for s, hand, _ in deal._flushes]
    return verdict


def _next(deal: Deal, pool_after: int) -> dict[str, Any]:
    """Who deals next, for what pool, and (poker-Loo) whether that deal starts a series.

    A poker-Loo series ends when one player stands alone ("One stands: that player takes the
    pot and the series ends", loo-rules.md s.5), even if a folder's burn for looking at another
    hand refills the pot, and when a deal leaves the pot empty (nothing is left to play for)."""
    how = deal._ended
    nxt = deal._d if how in DEALT_AGAIN else (deal._d + 1) % len(deal.seats)
    first = False
    if how == "misdeal":  # the void deal is dealt again as what it was
        first = deal.first_of_series
    elif deal.rules.game == "poker-loo":
        if how == "nobody-stands":
            nxt = deal._d
        first = (deal.first_of_series if how == "thrown-in"
                 else how == "lone-stander" or pool_after == 0)
    return {"dealer": deal.seats[nxt], "pool": pool_after, "first_of_series": first}


def _settle_tricks(deal: Deal, pool: int) -> tuple[Takes, list[int]]:
    """Trick games: all tricks take the pool, else each trick its share; no trick is looed."""
    r = deal.rules
    winners = [t[3] for t in deal._tricks]
    n = deal._hand_size
    takes: Takes
    if len(winners) == n and winners.count(winners[0]) == n:
        takes = [winners[0]], [pool]
    elif r.undivided:
        takes = [], []
    else:
        takes = winners, trick_shares(r, pool, n)
    won, defender = deal._won, deal._defender
    looed = [s for s in deal._standers if not won[s] and s != defender]
    if r.pam_immune:
        _spare_pam_holders(deal, looed)
    return takes, looed


def _spare_pam_holders(deal: Deal, looed: list[int]) -> None:
    """Under ``pam_immune``, a stander holding Pam cannot be looed: his hand must be known, or
    the record show Pam going into it (drawn, or turned up for the dealer, and not discarded)."""
    pam = deal._pam
    if pam < 0 or not looed:
        return
    hands, tricks, held = deal._hands, deal._tricks, deal._known_held
    looed[:] = [s for s in looed
                if not ((hand := hands[s]) is not None and pam in hand or pam in held.get(s, ())
                        or any(p == s and c == pam for t in tricks for p, c in t[2]))]


def _settle_poker(deal: Deal, pool: int) -> tuple[Takes, list[int]]:
    """Poker-Loo: three tricks take the pot; 0-1 trick burns; the first deal's two-trick share."""
    won = deal._won
    standers = deal._standers
    three = [s for s in standers if won[s] >= 3]
    if three:
        two_standers = not deal.first_of_series and len(standers) == 2
        looed = [s for s in standers if won[s] <= 1 or (two_standers and s != three[0])]
        return ([three[0]], [pool]), looed
    twos = [s for s in standers if won[s] == 2] if deal.first_of_series else []
    shares = [pool // len(twos)] * len(twos) if twos else []
    return (twos, shares), [s for s in standers if won[s] <= 1]


def _settle_flush(deal: Deal, pool: int, full: int) -> tuple[Takes, list[int]]:
    """The best flush shown takes the pool (split on a tie); standers without one are looed,
    or under Peel's ``everyone-pays-holder`` every other player pays each winner a loo."""
    r = deal.rules
    rank = {s: i for i, s in enumerate(deal._order)}
    shown = sorted(deal._flushes, key=lambda f: rank[f[0]])
    winners = best_flushes(r, shown)
    takes = winners, [pool // len(winners)] * len(winners)
    if r.flush_pays == "everyone-pays-holder" and r.game == "five-card":
        books = deal.books
        for s in deal._order:  # Peel: every other player, a beaten flush too
            if s in winners or s in deal._out_of_deal:
                continue
            for w in winners:
                books.add(books.transfers, deal.seats[s], -full)
                books.add(books.transfers, deal.seats[w], full)
        return takes, []
    holders = {f[0] for f in shown}
    looed = [s for s in deal._standers if s not in holders and s != deal._defender]
    if r.pam_immune:
        _spare_pam_holders(deal, looed)
    return takes, looed


def _tricks(tricks: list, seats: list[str]) -> list[dict[str, Any]]:
    """The verdict's tricks, in play order (none for a result-only record)."""
    return [{"number": no, "leader": seats[lead],
             "cards": {seats[p]: NAME[c] for p, c in cards}, "winner": seats[win]}
            for no, lead, cards, win in tricks if cards]
