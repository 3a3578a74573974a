"""Replaying a deal record: infer hands from the plays, push every action, give the verdict.

Every stander plays every card they hold, so a stander's hand is what they play (plus what
they discarded, minus what they drew); given hands are checked against the plays. A record
that cannot describe a real deal raises one ``RecordError`` listing every error found.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any, cast

from .cards import CODE, NAME, card_code
from .deal import DECLARE, OVER, Deal
from .errors import (
    RecordError,
    RuleError,
    not_a_card,
    not_a_seat,
    numbered_cards,
    record_error,
    seats_shown,
    shown,
)
from .options import GAME_NAMES, PLACE_NAMES, RuleSet, rules_from
from .phases import ACTIONS, DECLARATION_ALIASES, is_named, unknown_action
from .version import RECORD_FORMAT

_MAX_ERRORS = 50
_SEATED: set[tuple] = set()  # tables already checked by RuleSet.check_seats
_MISS_ACTIONS = ("take-miss", "defend")
_PAST_DECLARING = ("play", "exchange")
#: the record's true-or-false fields: "yes" or 1 must not quietly mean true
_FLAGS = ("final", "redeal")
_MISS, _TURNUP = PLACE_NAMES  # where a card lies, for the owner check (no seat's name)
_WHOLE_RECORD = frozenset({"turnup", "hands", "miss", "stock", "seats", "dealer", "pool"})


def replay(record: Mapping[str, Any], rules: RuleSet | Mapping[str, Any] | None = None, *,
           pool: int | None = None, first_of_series: bool | None = None) -> dict:
    """The verdict of one deal record (deal-record.md); RecordError with every error found."""
    try:
        return _replay(record, rules, pool=pool, first_of_series=first_of_series)
    except RecordError as err:
        seats = record.get("seats") if isinstance(record, Mapping) else None
        errors = seats_shown(err.errors, _listed(seats))
        if errors is err.errors:  # (no seat name long enough to cut)
            raise
        raise RecordError(errors) from None


def _listed(seats: Any) -> list:
    return seats if type(seats) is list else []


def _replay(record: Mapping[str, Any], rules: RuleSet | Mapping[str, Any] | None, *,
            pool: int | None, first_of_series: bool | None) -> dict:
    if type(record) is not dict and not isinstance(record, Mapping):
        raise RecordError("record: a deal record is a JSON object")
    r = rules_from(rules if rules is not None else record.get("rules"))
    errors: list[dict] = []
    seats = record.get("seats")
    if not isinstance(seats, list) or not seats:
        raise RecordError([record_error("seats: a list of players is required", field="seats")])
    try:
        table: tuple | None = (r.game, tuple(seats))
        known_table = table in _SEATED
    except TypeError:
        table, known_table = None, False
    if not known_table:
        try:
            r.check_seats(seats)
        except (RuleError, TypeError) as err:
            messages = err.errors if isinstance(err, RuleError) else [f"seats: {err}"]
            raise RecordError([record_error(e, field="seats") for e in messages]) from None
        if table is not None and len(_SEATED) < 1024:
            _SEATED.add(table)
    fmt = record.get("format")
    if fmt is not None and fmt != RECORD_FORMAT:
        errors.append(record_error(f"format: {shown(fmt)} is not a record format this engine reads "
                                   f"({RECORD_FORMAT})", field="format"))
    for flag in _FLAGS:
        value = record.get(flag)
        if value is not None and type(value) is not bool:  # (null: not said, so false)
            errors.append(record_error(f"{flag}: {shown(value)} is not true or false", field=flag))
    _numbered_cards(record, errors)
    dealer: Any = record.get("dealer")
    if dealer is None:
        errors.append(record_error("dealer: the record names no dealer", field="dealer"))
    elif dealer not in seats:
        errors.append(record_error(f"dealer: {shown(dealer)} is not a seat", field="dealer"))
    in_record = record.get("pool")
    if in_record is not None and (not isinstance(in_record, int) or isinstance(in_record, bool)
                                  or in_record < 0):
        errors.append(record_error(f"pool: {shown(in_record)} is not a number of units",
                                   field="pool"))
    elif pool is not None and in_record is not None and in_record != pool:
        errors.append(record_error(f"pool: record says {in_record}, ledger has {pool}",
                                   field="pool"))
    if pool is None:
        pool = in_record if isinstance(in_record, int) else 0
    number = record.get("number", 1)
    if type(number) is not int or number < 1:  # "1" must not quietly mean "not the first deal"
        errors.append(record_error(f"number: {shown(number)} is not a deal number (1, 2, ...)",
                                   field="number"))
    # a wrong pool or number the caller's ledger overrides leaves the deal as it is
    overridden = {f for f, given in (("pool", pool), ("number", first_of_series))
                  if given is not None}
    if first_of_series is None:
        first_of_series = number == 1
    sits_out = record.get("sits_out") or []
    if not isinstance(sits_out, list) or (sits_out and any(p not in seats for p in sits_out)):
        errors.append(record_error("sits_out: must list seated players", field="sits_out"))
    errors += _redeal_errors(r, record.get("redeal"), sits_out)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        errors.append(record_error("actions: must be a list", field="actions"))
        actions = []
    if any(e["field"] not in overridden for e in errors):
        # the deal cannot be set up as the record has it: the actions are judged on their own
        raise RecordError(_in_order(errors + _read_alone(r, seats, dealer, actions)))
    head, errors = errors, []  # (the record's own errors, kept apart from the actions')
    result = record.get("result")
    bad: set[int] = set()
    def dealt(rec: Mapping[str, Any]) -> tuple[Deal, list[Any]]:
        """The hands read from the actions and ``rec``'s cards, and the deal set up with them
        (the ops for the actions beside it); RecordError where the deal refuses them."""
        hands, miss, inferred, ops, stock = _infer_hands(rec, r, seats, dealer, actions, errors,
                                                        bad, result is None)
        def made() -> Deal:
            return Deal(r, seats, dealer, pool=pool, hands=hands, miss=miss,
                        turnup=rec.get("turnup"), stock=stock,
                        first_of_series=first_of_series, redeal=bool(rec.get("redeal")),
                        sits_out=sits_out, inferred=inferred, final=bool(rec.get("final")),
                        inferred_miss=rec.get("miss") is None)

        try:
            return made(), ops
        except RecordError:
            # a card read back into two hands: refuse the later action that uses it, by index
            if not _untangle(actions, hands, inferred, errors, bad):
                raise
            return made(), ops

    try:
        deal, ops = dealt(record)
    except RecordError as err:
        # a given hand, miss or stock the deal refuses: read the actions again without it (the
        # hand or miss read back from the plays, the draws as recorded); else stop here
        left_out = _leave_out(record, err.errors, actions)
        if left_out is None:
            alone = [e for e in _read_alone(r, seats, dealer, actions) if e not in errors]
            raise RecordError(_in_order(head + errors + err.errors + alone)) from None
        head += err.errors
        errors.clear()
        bad.clear()
        try:
            deal, ops = dealt({**record, **left_out})
        except RecordError as still:
            raise RecordError(_in_order(head + errors + still.errors)) from None
    # the actions, with the cards _infer_hands has already read handed straight to the deal
    seat_of: dict[Any, int] = deal._idx  # (looked up by the record's player, any value)
    for i, action in enumerate(actions):
        if i in bad:
            if not _carry_on(deal, action, ops[i]):
                break
            continue
        if result is not None and isinstance(action, Mapping) and action.get("action") == "play":
            errors.append(record_error("a result-only record has no plays", index=i,
                                       player=action.get("player"), field="actions"))
            continue
        # after an error, declarations the record goes past are made up as it plays
        if errors and deal.phase == DECLARE and type(action) is dict \
                and action.get("action") in _PAST_DECLARING \
                and not _carry_on(deal, {"action": "declarations"}):
            break
        op = ops[i]
        try:
            if op is None:
                deal.push(action)
            elif type(op) is int:
                s = seat_of.get(action["player"])
                if s is None:
                    deal.push(action)
                else:
                    deal._push_card(s, op, action)
            elif deal.phase == "exchange":
                deal._push_exchange(action, op)
            else:
                deal.push(action)
        except RecordError as err:
            for e in err.errors:
                e["index"] = i
                if e["player"] is None and isinstance(action, Mapping):
                    e["player"] = action.get("player")
            errors.extend(err.errors)
            if len(errors) >= _MAX_ERRORS \
                    or any(e["field"] in _WHOLE_RECORD for e in err.errors) \
                    or not _carry_on(deal, action):
                break  # (a record field the deal needs, e.g. the turn-up: nothing more to judge)
    errors.extend(deal.deferred_errors)
    if result is not None and not errors:
        _apply_result(deal, result, errors)
    if not errors:
        try:
            deal.finish()
        except RecordError as err:
            errors.extend(err.errors)
    if errors or head:
        raise RecordError(_in_order(head + errors))
    return deal.verdict()


def _read_alone(r: RuleSet, seats: list, dealer: Any, actions: list) -> list[dict]:
    """The errors the actions show on their own, where the record gives no deal to push them
    through (no dealer, say): an action that is no object or of no kind the format knows, a
    player who is no seat, a card that is no card, the same card played twice. Whose turn it
    was, and what the rules allowed, need the deal."""
    errors: list[dict] = []
    bad: set[int] = set()
    _read_actions({}, r, dealer, actions, errors, bad)
    for i, a in enumerate(actions):
        if i in bad or type(a) is not dict and not isinstance(a, Mapping):
            continue
        player, kind = a.get("player"), a.get("action")
        if not is_named(kind, ACTIONS) and not is_named(kind, DECLARATION_ALIASES):
            errors.append(record_error(unknown_action(kind), index=i, field="action",
                                       player=player if type(player) is str else None))
        elif type(player) is not str or player not in seats:
            errors.append(not_a_seat(player, index=i))
    return errors


def _leave_out(record: Mapping[str, Any], errors: list[dict], actions: list
               ) -> dict[str, Any] | None:
    """What of the record to leave out so that the deal can be set up despite ``errors``
    (``Deal``'s refusals of the record's own cards): a given hand that is wrong (read back
    from the plays instead), a wrong miss (likewise), a wrong stock where every exchange
    lists its draw. None where an error leaves no sensible deal: a wrong turn-up (trumps and
    the dealer's exchange hang on it), a card dealt twice (which of the two is wrong?)."""
    given = record.get("hands")
    out: dict[str, Any] = {}
    for e in errors:
        field, player = e["field"] or "", e["player"]
        if field == "miss":
            out["miss"] = None
        elif field == "stock" and all(type(a.get("draw")) is list for a in actions
                                      if type(a) is dict and a.get("action") == "exchange"):
            out["stock"] = None
        elif (field == "hands" or field.startswith("hands.")) and isinstance(given, Mapping) \
                and type(player) is str and player in given:
            kept = out.get("hands", given)
            out["hands"] = {p: cards for p, cards in kept.items() if p != player}
        else:
            return None
    return out


def _in_order(errors: list[dict]) -> list[dict]:
    """Errors in record order, those of the record as a whole first; an error repeated word
    for word at later actions (say, every play after the deal is over) is given once, naming
    the other actions."""
    errors.sort(key=lambda e: -1 if e["index"] is None else e["index"])
    first: dict[str, dict] = {}
    again: dict[str, list[int]] = {}
    out = []
    for e in errors:
        seen = first.get(e["message"])
        if seen is None or e["index"] is None or seen["index"] is None:
            first.setdefault(e["message"], e)
            out.append(e)
        else:
            again.setdefault(e["message"], []).append(e["index"])
    for message, indices in again.items():
        e = first[message]
        e["message"] = f"{message} (the same at action{'s' if len(indices) > 1 else ''} " \
                       f"{', '.join(map(str, indices))})"
    return out


def _carry_on(deal: Deal, action: Any, op: Any = None) -> bool:
    """A refused play, exchange, take-miss or defend (or, kind "declarations", declarations
    the record goes past): let the deal go on as the record has it, so that what follows is
    judged in its place and only errors of its own are reported. False when the deal cannot go
    on (the rest of the record is then not judged: it would only repeat the error)."""
    if not isinstance(action, Mapping) or deal.phase == OVER:
        return True
    player = action.get("player")
    s = deal._idx.get(player) if type(player) is str else None
    kind = action.get("action")
    try:
        if kind == "declarations":
            deal._declarations_as_played()
        elif kind in _MISS_ACTIONS and s is not None:
            deal._miss_as_recorded(s)
        elif kind == "play":
            deal._play_as_recorded(s, _card(action.get("card")))
        elif kind == "exchange" and s is not None and type(op) is tuple:
            deal._exchange_as_recorded(s, *op)  # (as read: the draw the stock agrees with)
        elif kind == "exchange" and s is not None:
            listed = action.get("draw")
            draw = [c for c in _cards(listed) if c is not None] if type(listed) is list else None
            discard = _cards(action.get("discard") or [])
            deal._exchange_as_recorded(s, [c for c in discard if c is not None], draw)
    except Exception:  # noqa: BLE001 - a guess that does not fit must not turn a 400 into a 500
        return False  # and what follows could only be judged against a deal that is stuck
    return True


def _redeal_errors(r: RuleSet, redeal: Any, sits_out: Any) -> list[dict]:
    """A redeal is poker-Loo's hand dealt again for an offence, sat out by the offender: a
    ``redeal`` in another game, or players sitting out a deal that is no redeal, describe no
    real deal (and would put poker-Loo's ``redeal`` into another game's verdict)."""
    if redeal is True and r.game != "poker-loo":
        return [record_error(f"redeal: only poker-Loo deals a hand again for an offence, "
                             f"not {GAME_NAMES[r.game]}", field="redeal")]
    if redeal is not True and isinstance(sits_out, list) and sits_out:
        return [record_error("sits_out: only a poker-Loo redeal (\"redeal\": true) is sat out",
                             field="sits_out")]
    if redeal is True and isinstance(sits_out, list) and not sits_out:
        # (with nobody out, the redeal's missing antes would be the only thing it changed)
        return [record_error("sits_out: a redeal is sat out by the player whose offence threw "
                             "the hand in: name him", field="sits_out")]
    return []


def _numbered_cards(record: Mapping[str, Any], errors: list[dict]) -> None:
    """A number among the record's cards (``turnup``, ``hands``, ``miss``, ``stock``) is an
    error (``numbered_cards``); those of actions are the deal's to refuse."""
    errors += numbered_cards([record.get("turnup")], "turnup")
    errors += numbered_cards(record.get("miss"), "miss")
    errors += numbered_cards(record.get("stock"), "stock")
    hands = record.get("hands")
    if isinstance(hands, Mapping):
        for p, cards in hands.items():
            errors += numbered_cards(cards, f"hands.{p}", player=p)


def _card(text: Any) -> int | None:
    c = CODE.get(text) if isinstance(text, str) else None
    if c is None:
        try:
            c = card_code(text)
        except ValueError:
            return None
    return c


def _card_lists(action: Mapping[str, Any]) -> bool:
    """An exchange's ``discard`` and ``draw`` are lists where given: anything else (``"2C"``)
    is left to the deal to refuse by name, not read as no cards."""
    return all(action.get(field) is None or type(action[field]) is list
               for field in ("discard", "draw"))


def _cards(texts: Any) -> list[int | None]:
    try:
        return [CODE[c] for c in texts]
    except (KeyError, TypeError):
        return [_card(c) for c in texts] if isinstance(texts, list) else []


#: what reading the actions gives: each player's plays (in order), every card played, each
#: exchanger's discards (those not played again) and draws, who took the miss, and the ``ops``
#: handed to the deal
_Reading = tuple[dict[Any, list[int]], set[int], dict[str, tuple[list[int], list[int]]], Any,
                 list[Any]]


def _infer_hands(record: Mapping[str, Any], r: RuleSet, seats: list, dealer: Any,
                 actions: list, errors: list[dict], bad: set[int], check: bool
                 ) -> tuple[dict[Any, Any], Any, list[str], list[Any], Any]:
    """Each player's dealt hand: given, or read back from plays, discards and draws (as the
    record has them: any JSON value where the record gives one), and the stock."""
    plays, seen, exchanges, miss_player, ops = (
        _read_clean(actions, r.game == "three-card")
        or _read_actions(record, r, dealer, actions, errors, bad))
    unread = set(bad)  # (exchanges that draw nothing off the stock: unread ones)
    stock = _stock_against_draws(record.get("stock"), r, dealer, actions, plays, exchanges, ops,
                                 errors, bad)
    given = record.get("hands") or {}
    if type(given) is not dict and not isinstance(given, Mapping):
        errors.append(record_error("hands: must map players to cards", field="hands"))
        given = {}
    elif None in given.values():  # ("ann": null, as "hands": null: not given, so read back)
        given = {p: cards for p, cards in given.items() if cards is not None}
    hands: dict[Any, Any] = dict(given)
    miss: Any = record.get("miss")
    inferred: list[str] = []
    turnup = record.get("turnup")
    if turnup is not None:
        turnup = _card(turnup)
    for player, cards in plays.items():
        if player not in seats:
            continue
        if player == miss_player:  # he plays the miss: a hand given for him is the one he
            if miss is None:       # threw in unseen, so the miss is still read from his plays
                miss = list(cards)
            continue
        if player in given:
            continue
        exchanged = exchanges.get(player)
        if exchanged is None:
            hands[player] = cards
        else:
            hands[player] = _read_back(cards, exchanged)
            if len(hands[player]) > r.hand_size:
                swollen = _unplayed_draw(actions, player, seen, exchanged[1],
                                         len(hands[player]), r)
                if swollen:  # else the deal names what is wrong with the exchange
                    errors.append(swollen)
        inferred.append(player)
    if turnup is not None and r.turnup_to_dealer and r.game != "irish" and dealer in inferred \
            and turnup in hands[dealer]:  # taken, not dealt (even unrecorded)
        hands[dealer] = [c for c in hands[dealer] if c != turnup]
    places = _stock_places(stock, r, dealer, actions, unread)
    if check and (given or record.get("miss") is not None or places
                  or (turnup in seen and not _dealer_owns(r, dealer, turnup, plays))):
        first_play: dict[int, tuple[Any, int]] = {}
        for i, a in enumerate(actions):
            if i not in bad and type(a) is dict and a.get("action") == "play":
                c = _card(a.get("card"))
                if c is not None and c not in first_play:
                    first_play[c] = (a.get("player"), i)
        already = set(bad)
        seated = {p: cards for p, cards in given.items() if p in seats}  # (others: refused)
        _check_owners(record, r, seated, miss_player, dealer, turnup, actions, first_play,
                      errors, bad, places)
        for i in bad - already:  # a card placed elsewhere is not read into the player's hand
            a = actions[i]
            held: Any = hands.get(a.get("player")) if type(a) is dict else None
            c = _card(a.get("card")) if held and a.get("player") in inferred else None
            if c is not None and c in held:
                held.remove(c)
    return hands, miss, inferred, ops, stock


def _stock_against_draws(stock: Any, r: RuleSet, dealer: Any, actions: list,
                         plays: Mapping[Any, list[int]],
                         exchanges: dict[str, tuple[list[int], list[int]]], ops: list[Any],
                         errors: list[dict], bad: set[int]) -> Any:
    """A given ``stock`` against the draws the exchanges also give: where they disagree, one
    error at the exchange (index, player, the card drawn), and the stock the deal is given
    agrees with whichever of the two the player goes on to play (else the draw), so the
    disagreement is not reported again as a card "dealt twice", a draw never played, or a
    later draw off the wrong top card. The stock as given where nothing disagrees."""
    read = [_card(c) for c in stock] if type(stock) is list else None
    if not read or None in read:
        return stock  # (not given, or a card the deal names)
    top = cast("list[int]", read)
    fixed = None
    for i, a, start, n in _stock_draws(r, dealer, actions, bad):
        player, listed = a.get("player"), a.get("draw")
        drawn = _cards(listed) if type(listed) is list else []
        off = top[start:start + n]
        if type(listed) is not list or None in drawn or drawn[:len(off)] == off:
            continue
        cards = cast("list[int]", drawn)  # (every one a card: None is not in it)
        k = next(k for k, (x, y) in enumerate(zip(cards, off)) if x != y)
        errors.append(record_error(f"{player} draws {NAME[cards[k]]} but the stock's top card "
                                   f"is {NAME[off[k]]}", index=i, player=player,
                                   card=NAME[cards[k]]))
        bad.add(i)
        played = plays.get(player, ())
        if not all(c in played for c in cards) and all(c in played for c in off) \
                and len(off) == n and player in exchanges:
            exchanges[player] = (exchanges[player][0], off)  # the stock was right
            if type(ops[i]) is tuple:
                ops[i] = (ops[i][0], off)
        else:  # the draw was
            fixed = fixed or list(top)
            fixed[start:start + len(off)] = cards[:len(off)]
    return stock if fixed is None else fixed


def _stock_draws(r: RuleSet, dealer: Any, actions: list, unread: set[int]
                 ) -> Iterator[tuple[int, dict, int, int]]:
    """Each exchange's draw off the stock, in exchange order: its index, the exchange, where
    on the stock its cards start and how many it draws (``unread`` exchanges draw nothing)."""
    start = 0
    for i, a in enumerate(actions):
        if type(a) is not dict or a.get("action") != "exchange" or i in unread:
            continue
        n = _draw_count(a, r, dealer)
        yield i, a, start, n
        start += n


def _draw_count(exchange: Mapping[str, Any], r: RuleSet, dealer: Any) -> int:
    """How many cards an exchange draws off the stock: those it lists, else one for each
    discard (the dealer's one fewer where he takes the turn-up in its place)."""
    listed, discard = exchange.get("draw"), exchange.get("discard")
    if type(listed) is list:
        return len(listed)
    takes_turnup = r.turnup_to_dealer and r.game != "irish"
    out = len(discard) if type(discard) is list else 0  # (anything else: the deal's to refuse)
    return max(out - (1 if exchange.get("player") == dealer and takes_turnup else 0), 0)


def _stock_places(stock: Any, r: RuleSet, dealer: Any, actions: list, unread: set[int]
                  ) -> dict[int, tuple[str, str]]:
    """Where each card of a given ``stock`` goes, off the top in exchange order (``unread``
    exchanges drawing nothing): to the player whose exchange draws it, ``(player, "it is in
    the stock, drawn by player")``, else to nobody (``"", "... drawn by nobody"``). For the
    owner check: a play of a stock card by anyone else is then named by its index, player and
    card, not only found "dealt twice"."""
    top = [_card(c) for c in stock] if type(stock) is list else []
    places: dict[int, tuple[str, str]] = {}
    end = 0
    for _, a, start, n in _stock_draws(r, dealer, actions, unread):
        player, end = a.get("player"), start + n
        for c in top[start:end]:
            if c is not None and type(player) is str:
                places.setdefault(c, (player, f"it is in the stock, drawn by {player}"))
    for c in top[end:]:
        if c is not None:
            places.setdefault(c, ("", "it is in the stock, drawn by nobody"))
    return places


def _read_back(played: list[int], exchanged: tuple[list[int], list[int]]) -> list[int]:
    """An exchanger's dealt hand: the discards not played again, then the plays not drawn."""
    kept, drawn = exchanged
    return kept + [c for c in played if c not in drawn]


def _unplayed_draw(actions: list, player: str, seen: set[int], drawn: list[int],
                   size: int, r: RuleSet) -> dict[str, Any] | None:
    """A card drawn and never played swells the hand read back past a dealt hand: after the
    exchange the player would hold more cards than the deal gives, which no table can
    show. Named at the player's exchange, by the first such card. None where every draw
    was played by someone (a draw another plays is not in the stock: the deal says so) or
    the exchange draws a count other than it discards (the deal names that too)."""
    unplayed = [NAME[c] for c in drawn if c not in seen]
    index = next((i for i, a in enumerate(actions) if type(a) is dict
                  and a.get("action") == "exchange" and a.get("player") == player
                  and _card_lists(a)), None)
    if not unplayed or index is None \
            or len(actions[index].get("discard") or ()) != len(actions[index].get("draw") or ()):
        return None
    return record_error(
        f"{player} drew {' '.join(unplayed)} and never played "
        f"{'it' if len(unplayed) == 1 else 'them'}: the plays and the exchange read back "
        f"{size} cards dealt to {player}, and {GAME_NAMES[r.game]} deals {r.hand_size}",
        index=index, player=player, card=unplayed[0])


def _dealer_owns(r: RuleSet, dealer: Any, turnup: int, plays: Mapping[Any, list[int]]) -> bool:
    """The dealer plays the turn-up, taken into the hand (five-card and poker Loo)."""
    return (r.turnup_to_dealer and r.game in ("five-card", "poker-loo")
            and turnup in plays.get(dealer, ()))


def _read_clean(actions: list, three_card: bool) -> _Reading | None:
    """The common record at speed: every card in a spelling ``CODE`` knows, no card played
    twice or both discarded and played, every exchange by a named player listing its draw.
    None for anything else, which ``_read_actions`` then reads, naming every error."""
    code = CODE
    plays: dict[Any, list[int]] = {}
    exchanges: dict[str, tuple[list[int], list[int]]] = {}
    discarded: list[int] = []
    miss_player = None
    ops: list[Any] = [None] * len(actions)
    try:
        for i, a in enumerate(actions):
            kind = a["action"]
            if kind == "play":
                c = ops[i] = code[a["card"]]
                held = plays.get(a["player"])
                if held is None:
                    plays[a["player"]] = [c]
                else:
                    held.append(c)
            elif type(a) is not dict:
                return None
            elif kind == "exchange":
                player, listed = a["player"], a["draw"]
                if type(player) is not str or type(listed) is not list:
                    return None
                out = [code[c] for c in a.get("discard") or []]
                discarded += out
                ops[i] = exchanges[player] = (out, [code[c] for c in listed])
            elif kind in _MISS_ACTIONS and three_card and (
                    kind == "take-miss" or miss_player is None):
                miss_player = a.get("player")
    except (KeyError, TypeError):
        return None
    seen = set().union(*plays.values())
    if len(seen) != sum(map(len, plays.values())) or not seen.isdisjoint(discarded) \
            or len(set(discarded)) != len(discarded):
        return None  # a card played twice, discarded twice, or discarded and played
    return plays, seen, exchanges, miss_player, ops


def _read_actions(record: Mapping[str, Any], r: RuleSet, dealer: Any, actions: list,
                  errors: list[dict], bad: set[int]) -> _Reading:
    """Every action read, whatever the record holds: the errors found are named (by index)
    and their actions marked ``bad``; what can be read is."""
    plays: defaultdict[Any, list[int]] = defaultdict(list)  # (by the record's player)
    seen: set[int] = set()
    exchanges: dict[str, tuple[list[int], list[int]]] = {}
    miss_player: str | None = None
    stock = record.get("stock")
    stock_cards = [_card(c) for c in stock] if isinstance(stock, list) else None
    stock_pos = 0
    code = CODE
    ops: list[Any] = [None] * len(actions)
    takes_turnup = r.turnup_to_dealer and r.game != "irish"
    for i, a in enumerate(actions):
        try:  # the common case first: a well-formed play of a fresh card
            if a["action"] == "play":
                c = code[a["card"]]
                if c not in seen:
                    held = plays[a["player"]]  # a missing or unhashable player raises here,
                    seen.add(c)                # before the card counts as seen
                    held.append(c)
                    ops[i] = c
                    continue
        except (KeyError, TypeError):
            pass
        if type(a) is not dict and not isinstance(a, Mapping):
            errors.append(record_error("action: must be an object", index=i, field="actions"))
            bad.add(i)
            continue
        kind = a.get("action")
        if kind == "play":
            player = a.get("player")
            text = a.get("card")
            card = _card(text)
            if card is None:
                errors.append(not_a_card(text, index=i, player=player))
                bad.add(i)
                continue
            if card in seen:
                errors.append(record_error(f"{NAME[card]} is played twice", index=i,
                                           player=player, card=NAME[card]))
                bad.add(i)
                continue
            seen.add(card)
            try:
                plays[player].append(card)
            except TypeError:
                errors.append(not_a_seat(player, index=i))
                bad.add(i)
        elif kind == "exchange" and type(a.get("player")) is str:
            player = a["player"]
            out = _cards(a.get("discard") or [])
            listed = a.get("draw")
            given_draw = _cards(listed) if type(listed) is list else None
            n_draw = max(len(out) - (1 if player == dealer and takes_turnup else 0), 0)
            if given_draw is not None:
                drawn = given_draw
            elif stock_cards is not None:
                drawn = stock_cards[stock_pos:stock_pos + n_draw]
            else:
                drawn = []
            stock_pos += n_draw
            if None in out or None in drawn or not _card_lists(a):
                out = [c for c in out if c is not None]
                drawn = [c for c in drawn if c is not None]
            elif len(set(out)) == len(out):
                ops[i] = (out, given_draw)
            else:  # a card discarded twice is read into the hand once; the deal refuses the
                out = list(dict.fromkeys(out))  # exchange itself, naming its index and the card
            # (cards only: what was not one is left out above)
            exchanges[player] = (cast("list[int]", out), cast("list[int]", drawn))
        elif kind in _MISS_ACTIONS and r.game == "three-card" and (
                kind == "take-miss" or miss_player is None):
            miss_player = a.get("player")
    kept = {player: ([c for c in out if c not in plays.get(player, ())], drawn)
            for player, (out, drawn) in exchanges.items()}
    return plays, seen, kept, miss_player, ops


def _untangle(actions: list, hands: dict[str, Any], inferred: list[str], errors: list[dict],
              bad: set[int]) -> bool:
    """Cards read back into two players' hands (say, one discards a card another plays).

    As with a card played twice, the later action to use the card is the error: it is named
    by index, player and card, and the card is left out of that player's hand so the deal can
    be set up and the rest of the record judged. True when anything was untangled.
    """
    first_use: dict[int, tuple[str, str]] = {}  # card -> (player, "played" / "discarded")
    found = False
    for i, a in enumerate(actions):
        if i in bad or type(a) is not dict or a.get("player") not in inferred:
            continue
        player, kind = a["player"], a.get("action")
        if kind == "play":
            used = [_card(a.get("card"))]
        elif kind == "exchange" and isinstance(a.get("discard"), list):
            used = _cards(a["discard"])
        else:
            continue
        held = hands[player]
        for c in used:
            if c is None or c not in held:
                continue  # drawn, not dealt
            earlier = first_use.setdefault(c, (player, "played" if kind == "play"
                                               else "discarded"))
            if earlier[0] == player:
                continue
            verb = "plays" if kind == "play" else "discards"
            errors.append(record_error(f"{player} {verb} {NAME[c]}, which {earlier[0]} "
                                       f"{earlier[1]}", index=i, player=player, card=NAME[c]))
            held.remove(c)
            bad.add(i)
            found = True
    return found


def _check_owners(record: Mapping[str, Any], r: RuleSet, given: Mapping[str, Any],
                  miss_player: Any, dealer: Any, turnup: int | None, actions: list,
                  seen: dict[int, tuple[Any, int]], errors: list[dict], bad: set[int],
                  stock: Mapping[int, tuple[str, str]]) -> None:
    """A play of a card the record places elsewhere (another hand, the miss, the turn-up, the
    stock: undrawn, or drawn by another player, ``_stock_places``)."""
    owner: dict[int, str] = {}
    for seat, cards in given.items():
        if isinstance(cards, list):
            for text in cards:
                c = _card(text)
                if c is not None:
                    owner[c] = seat
    miss = record.get("miss")
    if isinstance(miss, list):
        for text in miss:
            c = _card(text)
            if c is not None:
                owner[c] = _MISS
    if turnup is not None:
        owner[turnup] = _TURNUP
    drew = {(a.get("player"), _card(x)) for a in actions if isinstance(a, Mapping)
            and a.get("action") == "exchange" and isinstance(a.get("draw"), list)
            and isinstance(a.get("player"), str) for x in a["draw"]}
    for c, (player, i) in seen.items():
        where = owner.get(c)
        if where is None and c in stock and stock[c][0] != player and (player, c) not in drew:
            errors.append(record_error(f"{player} cannot hold {NAME[c]}: {stock[c][1]}",
                                       index=i, player=player, card=NAME[c]))
            bad.add(i)
            continue
        if where is None or where == player or (player, c) in drew:
            continue
        if where == _MISS and player == miss_player:
            continue
        if where == _TURNUP and player == dealer and r.turnup_to_dealer \
                and r.game in ("five-card", "poker-loo"):
            continue
        if where in given and player in given:
            pass  # the player's own given hand is checked by the deal itself
        who = (PLACE_NAMES[where] if where == _TURNUP else f"in {where}"
               if where in PLACE_NAMES else f"in {where}'s hand")
        errors.append(record_error(f"{player} cannot hold {NAME[c]}: it is {who}", index=i,
                                   player=player, card=NAME[c]))
        bad.add(i)


def _order_decides_shares(deal: Deal, counts: Mapping[int, int]) -> bool:
    """Whether trick counts alone leave the settlement open: under ``remainder: early-tricks``
    the odd units go to the first tricks' winners, which counts do not name (an arbitrary order
    would hand chips to the wrong player). One player with every trick takes the whole pool,
    and an undivided pool or poker-Loo's pot is not shared by trick."""
    r = deal.rules
    if r.remainder != "early-tricks" or r.undivided or r.game == "poker-loo":
        return False
    if sum(1 for c in counts.values() if c) < 2:
        return False
    return deal.books.pool % deal._hand_size != 0


def _named(deal: Deal, counts: Mapping[int, int]) -> str:
    standing = [deal.seats[i] for i in deal._order if i in counts]
    return " and ".join(standing) if standing else "nobody"


def _declare_from_counts(deal: Deal, counts: Mapping[int, int], errors: list[dict]) -> bool:
    """Declarations a result-only record leaves out: those the counts name stood, the others
    passed, pushed through the deal so that its own rules judge them as if recorded (a dealer
    may not pass against a lone stander; five-card's lone stander and everyone passing to the
    dealer end the deal before play; a player sitting out a redeal declares nothing). False,
    with the error, when the rules forbid what the counts make of the declarations."""
    out = [deal.seats[i] for i in counts if i in deal._out_of_deal]
    if out:
        errors.append(record_error(f"result: {', '.join(out)} did not play (sitting out "
                                   f"this redeal)", field="result"))
        return False
    for i in deal._declared_order:
        if deal.phase != DECLARE:
            break
        if deal._decl[i] is not None or i in deal._forced_pass:
            continue
        kind = "stand" if i in counts else "pass"
        try:
            try:
                deal.push({"player": deal.seats[i], "action": kind})
            except RecordError:
                if kind == "stand" or i != deal._d \
                        or "defend" not in deal.declaration_options(deal.seats[i]):
                    raise
                # a dealer with no count who may not pass against a lone stander played
                # without standing: he defended the pool (pays nothing, takes nothing)
                deal.push({"player": deal.seats[i], "action": "defend"})
        except RecordError as err:
            errors.extend(record_error(f"result: the counts leave {_named(deal, counts)} "
                                       f"standing, and so {deal.seats[i]} to {kind}: "
                                       f"{e['message']}", player=deal.seats[i], field="result")
                          for e in err.errors)
            return False
    return True


def _apply_result(deal: Deal, result: Any, errors: list[dict]) -> None:
    """A result-only record: settle from trick counts (and trick winners when given)."""
    tricks = result.get("tricks") if isinstance(result, Mapping) else None
    if not isinstance(tricks, Mapping):
        errors.append(record_error("result: needs {\"tricks\": {player: count}}",
                                   field="result"))
        return
    if deal.phase == OVER:
        if any(tricks.values()):
            errors.append(record_error("result: no tricks are played in this deal",
                                       field="result"))
        return
    n = deal._hand_size
    counts: dict[int, int] = {}
    for name, count in tricks.items():
        if name not in deal._idx:
            errors.append(record_error(f"result: {shown(name)} is not a seat", player=shown(str(name), bare=True),
                                       field="result"))
        elif not isinstance(count, int) or isinstance(count, bool) or count < 0:
            errors.append(record_error(f"result: {shown(count)} is not a trick count", player=name,
                                       field="result"))
        else:
            counts[deal._idx[name]] = count
    if errors:
        return
    if sum(counts.values()) != n:
        errors.append(record_error(f"result: the trick counts add up to "
                                   f"{sum(counts.values())}, not {n}", field="result"))
        return
    if deal.phase == DECLARE and not _declare_from_counts(deal, counts, errors):
        return
    if deal.phase == OVER:  # the declarations the counts make end the deal before play
        errors.append(record_error("result: no tricks are played in this deal (the counts "
                                   "leave " + _named(deal, counts) + " standing)",
                                   field="result"))
        return
    strangers = [deal.seats[i] for i in counts if i not in deal._standers]
    if strangers:
        errors.append(record_error(f"result: {', '.join(strangers)} did not play",
                                   field="result"))
        return
    winners_given = result.get("winners")
    if winners_given is not None:
        if (not isinstance(winners_given, list) or len(winners_given) != n
                or any(not is_named(w, deal._idx) for w in winners_given)
                or any(winners_given.count(deal.seats[i]) != c for i, c in counts.items())):
            errors.append(record_error("result: winners must list each trick's winner, in "
                                       "order, agreeing with the counts", field="result"))
            return
        winners = [deal._idx[w] for w in winners_given]
    else:
        if _order_decides_shares(deal, counts):
            pool = deal.books.pool
            errors.append(record_error(
                f"result: winners (each trick's winner, in order) is needed under remainder "
                f"early-tricks: the pool of {pool} does not divide into {n} equal tricks, and "
                f"its {pool % n} odd unit(s) go to the winners of the first tricks",
                field="result"))
            return
        winners = [i for i in deal._standers for _ in range(counts.get(i, 0))]
    deal._tricks = [(k + 1, w, [], w) for k, w in enumerate(winners)]
    for i, c in counts.items():
        deal._won[i] = c
    deal._unverified = True
    deal._end("played")
