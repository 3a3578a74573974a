"""Settlement in money: results, the banker's view, the fewest transfers, the end-pool split."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.settlement import (
    SettlementError,
    banker_settlement,
    eldest_after,
    format_money,
    minimal_transfers,
    minor_units,
    money_results,
    split_pool,
    turns_dealt,
    zero_sum_groups,
)

SEATS8 = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]


def brute_force_fewest(balances: list[int]) -> int:
    """Fewest payments by exhaustive search (a different method from the partition DP):
    some optimal settlement always has every payment clear its payer or its payee, so try
    every such payment from the first unsettled player onward."""
    debts = [b for b in balances if b]
    if not debts:
        return 0
    best = len(debts) - 1

    def search(start: int, values: list[int], made: int) -> None:
        nonlocal best
        while start < len(values) and values[start] == 0:
            start += 1
        if start == len(values):
            best = min(best, made)
            return
        if made + 1 >= best:
            return
        for j in range(start + 1, len(values)):
            if values[j] * values[start] < 0:
                values[j] += values[start]
                search(start + 1, values, made + 1)
                values[j] -= values[start]

    search(0, debts, 0)
    return best


def apply(transfers, balances):
    left = dict(balances)
    for t in transfers:
        assert t.amount > 0
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return left


# --- hand-worked ---------------------------------------------------------------------------


def test_money_results_hand_worked():
    # 20 chips each at 10p; ann ends with 31, bob 9, cat 20, dan 20 -> +1.10, -1.10, 0, 0.
    bought = {"ann": 20, "bob": 20, "cat": 20, "dan": 20}
    returned = {"ann": 31, "bob": 9, "cat": 20, "dan": 20}
    assert money_results(["ann", "bob", "cat", "dan"], bought, returned, 10) == {
        "ann": 110, "bob": -110, "cat": 0, "dan": 0}


def test_money_results_refuses_unconserved_chips():
    with pytest.raises(SettlementError, match="sold 40 chips but 39 came back"):
        money_results(["ann", "bob"], {"ann": 20, "bob": 20}, {"ann": 30, "bob": 9}, 10)


def test_money_results_refuses_float_and_strangers():
    with pytest.raises(SettlementError):
        money_results(["ann"], {"ann": 1}, {"ann": 1}, 0.1)  # type: ignore[arg-type]
    with pytest.raises(SettlementError, match="not seated: zed"):
        money_results(["ann"], {"ann": 1, "zed": 1}, {"ann": 2}, 10)


def test_minor_units_and_format():
    assert minor_units(Decimal("0.10"), "GBP") == 10
    assert minor_units("2", "JPY") == 2
    assert minor_units(25) == 25
    with pytest.raises(SettlementError):
        minor_units(0.1)  # type: ignore[arg-type]
    with pytest.raises(SettlementError):
        minor_units(Decimal("0.105"), "EUR")
    assert format_money(-150, "GBP") == "-1.50"
    assert format_money(5, "EUR") == "0.05"
    assert format_money(-7, "JPY") == "-7"


@pytest.mark.parametrize(("currency", "units", "shown"), [
    # ISO 4217's currencies without a minor unit: 1,500 francs, shillings, guaranis... were
    # shown as "15.00" (a hundredth of what was played for)
    *((c, 1500, "1500") for c in ("BIF", "DJF", "GNF", "KMF", "PYG", "RWF", "UGX", "UYI", "VUV",
                                  "XAF", "XOF", "XPF")),
    # a thousandth: 1,500 fils of the Iraqi or Libyan dinar are 1.500, not 15.00
    ("IQD", 1500, "1.500"), ("LYD", -1500, "-1.500"),
    # a ten-thousandth (Chile's and Uruguay's units of account)
    ("CLF", 12345, "1.2345"), ("UYW", 5, "0.0005"),
    ("GBP", 1500, "15.00"), ("JPY", 1500, "1500"), ("BHD", 1500, "1.500"),
])
def test_money_is_shown_in_the_currencys_own_minor_unit(currency, units, shown):
    assert format_money(units, currency) == shown
    assert minor_units(shown, currency) == units


def test_transfers_hand_worked_two_groups():
    # ann -5, dan -1 lose; bob +3, cat +2, eve +1 win. {dan, eve} settles alone, so 3 payments.
    seats = ["ann", "bob", "cat", "dan", "eve"]
    b = {"ann": -500, "bob": 300, "cat": 200, "dan": -100, "eve": 100}
    ts = minimal_transfers(seats, b, "GBP")
    assert [(t.payer, t.payee, t.amount) for t in ts] == [
        ("ann", "bob", 300), ("ann", "cat", 200), ("dan", "eve", 100)]
    assert ts[0].explanation == "ann owes 5.00, bob is owed 3.00; settles bob; ann still owes 2.00"
    assert ts[1].explanation == "ann owes 2.00 of a 5.00 loss, cat is owed 2.00; settles ann and cat"


def test_transfers_tie_broken_by_seat_order():
    # ann -1, bob -1, cat +1, dan +1: {ann,cat}{bob,dan} and {ann,dan}{bob,cat} both take 2;
    # seat order picks ann's group with the earlier partner, cat.
    ts = minimal_transfers(["ann", "bob", "cat", "dan"], {"ann": -1, "bob": -1, "cat": 1, "dan": 1})
    assert [(t.payer, t.payee, t.amount) for t in ts] == [("ann", "cat", 1), ("bob", "dan", 1)]


def test_transfers_beat_greedy():
    # Largest-debtor-pays-largest-creditor greedy takes 5 payments here (ann->bob 7, fay->eve 6,
    # ann->dan 2, cat->dan 2, fay->dan 1); seeing that {bob, fay} settle apart takes 4.
    seats = ["ann", "bob", "cat", "dan", "eve", "fay"]
    b = {"ann": -9, "bob": 7, "cat": -2, "dan": 5, "eve": 6, "fay": -7}
    assert zero_sum_groups(seats, b) == [["ann", "cat", "dan", "eve"], ["bob", "fay"]]
    ts = minimal_transfers(seats, b)
    assert [(t.payer, t.payee, t.amount) for t in ts] == [
        ("ann", "dan", 5), ("ann", "eve", 4), ("cat", "eve", 2), ("fay", "bob", 7)]


def test_transfers_all_square():
    assert minimal_transfers(["ann", "bob"], {"ann": 0, "bob": 0}) == []


def test_transfers_refuse_unbalanced():
    with pytest.raises(SettlementError, match="sum to 1"):
        minimal_transfers(["ann", "bob"], {"ann": 1, "bob": 0})


def test_banker_settlement_hand_worked():
    # Club banker, 10p chips. ann bought 20 paid, 20 more owed, returns 50; bob bought 20 owed, returns 10.
    lines = banker_settlement(
        ["ann", "bob"], "club",
        bought_money={"ann": 400, "bob": 200}, paid_money={"ann": 200, "bob": 0},
        buyback_money={"ann": 500, "bob": 100}, currency="GBP",
    )
    ann, bob = lines
    assert (ann.owed, ann.result, ann.banker_pays) == (200, 100, 300)
    assert (bob.owed, bob.result, bob.banker_pays) == (200, -100, -100)
    assert "bob pays the banker 1.00" in bob.explanation
    assert "the banker pays ann 3.00" in ann.explanation


def test_banker_settlement_player_banker_and_refusals():
    lines = banker_settlement(["ann", "bob"], "bob", bought_money={"ann": 100, "bob": 100},
                              paid_money={"ann": 100, "bob": 100},
                              buyback_money={"ann": 50, "bob": 150})
    assert lines[1].is_banker and "keeps the difference" in lines[1].explanation
    # paid 100 more than the chips cost (a payment toward a loss on credit that a correction
    # then undid): the banker hands it back with the buy-back
    [ann] = banker_settlement(["ann"], "club", bought_money={"ann": 100},
                              paid_money={"ann": 200}, buyback_money={"ann": 100})
    assert (ann.owed, ann.banker_pays) == (-100, 200)
    assert "(2.00 paid: 1.00 more than the chips cost)" in ann.explanation
    assert "the banker pays ann 2.00" in ann.explanation
    with pytest.raises(SettlementError, match="sum to"):
        banker_settlement(["ann"], "club", bought_money={"ann": 100}, paid_money={},
                          buyback_money={"ann": 90})


def test_split_pool_odd_units_from_eldest():
    seats = ["ann", "bob", "cat", "dan"]
    assert eldest_after(seats, "ann") == "bob"
    assert eldest_after(seats, "dan") == "ann"
    assert split_pool(11, seats, "bob") == {"ann": 2, "bob": 3, "cat": 3, "dan": 3}
    assert split_pool(5, seats, "dan") == {"ann": 1, "bob": 1, "cat": 1, "dan": 2}
    assert split_pool(0, seats, "ann") == {"ann": 0, "bob": 0, "cat": 0, "dan": 0}
    with pytest.raises(ValueError):
        split_pool(3, seats, "zed")


def _dealt(dealer: str, nxt: str | None, **record) -> tuple[dict, dict]:
    """A deal as turns_dealt reads it: (record, verdict) with who dealt it and who deals next."""
    verdict = {"dealer": dealer} if nxt is None else {"dealer": dealer, "next": {"dealer": nxt}}
    return record, verdict


def test_a_deal_dealt_again_by_the_same_dealer_is_one_turn():
    # ann deals; bob misdeals and deals again; cat's poker-Loo deal is all folded, then dealt
    # again: each had one turn at the deal
    seats = ["ann", "bob", "cat"]
    deals = [_dealt("ann", "bob"), _dealt("bob", "bob"), _dealt("bob", "cat"), _dealt("cat", "cat"),
             _dealt("cat", "ann")]
    assert turns_dealt(seats, deals) == {"ann": 1, "bob": 1, "cat": 1}
    # a verdict that does not say who deals next passes the deal on: a turn
    assert turns_dealt(seats, [_dealt("ann", None)]) == {"ann": 1, "bob": 0, "cat": 0}


@pytest.mark.parametrize(("deals", "turns"), [
    # the session closed on bob's misdeal, never dealt again: the deal had come to him, a turn
    ([_dealt("ann", "bob"), _dealt("bob", "bob")], {"ann": 1, "bob": 1, "cat": 0}),
    # ... and on cat's all-folded poker-Loo deal the same way
    ([_dealt("ann", "bob"), _dealt("bob", "cat"), _dealt("cat", "cat")], {"ann": 1, "bob": 1, "cat": 1}),
    # a misdeal after which the deal passed on (a verdict whose next dealer is another: bob's
    # void deal was his turn, cat's deal is hers)
    ([_dealt("ann", "bob"), _dealt("bob", "cat"), _dealt("cat", "ann")], {"ann": 1, "bob": 1, "cat": 1}),
    # a verdict saying bob deals again, but the next deal is cat's: two turns, not one
    ([_dealt("bob", "bob"), _dealt("cat", "ann")], {"ann": 0, "bob": 1, "cat": 1}),
    # end_pool final-deal: a round, then ann's final deal: it plays the pool off, no turn
    ([_dealt("ann", "bob"), _dealt("bob", "cat"), _dealt("cat", "ann"), _dealt("ann", "bob", final=True)],
     {"ann": 1, "bob": 1, "cat": 1}),
    # ann misdeals the final deal and deals it again: still no turn
    ([_dealt("ann", "bob"), _dealt("bob", "cat"), _dealt("cat", "ann"), _dealt("ann", "ann", final=True),
      _dealt("ann", "bob", final=True)], {"ann": 1, "bob": 1, "cat": 1}),
    # ... or the session is closed on that misdeal (an import's close its file reopens later):
    # it was the final deal's, no turn of a round
    ([_dealt("ann", "bob"), _dealt("bob", "cat"), _dealt("cat", "ann"), _dealt("ann", "ann", final=True)],
     {"ann": 1, "bob": 1, "cat": 1}),
    # ann misdeals a deal marked final and the table then plays on with an ordinary deal: her
    # turn ended as a deal of the round, so it counts
    ([_dealt("ann", "bob"), _dealt("bob", "cat"), _dealt("cat", "ann"), _dealt("ann", "ann", final=True),
      _dealt("ann", "bob")], {"ann": 2, "bob": 1, "cat": 1}),
    # ann misdeals an ordinary deal and deals the final deal in its place: the final deal's turn
    ([_dealt("ann", "bob"), _dealt("bob", "cat"), _dealt("cat", "ann"), _dealt("ann", "ann"),
      _dealt("ann", "bob", final=True)], {"ann": 1, "bob": 1, "cat": 1}),
    # the final deal dealt before the round was complete: cat never had her turn
    ([_dealt("ann", "bob"), _dealt("bob", "cat"), _dealt("cat", "ann", final=True)],
     {"ann": 1, "bob": 1, "cat": 0}),
    # a final: false record is an ordinary deal
    ([_dealt("ann", "bob", final=False)], {"ann": 1, "bob": 0, "cat": 0}),
], ids=["closed-on-a-misdeal", "closed-on-a-poker-all-fold", "misdeal-passing-on",
        "next-dealer-not-the-next-deals", "final-deal", "final-deal-misdealt-and-dealt-again",
        "closed-on-a-misdealt-final-deal", "misdealt-final-then-played-on",
        "misdeal-then-the-final-deal", "final-deal-before-the-round-ends", "final-false"])
def test_turns_at_the_deal_however_the_turn_ended(deals, turns):
    assert turns_dealt(["ann", "bob", "cat"], deals) == turns


# --- properties ----------------------------------------------------------------------------


@st.composite
def zero_sum_balances(draw, max_players: int = 8):
    n = draw(st.integers(2, max_players))
    values = draw(st.lists(st.integers(-30, 30), min_size=n - 1, max_size=n - 1))
    values.append(-sum(values))
    return dict(zip(SEATS8[:n], values))


@given(zero_sum_balances())
def test_every_balance_settled_in_at_most_n_minus_1(balances):
    seats = list(balances)
    ts = minimal_transfers(seats, balances)
    assert all(v == 0 for v in apply(ts, balances).values())
    with_balance = sum(1 for v in balances.values() if v)
    assert len(ts) <= max(with_balance - 1, 0)
    assert all(t.payer != t.payee for t in ts)


@given(zero_sum_balances(max_players=7))
def test_transfers_optimal_against_brute_force(balances):
    seats = list(balances)
    assert len(minimal_transfers(seats, balances)) == brute_force_fewest(list(balances.values()))


@given(zero_sum_balances(), st.integers(1, 500))
def test_results_sum_to_zero(balances, chip_value):
    seats = list(balances)
    bought = {s: 40 for s in seats}
    returned = {s: 40 + balances[s] for s in seats}
    results = money_results(seats, bought, returned, chip_value)
    assert sum(results.values()) == 0
    assert all(results[s] == balances[s] * chip_value for s in seats)


@given(st.integers(0, 1000), st.integers(2, 8), st.integers(0, 7))
def test_split_pool_shares(pool, n, eldest_index):
    seats = SEATS8[:n]
    shares = split_pool(pool, seats, seats[eldest_index % n])
    assert sum(shares.values()) == pool
    assert max(shares.values()) - min(shares.values()) <= 1
