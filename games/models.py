"""Sessions, deals and the chip ledger.

The ledger is the single source of truth for where every chip is: each *posting* (one deal's
settlement, one purchase, a correction's reversal, the end-of-session pool split, the buy-back)
is a group of :class:`LedgerEntry` rows summing to zero across accounts. Accounts are a seat
name, ``"pool"`` and ``"bank"``; the bank's balance is minus the chips issued, so
``sum(player balances) + pool == chips issued`` always holds. Entries are append-only: the
database itself refuses UPDATE and DELETE (triggers in migration 0002), a correction is a new
:class:`DealRevision` plus reversing entries.

Writes go through ``games.services`` only, which lock the :class:`GameSession` row first.
"""
from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.services.limits import MAX_MEMO_CHARS, MAX_NAME_CHARS, MAX_VOID_REASON_CHARS

#: Ledger accounts that are not seats.
POOL = "pool"
BANK = "bank"


class GameSession(models.Model):
    """One evening's play at one table: seats, rules, banker and chip value."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    club = models.ForeignKey("accounts.Club", on_delete=models.PROTECT, related_name="game_sessions")
    date = models.DateField()
    name = models.CharField(max_length=MAX_NAME_CHARS, blank=True)
    seats = models.JSONField(help_text="Member names, clockwise.")
    first_dealer = models.CharField(max_length=32)
    rules = models.JSONField(help_text="Rules as submitted: a preset plus house options.")
    resolved_rules = models.JSONField(help_text="RuleSet.to_options(): every option resolved.")
    banker = models.CharField(
        max_length=32, null=True, blank=True, help_text="A member's name, or null: the club."
    )
    chip_value = models.PositiveIntegerField(
        default=1, help_text="Smallest currency units per chip unit."
    )
    currency = models.CharField(max_length=3, default="GBP")
    allow_credit = models.BooleanField(
        default=False, help_text="Allow a deal to take a player below zero chips."
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["club", "date"]), models.Index(fields=["club", "status"])]

    def __str__(self) -> str:
        return f"Session {self.pk} ({self.date}) of {self.club.slug}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def end_pool_mode(self) -> str:
        """The rules' ``end_pool``: "split", or "final-deal" (a play-off deal ends the session)."""
        return (self.resolved_rules or {}).get("end_pool", "split")


class Deal(models.Model):
    """Deal number N of a session; its record and verdict live in revisions (latest = current)."""

    session = models.ForeignKey(GameSession, on_delete=models.PROTECT, related_name="deals")
    number = models.PositiveIntegerField()
    #: Timeline position (posting number) of the deal's first settlement: purchases and other
    #: postings between deals are ordered against it.
    posting = models.PositiveIntegerField()
    current = models.ForeignKey(
        "DealRevision", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="deal_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number} of session {self.session_id}"


class DealRevision(models.Model):
    """One version of a deal's record and the verdict the engine gave it. Never changed."""

    class Cause(models.TextChoices):
        RECORDED = "recorded", "Recorded"
        CORRECTED = "corrected", "Corrected"
        RESETTLED = "resettled", "Re-settled after an earlier correction"

    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="revisions")
    revision = models.PositiveIntegerField()
    record = models.JSONField(help_text="The deal record (loo-deal/1) with seats, dealer, number and pool.")
    verdict = models.JSONField()
    status = models.CharField(max_length=12, help_text="valid | irregular | unverified")
    dealer = models.CharField(max_length=32)
    pool_before = models.IntegerField()
    pool_after = models.IntegerField()
    first_of_series = models.BooleanField(default=True)
    cause = models.CharField(max_length=10, choices=Cause.choices, default=Cause.RECORDED)
    reason = models.TextField(blank=True)
    engine_version = models.CharField(max_length=20, blank=True)
    # PROTECT, not SET_NULL: the table is append-only and refuses SET_NULL's update (deactivate
    # a login instead of deleting it)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["deal", "revision"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "revision"], name="dealrevision_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.deal} r{self.revision}"

    @property
    def deltas(self) -> dict[str, int]:
        return dict(self.verdict.get("settlement", {}).get("deltas", {}))


class Violation(models.Model):
    """A real-table offence found in a revision's verdict (copied out so deals filter by rule)."""

    revision = models.ForeignKey(DealRevision, on_delete=models.PROTECT, related_name="violations")
    player = models.CharField(max_length=32)
    rule = models.CharField(max_length=40)
    trick = models.PositiveSmallIntegerField(null=True, blank=True)
    card = models.CharField(max_length=3, null=True, blank=True)
    evidence = models.TextField(blank=True)
    penalty = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["revision", "id"]
        indexes = [models.Index(fields=["rule"])]


class ChipPurchase(models.Model):
    """Chips a player bought from the banker (buy-in or rebuy), paid on the spot or owed."""

    session = models.ForeignKey(GameSession, on_delete=models.PROTECT, related_name="purchases")
    player = models.CharField(max_length=32)
    chips = models.PositiveIntegerField()
    money = models.PositiveBigIntegerField(help_text="Smallest currency units.")
    paid = models.BooleanField(default=True, help_text="Paid on the spot (else owed).")
    posting = models.PositiveIntegerField()
    memo = models.CharField(max_length=MAX_MEMO_CHARS, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "posting"]
        constraints = [models.CheckConstraint(condition=Q(chips__gt=0), name="purchase_chips_positive")]


class PurchaseVoid(models.Model):
    """A purchase keyed in by mistake, voided: its chips go back to the bank in a posting of
    its own, made now, and it no longer counts as chips bought or money spent. The deals
    between the purchase and its void stand as they were settled. Append-only: a purchase is
    voided at most once, and a void is never undone (buy again instead)."""

    purchase = models.OneToOneField(ChipPurchase, on_delete=models.PROTECT, related_name="void")
    posting = models.PositiveIntegerField(help_text="The void's place in the session's timeline.")
    reason = models.CharField(max_length=MAX_VOID_REASON_CHARS)
    # PROTECT, not SET_NULL: the table refuses the UPDATE that SET_NULL would make
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["posting", "id"]

    def __str__(self) -> str:
        return f"void of purchase {self.purchase_id}"


class ChipPayment(models.Model):
    """Money a player hands the banker, after the fact, for chips bought on credit.

    Money, not chips: the chip ledger does not move. Append-only like the ledger: a payment
    entered by mistake is answered by a negative one (a refund), never edited away.
    """

    session = models.ForeignKey(GameSession, on_delete=models.PROTECT, related_name="payments")
    player = models.CharField(max_length=32)
    money = models.BigIntegerField(help_text="Smallest currency units; negative: a refund.")
    memo = models.CharField(max_length=MAX_MEMO_CHARS, blank=True)
    # PROTECT, not SET_NULL: the table refuses the UPDATE that SET_NULL would make
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "id"]
        constraints = [models.CheckConstraint(condition=~Q(money=0), name="payment_money_not_zero")]


class LedgerEntry(models.Model):
    """One line of a posting: ``chips`` (signed) to or from ``account``. Append-only."""

    class Kind(models.TextChoices):
        PURCHASE = "purchase", "Purchase"
        VOID = "void", "Purchase voided"
        ANTE = "ante", "Ante"
        PAYOUT = "payout", "Payout"
        LOO = "loo", "Loo"
        PENALTY = "penalty", "Penalty"
        REVERSAL = "reversal", "Reversal"
        END_POOL = "end-pool", "End-of-session pool"
        BUYBACK = "buyback", "Buy-back"

    session = models.ForeignKey(GameSession, on_delete=models.PROTECT, related_name="ledger")
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, null=True, blank=True, related_name="ledger")
    revision = models.ForeignKey(
        DealRevision, on_delete=models.PROTECT, null=True, blank=True, related_name="ledger"
    )
    purchase = models.ForeignKey(
        ChipPurchase, on_delete=models.PROTECT, null=True, blank=True, related_name="ledger"
    )
    seq = models.PositiveIntegerField(help_text="1, 2, 3, ... within the session.")
    posting = models.PositiveIntegerField(help_text="The posting this line belongs to.")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    account = models.CharField(max_length=32)
    chips = models.BigIntegerField()
    memo = models.CharField(max_length=200, blank=True)
    #: sha256 over the previous entry's digest and this entry's fields: check_ledger re-computes
    #: the chain, so an entry changed behind the triggers' back is found.
    digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="ledger_unique_seq"),
        ]
        indexes = [models.Index(fields=["session", "account"]), models.Index(fields=["session", "posting"])]
        verbose_name_plural = "ledger entries"

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind} {self.account} {self.chips:+d}"

    def compute_digest(self, previous: str) -> str:
        """The chain link: depends on every stored field that matters and on ``previous``."""
        text = "|".join(
            str(x)
            for x in (
                previous, self.session_id, self.seq, self.posting, self.kind, self.account,
                self.chips, self.deal_id, self.revision_id, self.purchase_id, self.memo,
            )
        )
        return hashlib.sha256(text.encode()).hexdigest()


class IdempotencyKey(models.Model):
    """A client's ``Idempotency-Key`` and the first answer given to it."""

    class State(models.TextChoices):
        IN_FLIGHT = "in-flight", "In flight"
        DONE = "done", "Done"

    club = models.ForeignKey("accounts.Club", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="sha256 of method, path and body.")
    state = models.CharField(max_length=10, choices=State.choices, default=State.IN_FLIGHT)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_body = models.JSONField(null=True, blank=True)
    response_headers = models.JSONField(default=dict, blank=True, help_text="e.g. Location.")
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "key"], name="idempotency_unique_key"),
        ]


class SessionClosing(models.Model):
    """A close or a reopen of a session: who, when, why, and the postings it made."""

    class Action(models.TextChoices):
        CLOSE = "close", "Closed"
        REOPEN = "reopen", "Reopened"

    session = models.ForeignKey("games.GameSession", on_delete=models.PROTECT, related_name="closings")
    action = models.CharField(max_length=6, choices=Action.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField(blank=True)
    end_pool_mode = models.CharField(max_length=12, blank=True)
    end_pool = models.IntegerField(default=0, help_text="Units in the pool before the closing.")
    end_pool_shares = models.JSONField(default=dict, blank=True)
    returned = models.JSONField(default=dict, blank=True, help_text="Chips bought back, per seat.")
    warnings = models.JSONField(default=list, blank=True)
    postings = models.JSONField(default=list, blank=True, help_text="Ledger postings made.")

    class Meta:
        ordering = ["session", "at", "id"]

    def __str__(self) -> str:
        return f"{self.action} of session {self.session_id} at {self.at:%Y-%m-%d %H:%M}"

    @property
    def by_name(self) -> str | None:
        """Who closed or reopened, as the closings log and the report say it: the login's
        username, None once the login is gone."""
        return self.by.get_username() if self.by else None
