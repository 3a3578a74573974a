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

#: ``(player, units)`` a way of ending pays, before the offenders' and the defender's exception
Takes = list[tuple[int, int]]


def build_verdict(deal: Deal) -> dict[str, Any]:
    """Settle a finished deal's books and describe it; shares no dict with another verdict."""
    r = deal.rules
    seats = deal.seats
    books = deal.books
    pool = books.pool
    full = r.full_loo(pool)
    offenders = deal._offenders
    defender = deal._defender
    loos = books.loos
    for s in offenders:
        books.add(loos, seats[s], full)
    how = deal._ended
    standers = deal._standers

    # every way of ending names who takes what and who is looed; the offenders' and the
    # defender's exceptions are applied once, below
    takes: Takes = []
    looed: list[int] = []
    if how == "played":
        if r.game == "poker-loo":
            _settle_poker(deal, pool, takes, looed)
        else:
            _settle_tricks(deal, pool, takes, looed)
    elif how == "dealer-takes":
        takes.append((deal._d, pool))
    elif how in ("conceded", "lone-stander"):
        takes.append((next(s for s in standers if s != deal._d or len(standers) == 1), pool))
    elif how == "flush":
        _settle_flush(deal, pool, full, takes, looed)
    elif how == "redeal":
        takes.append((deal._flushes[0][0], pool))
    for s, units in takes:
        if s not in offenders and s != defender:
            books.add(books.payouts, seats[s], units)
    both = r.penalty_and_loo == "both"
    for s in looed:
        if both or s not in offenders:
            books.add(loos, seats[s], full)
    settlement = books.settlement(pool)

    nxt = deal._d if how in _SAME_DEALER else (deal._d + 1) % len(seats)
    if r.game == "poker-loo":
        if how == "nobody-stands":
            nxt = deal._d
        first = deal.first_of_series if how == "thrown-in" else settlement["pool_after"] == 0
    else:
        first = False
    won = deal._won
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
        "next": {"dealer": seats[nxt], "pool": settlement["pool_after"], "first_of_series": first},
        "engine": {"version": ENGINE_VERSION, "rules": r.to_options()},
    }
    if how == "thrown-in":
        verdict["redeal"] = {"sits_out": list(deal._sits_out_next)}
    if defender >= 0:
        verdict["defender"] = seats[defender]
    if deal._flushes:
        verdict["flushes"] = [{"player": seats[s], "cards": [NAME[c] for c in hand]}
                              for s, hand, _ in deal._flushes]
    return verdict


def _settle_tricks(deal: Deal, pool: int, takes: Takes, looed: list[int]) -> None:
    """Trick games: all tricks take the pool, else each trick its share; no trick is looed."""
    r = deal.rules
    winners = [t[3] for t in deal._tricks]
    n = deal._hand_size
    if len(winners) == n and winners.count(winners[0]) == n:
        takes.append((winners[0], pool))
    elif not r.undivided:
        takes.extend(zip(winners, trick_shares(r, pool, n)))
    won, defender = deal._won, deal._defender
    looed += [s for s in deal._standers if not won[s] and s != defender]
    if r.pam_immune:
        _spare_pam_holders(deal, looed)


def _spare_pam_holders(deal: Deal, looed: list[int]) -> None:
    """Under ``pam_immune``, a stander holding Pam cannot be looed (their hand must be known)."""
    pam = deal._pam
    if pam < 0 or not looed:
        return
    hands, tricks = deal._hands, deal._tricks
    looed[:] = [s for s in looed
                if not (hands[s] is not None and pam in hands[s]
                        or any(p == s and c == pam for t in tricks for p, c in t[2]))]


def _settle_poker(deal: Deal, pool: int, takes: Takes, looed: list[int]) -> None:
    """Poker-Loo: three tricks take the pot; 0-1 trick burns; the first deal's two-trick share."""
    won = deal._won
    standers = deal._standers
    three = [s for s in standers if won[s] >= 3]
    if three:
        takes.append((three[0], pool))
        two_standers = not deal.first_of_series and len(standers) == 2
        looed += [s for s in standers if won[s] <= 1 or (two_standers and s != three[0])]
    else:
        twos = [s for s in standers if won[s] == 2]
        if deal.first_of_series and twos:
            share = pool // len(twos)
            takes += [(s, share) for s in twos]
        looed += [s for s in standers if won[s] <= 1]


def _settle_flush(deal: Deal, pool: int, full: int, takes: Takes, looed: list[int]) -> None:
    r = deal.rules
    rank = {s: i for i, s in enumerate(deal._order)}
    shown = sorted(deal._flushes, key=lambda f: rank[f[0]])
    winners = best_flushes(r, shown)
    takes += [(w, pool // len(winners)) for w in winners]
    if r.flush_pays == "everyone-pays-holder" and r.game == "five-card":
        books = deal.books
        for s in deal._order:  # Peel: every other player, a beaten flush too
            if s in winners or s in deal._out_of_deal:
                continue
            for w in winners:
                books.add(books.transfers, deal.seats[s], -full)
                books.add(books.transfers, deal.seats[w], full)
        return
    holders = {f[0] for f in shown}
    looed += [s for s in deal._standers if s not in holders and s != deal._defender]
    if r.pam_immune:
        _spare_pam_holders(deal, looed)


def _tricks(tricks: list, seats: list[str]) -> list[dict[str, Any]]:
    """The verdict's tricks, in play order (none for a result-only record)."""
    return [{"number": no, "leader": seats[lead],
             "cards": {seats[p]: NAME[c] for p, c in cards}, "winner": seats[win]}
            for no, lead, cards, win in tricks if cards]
