"""From a finished ``Deal`` to the verdict of deal-record.md: who won what, who is looed.

Play offenders are looed once (the penalty replaces the ordinary loo unless
``penalty_and_loo: both``) and their trick winnings stay in the pool; a defending dealer's
shares stay too. Every verdict is checked for conservation in ``Books.settlement``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import NAME, SUITS
from .flushes import best_flushes
from .settlement import trick_shares
from .version import ENGINE_VERSION

if TYPE_CHECKING:
    from .deal import Deal

_SAME_DEALER = {"misdeal", "redeal", "thrown-in"}


def build_verdict(deal: Deal) -> dict[str, Any]:
    r = deal.rules
    seats = deal.seats
    books = deal.books
    pool = books.pool
    full = r.full_loo(pool)
    offenders = set(deal._offenders)
    for s in deal._offenders:
        books.add(books.loos, seats[s], full)
    how = deal._ended
    standers = deal._standers

    def take(s: int, units: int) -> None:
        if s not in offenders and s != deal._defender:
            books.add(books.payouts, seats[s], units)

    def loo(s: int) -> None:
        if s in offenders:
            if r.penalty_and_loo == "both":
                books.add(books.loos, seats[s], full)
        else:
            books.add(books.loos, seats[s], full)

    if how == "played":
        if r.game == "poker-loo":
            _settle_poker(deal, pool, full, take, loo)
        else:
            _settle_tricks(deal, pool, take, loo)
    elif how == "dealer-takes":
        take(deal._d, pool)
    elif how in ("conceded", "lone-stander"):
        take(next(s for s in standers if s != deal._d or len(standers) == 1), pool)
    elif how == "flush":
        _settle_flush(deal, pool, full, take, loo)
    elif how == "redeal":
        take(deal._flushes[0][0], pool)
    settlement = books.settlement(pool)

    nxt = deal._d if how in _SAME_DEALER else (deal._d + 1) % len(seats)
    if r.game == "poker-loo" and how == "nobody-stands":
        nxt = deal._d
    if r.game == "poker-loo":
        first = deal.first_of_series if how == "thrown-in" else settlement["pool_after"] == 0
    else:
        first = False
    following: dict[str, Any] = {"dealer": seats[nxt], "pool": settlement["pool_after"],
                                 "first_of_series": first}
    verdict: dict[str, Any] = {
        "status": ("unverified" if deal._unverified
                   else "irregular" if deal.violations else "valid"),
        "pool_kind": deal.pool_kind,
        "trumps": None if deal._trump is None else SUITS[deal._trump],
        "dealer": deal.dealer,
        "standers": [seats[s] for s in standers],
        "tricks": _tricks(deal._tricks, seats),
        "tricks_won": {seats[s]: deal._won[s] for s in standers},
        "violations": deal.violations,
        "settlement": settlement,
        "ended": how,
        "next": following,
        "engine": {"version": ENGINE_VERSION, "rules": r.to_options()},
    }
    if how == "thrown-in":
        verdict["redeal"] = {"sits_out": list(deal._sits_out_next)}
    if deal._defender >= 0:
        verdict["defender"] = seats[deal._defender]
    if deal._flushes:
        verdict["flushes"] = [{"player": seats[s], "cards": [NAME[c] for c in hand]}
                              for s, hand, _ in deal._flushes]
    return verdict


def _settle_tricks(deal: Deal, pool: int, take: Any, loo: Any) -> None:
    r = deal.rules
    winners = [t[3] for t in deal._tricks]
    n = deal._hand_size
    if len(winners) == n and len(set(winners)) == 1:
        take(winners[0], pool)
    elif not r.undivided:
        shares = trick_shares(r, pool, n)
        for i, w in enumerate(winners):
            take(w, shares[i])
    for s in deal._standers:
        if s != deal._defender and deal._won[s] == 0 and not _pam_immune(deal, s):
            loo(s)


def _pam_immune(deal: Deal, s: int) -> bool:
    """``pam_immune``: a stander holding Pam cannot be looed (their hand must be known)."""
    if not deal.rules.pam_immune or deal._pam < 0:
        return False
    hand = deal._hands[s]
    if hand is not None and deal._pam in hand:
        return True
    return any(p == s and c == deal._pam for t in deal._tricks for p, c in t[2])


def _settle_poker(deal: Deal, pool: int, full: int, take: Any, loo: Any) -> None:
    """Poker-Loo: three tricks take the pot; 0-1 trick burns; the first deal's two-trick share."""
    won = deal._won
    standers = deal._standers
    three = [s for s in standers if won[s] >= 3]
    if three:
        take(three[0], pool)
        two_standers = not deal.first_of_series and len(standers) == 2
        burned = [s for s in standers if won[s] <= 1 or (two_standers and s != three[0])]
    else:
        twos = [s for s in standers if won[s] == 2]
        if deal.first_of_series and twos:
            share = pool // len(twos)
            for s in twos:
                take(s, share)
        burned = [s for s in standers if won[s] <= 1]
    for s in burned:
        loo(s)


def _settle_flush(deal: Deal, pool: int, full: int, take: Any, loo: Any) -> None:
    r = deal.rules
    rank = {s: i for i, s in enumerate(deal._order)}
    shown = sorted(deal._flushes, key=lambda f: rank[f[0]])
    winners = best_flushes(r, shown)
    for w in winners:
        take(w, pool // len(winners))
    holders = {f[0] for f in shown}
    if r.flush_pays == "everyone-pays-holder" and r.game == "five-card":
        books = deal.books
        for s in deal._order:  # Peel: every other player, a beaten flush too
            if s in winners or s in deal._out_of_deal:
                continue
            for w in winners:
                books.add(books.transfers, deal.seats[s], -full)
                books.add(books.transfers, deal.seats[w], full)
        return
    for s in deal._standers:
        if s not in holders and s != deal._defender and not _pam_immune(deal, s):
            loo(s)


def _tricks(tricks: list, seats: list[str]) -> list[dict[str, Any]]:
    """The verdict's tricks, in play order (none for a result-only record)."""
    out = []
    for no, lead, cards, win in tricks:
        if cards:
            out.append({"number": no, "leader": seats[lead],
                        "cards": {seats[p]: NAME[c] for p, c in cards}, "winner": seats[win]})
    return out
