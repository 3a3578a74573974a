"""Settlement of a Loo session in money: pure Python, no Django.

Everything here works in integers of the smallest currency unit ("minor units", e.g. pence)
and integer chips. Never float.

- `money_results`: each player's result = (chips returned - chips bought) x chip value.
- `banker_settlement`: who pays whom when everything goes through the banker; `left_to_pay`:
  what a player still owes the banker once the buy-back is netted against the debt for chips.
- `minimal_transfers`: the fewest direct payments between players that settle every balance
  (exact: search over zero-sum subset partitions), ties broken by seat order.
- `split_pool`: the `end_pool: "split"` share-out of what is left in the pool; `turns_dealt`:
  each player's turns at the deal (a deal dealt again by the same dealer is one turn).
"""
from games.settlement.banker import BankerLine, banker_settlement, left_to_pay
from games.settlement.end_pool import eldest_after, split_pool, turns_dealt
from games.settlement.money import SettlementError, format_money, minor_units, money_results
from games.settlement.transfers import Transfer, minimal_transfers, zero_sum_groups

__all__ = [
    "BankerLine",
    "SettlementError",
    "Transfer",
    "banker_settlement",
    "eldest_after",
    "format_money",
    "left_to_pay",
    "minimal_transfers",
    "minor_units",
    "money_results",
    "split_pool",
    "turns_dealt",
    "zero_sum_groups",
]
