"""Mississippi (loo-rules.md section 2): the 17th-century French cousin is three-card Loo under
another name -- preset "mississippi" must resolve to exactly the three-card rules."""
from tests.engine.dealkit import assert_settled, play, record
from tests.engine.test_three_card_double import BASE, MISS, SEATS

# The standard double pool of test_three_card_double: winners ann, ann, bob; cat looed.

def base(rules: dict) -> dict:
    return record(SEATS, "dan", turnup="7D", pool=6, miss=MISS, actions=BASE,
                  rules=rules)


def resolved(options: dict) -> dict:
    from games.rules import RuleSet

    opts = RuleSet.from_options(options).to_options()
    opts.pop("preset", None)
    return opts


def test_mississippi_preset_is_three_card_loo():
    from games.rules import PRESETS

    assert "mississippi" in PRESETS
    assert resolved({"preset": "mississippi"}) == resolved({"preset": "three-card"})
    assert resolved({"preset": "mississippi"})["game"] == "three-card"


def test_mississippi_deal_settles_like_three_card():
    miss = play(base({"preset": "mississippi"}))
    three = play(base({"game": "three-card"}))
    strip = lambda v: {k: x for k, x in v.items() if k != "engine"}
    assert strip(miss) == strip(three)
    # P = 9: ann 6, bob 3, cat looed 3 (the miss and the same loo as three-card)
    assert_settled(miss, payouts={"ann": 6, "bob": 3}, loos={"cat": 3}, pool_after=3,
                   deltas={"ann": 6, "bob": 3, "cat": -3, "dan": -3})


def test_mississippi_preset_is_overridable():
    v = play(base({"preset": "mississippi", "loo": "unlimited"}))
    # unlimited: cat matches P = 9
    assert_settled(v, payouts={"ann": 6, "bob": 3}, loos={"cat": 9}, pool_after=9,
                   deltas={"ann": 6, "bob": 3, "cat": -9, "dan": -3})
