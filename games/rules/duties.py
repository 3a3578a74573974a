"""The duties of play: what a lead or a following card must be, and the rule it breaks.

``Duties`` is mixed into ``Deal``; ``card_tables`` gives each card's effective suit (Pam counts
as a trump) and strength, so the checks on every play are list lookups.
"""
from __future__ import annotations

from .cards import ACE, KING, NAME, RANK, SUIT, SUITS
from .state import DealState, trait

TRUMP_KEY, PAM_KEY = 20, 50
#: tricks whose leader must lead a trump, by ``lead_trump``
DUTY_UPTO = {"every-trick": 99, "first-trick": 1, "first-two-tricks": 2, "none": 0}
_TABLES: dict[tuple[int | None, int], tuple[list[int], list[int]]] = {}


def card_tables(trump: int | None, pam: int) -> tuple[list[int], list[int]]:
    """(effective suit, strength key) per card for a trump suit and Pam (-1 if none).

    Pam's effective suit is trumps and its key beats all; a trump's key beats every plain card.
    """
    found = _TABLES.get((trump, pam))
    if found is None:
        es, key = list(SUIT), list(RANK)
        if trump is not None:
            for c in range(52):
                if SUIT[c] == trump:
                    key[c] = TRUMP_KEY + RANK[c]
        if pam >= 0:
            if trump is not None:
                es[pam] = trump
            key[pam] = PAM_KEY
        found = _TABLES[(trump, pam)] = (es, key)
    return found


@trait
class Duties(DealState):
    """Judging a lead or a following card against the rules (mixed into ``Deal``)."""

    __slots__ = ()

    def _turn_on_void(self, c: int) -> None:
        """``trump_turned: on-first-void``: trumps are turned when a player cannot follow.

        The table sees only that ``c`` does not follow: it turns trumps then, a revoker's card
        included (the revoke is judged apart), and later play goes on under those trumps; so
        the replay turns them at the same card, or it would judge another game than the one
        recorded."""
        led = self._led
        if SUIT[c] == led:
            return
        if self.turnup is None:
            raise self._err("turnup: trumps were turned when a player could not follow; the "
                            "turn-up card is needed", field="turnup")
        self._set_trump(SUIT[self.turnup])
        self._winner, self._best = self._strongest(led)
        if self._ace_first and self._trick_no == 1:
            self._special = True  # trick 1 goes on under trumps: the ace (Pam) duty bites now

    def _first_trick_card(self) -> int:
        """``trump_ace_first_trick``: the card its holder must play to trick 1 (ace or Pam)."""
        if self._pam >= 0:
            return self._pam
        return self._trump * 13 + ACE - 2  # type: ignore[operator]

    def _lead_ace(self, hand: list[int]) -> int:
        """The trump a leader holding ``hand`` must lead under ``lead_trump_ace``: the ace, or
        the king when the ace is the turn-up card (and not in this hand: at five-card a
        standing dealer takes the turn-up, and then leads the ace like anyone holding it)."""
        ace = self._trump * 13 + ACE - 2  # type: ignore[operator]
        return ace - 1 if ace == self.turnup and ace not in hand else ace

    def _judge_lead_card(self, c: int, hand: list[int]) -> tuple[str, str] | None:
        """A lead judged: under ``trump_turned: first-lead`` the opening lead makes trumps, and
        it carries no lead duty (the ace, the highest trump, the ace to the first trick): the
        leader chose the suit with no trumps known (docs/engine.md, interpretation 7)."""
        if self._trump is None and self._trump_mode == "first-lead":
            self._set_trump(SUIT[c])
            return None
        return self._judge_lead(c, hand)

    def _judge_lead(self, c: int, hand: list[int]) -> tuple[str, str] | None:
        trump = self._trump
        if trump is None:
            return None
        duty = self._trick_no <= self._duty_upto
        if not duty and not self._ace_first:
            return None
        es = self._es
        if duty and es[c] == trump and not self._lead_extra and not self._ace_first:
            return None
        r = self.rules
        if r.trump_ace_first_trick and self._trick_no == 1:
            must = self._first_trick_card()
            if must in hand and c != must:
                return ("failed-to-play-trump-ace",
                        f"held {NAME[must]} and led {NAME[c]} to the first trick")
        if not duty:
            return None
        key = self._key
        if es[c] == trump:
            if r.lead_trump_ace:
                ace = self._lead_ace(hand)
                # Pam is above the ace: where another duty asks for Pam (the highest trump, or
                # Pam to the first trick), leading it meets the ace duty too, or no lead would do
                pam_asked = c == self._pam and (r.lead_highest_trump or (
                    r.trump_ace_first_trick and self._trick_no == 1))
                if ace in hand and c != ace and not pam_asked:
                    return ("failed-to-lead-trump-ace", f"led {NAME[c]} holding {NAME[ace]}")
            if r.lead_highest_trump:
                top = max((x for x in hand if es[x] == trump), key=key.__getitem__)
                if top != c:
                    return ("failed-to-lead-highest-trump",
                            f"led {NAME[c]} holding the higher trump {NAME[top]}")
            return None
        for x in hand:
            if es[x] == trump:
                return ("failed-to-lead-trump", f"led {NAME[c]} holding the trump {NAME[x]}")
        return None

    def _lead_civility(self, hand_after: list[int]) -> None:
        """The ace of trumps is led: does Pam have to be civil (``pam_be_civil``), and was
        civility called at all (for ``pam_follows_trump``)?"""
        mode = self.rules.pam_be_civil
        said = self._civil_called
        self._civil = mode == "automatic" or (mode == "binding" and said)
        self._civil_called = self._civil or (said and (
            mode == "request" or (mode == "request-if-next-trump"
                                  and self._next_trump() in hand_after)))

    def _next_trump(self) -> int | None:
        """``request-if-next-trump``: the trump next below the ace still in play, which makes
        the leader sure of another trick: the king, unless it is out (played to an earlier
        trick, or the turn-up nobody took or the dealer discarded), then the queen, and so on.
        Pam is above the ace."""
        trump = self._trump
        gone = {c for t in self._tricks for _, c in t[2]}
        if self._turnup_out_of_play():
            gone.add(self.turnup)  # type: ignore[arg-type]
        for card in range(trump * 13 + KING - 2, trump * 13 - 1, -1):  # type: ignore[operator]
            if card != self._pam and card not in gone:
                return card
        return None

    def _turnup_out_of_play(self) -> bool:
        """The turn-up can no longer be played: no standing dealer took it, or he took it and
        discarded it at the exchange (he exchanges last, so nobody draws it back)."""
        turnup = self.turnup
        if turnup is None:
            return False
        taken = self._dealer_must_take_turnup(self._d) and self._d in self._exchanged
        return not taken or turnup in self._discards

    def _judge_follow(self, s: int, c: int, hand: list[int]) -> tuple[str, str] | None:
        es = self._es
        ce = es[c]
        led = self._led
        pam = self._pam
        if ce == led and c != pam and not self._special:
            # following suit, the common case: heading is the only duty left
            if not self._head:
                return None
            key = self._key
            best = self._best
            if key[c] > best or (best >= TRUMP_KEY and led != self._trump):
                return None
            for x in hand:
                if es[x] == led and x != pam and key[x] > best:
                    return ("failed-to-head", (f"held {NAME[x]}, which beats "
                             f"{self._best_name()}, and played {NAME[c]}"))
            return None
        key, trump = self._key, self._trump
        r = self.rules
        if r.trump_ace_first_trick and self._trick_no == 1 and trump is not None:
            must = self._first_trick_card()
            if must in hand and c != must:
                return ("failed-to-play-trump-ace",
                        f"held {NAME[must]} and played {NAME[c]} to the first trick")
            if c == must:
                return None
        if ce == led and c != pam and not self._pam_led:
            # following suit, the common case: heading is the only duty left
            best = self._best
            if r.must_head and key[c] < best and (best < TRUMP_KEY or led == trump):
                for x in hand:
                    if es[x] == led and x != pam and key[x] > best:
                        return ("failed-to-head", (f"held {NAME[x]}, which beats "
                                 f"{self._best_name()}, and played {NAME[c]}"))
            return None
        lead_card = self._lead_card
        if self._pam_led:
            if ce != trump:
                for x in hand:
                    if es[x] == trump:
                        return ("failed-to-play-trump-to-pam",
                                f"held the trump {NAME[x]} when Pam was led, played {NAME[c]}")
            return None
        if c == pam:
            if r.pam_follows_trump and led != trump:
                for x in hand:
                    if es[x] == led and x != pam:
                        return ("revoke", f"played Pam to a {SUITS[led]} lead holding {NAME[x]}")
            if self._civil:
                for x in hand:
                    if es[x] == trump and x != pam:
                        why = ("to the led ace of trumps (Pam must be civil)"
                               if r.pam_be_civil == "automatic" else "after \"Pam be civil\"")
                        return ("pam-not-civil", f"played Pam {why} holding the trump {NAME[x]}")
            return None
        for x in hand:
            if es[x] == led and x != pam:
                return ("revoke", f"held {NAME[x]} when {NAME[lead_card]} was led")
        # void in the suit led
        if r.pam_follows_trump and led == trump and pam in hand and not self._civil_called:
            return ("revoke", f"held Pam and no other trump when {NAME[lead_card]} was led")
        if trump is None or led == trump or not r.must_trump:
            return None
        trumps = [x for x in hand if es[x] == trump]
        if not trumps:
            return None
        best = self._best
        if best < TRUMP_KEY:
            if ce != trump:
                return ("failed-to-trump", (f"could not follow {NAME[lead_card]}, held the trump "
                         f"{NAME[trumps[0]]} and played {NAME[c]}"))
            return None
        over = [x for x in trumps if key[x] > best]
        if over and (ce != trump or key[c] < best):
            return ("failed-to-overtrump", (f"held {NAME[over[0]]}, which beats "
                     f"{self._best_name()}, and played {NAME[c]}"))
        if not over and r.must_undertrump and ce != trump:
            return ("failed-to-trump", (f"could not follow {NAME[lead_card]} nor overtrump, held "
                     f"the trump {NAME[trumps[0]]} and played {NAME[c]}"))
        return None

    def _best_name(self) -> str:
        es, key = self._es, self._key
        led = self._led
        best = max(self._tcards, key=lambda pc: key[pc[1]] if es[pc[1]] in (led, self._trump)
                   else 0)
        return NAME[best[1]]
