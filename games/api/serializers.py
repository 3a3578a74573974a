"""Request and response shapes of the sessions, deals, ledger and purchases endpoints."""
from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.serializers import LinksField
from games.models import ChipPayment, ChipPurchase, Deal, DealRevision, GameSession, PurchaseVoid
from games.selectors import listed_next
from games.services.limits import MAX_CHIPS, MAX_MONEY, MAX_NAME_CHARS, MAX_VOID_REASON_CHARS
from loo_ledger.fields import (
    CHIPS_UNIT,
    MONEY_UNIT,
    DayField,
    KnownFieldsOnly,
    StrictBooleanField,
    StrictIntegerField,
    is_whole,
)

from .schema import RecordField, RulesField, VerdictField


def _username(user: Any) -> str | None:
    return getattr(user, "username", None)


class NextDealSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.CharField()
    pool = serializers.IntegerField()
    first_of_series = serializers.BooleanField()
    sits_out = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="Only when the next deal is a poker-Loo redeal by the same dealer: who sits "
                  "it out (the record is replayed with redeal: true).")


class SessionSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    rules = RulesField(read_only=True)
    created_by = serializers.SerializerMethodField()
    deal_count = serializers.SerializerMethodField()
    next = serializers.SerializerMethodField()
    links = LinksField("SessionLinks", {
        "self": ("session-detail", "This session."),
        "deals": ("deal-list", "Its deals; POST records the next one."),
        "ledger": ("session-ledger", "The chip ledger: balances after every step."),
        "purchases": ("purchase-list", "Chips bought from the banker."),
        "payments": ("payment-list", "Money paid later for chips bought on credit."),
        "report": ("report-api", "The settlement report (JSON, ?format=csv or pdf)."),
        "file": ("session-file", "The session file (JSON Lines, as imports read it)."),
        "closings": ("session-closings", "Its close and reopen log."),
        "report_page": ("report-page", "The report's web page (browser login)."),
    }, lambda session: {"club": session.club.slug, "session_id": session.pk})

    class Meta:
        model = GameSession
        fields = [
            "id", "club", "date", "name", "seats", "first_dealer", "rules", "resolved_rules",
            "banker", "chip_value", "currency", "allow_credit", "status", "created_by",
            "created_at", "closed_at", "deal_count", "next", "links",
        ]
        read_only_fields = fields

    def get_created_by(self, obj: GameSession) -> str | None:
        return _username(obj.created_by)

    def get_deal_count(self, obj: GameSession) -> int:
        count = getattr(obj, "deal_count", None)
        return obj.deals.count() if count is None else count

    @extend_schema_field(NextDealSerializer(allow_null=True))
    def get_next(self, obj: GameSession) -> dict[str, Any] | None:
        """The next deal's number, dealer and pool (null once the session is closed)."""
        return listed_next(obj).as_dict() if obj.is_open else None


class SessionCreateSerializer(KnownFieldsOnly, serializers.Serializer):
    """A session to open: the table, the rules, the banker and the chips each player buys in."""

    date = DayField()
    name = serializers.CharField(max_length=MAX_NAME_CHARS, required=False, allow_blank=True,
                                 default="")
    seats = serializers.ListField(child=serializers.CharField(max_length=32), min_length=2,
                                  help_text="Member names, clockwise.")
    first_dealer = serializers.CharField(max_length=32)
    rules = RulesField(help_text='A preset plus house options, e.g. {"preset": "three-card", "loo": "unlimited"}.')
    banker = serializers.CharField(max_length=32, required=False, allow_null=True, default=None,
                                   help_text="A member's name; null or 'club' for the club.")
    chip_value = StrictIntegerField(min_value=1, max_value=MAX_CHIPS, default=1, unit=MONEY_UNIT,
                                    help_text="Smallest currency units per chip.")
    currency = serializers.CharField(max_length=3, default="GBP")
    allow_credit = StrictBooleanField(default=False)
    buy_ins = serializers.DictField(
        child=StrictIntegerField(min_value=1, max_value=MAX_CHIPS, unit=CHIPS_UNIT, name="a buy-in"),
        required=False, help_text="Seat -> chips bought at the start (paid on the spot).")


class RevisionSerializer(serializers.ModelSerializer):
    created_by = serializers.SerializerMethodField()
    record = RecordField()
    verdict = VerdictField()

    class Meta:
        model = DealRevision
        fields = ["revision", "cause", "reason", "status", "dealer", "pool_before", "pool_after",
                  "record", "verdict", "engine_version", "created_by", "created_at"]
        read_only_fields = fields

    def get_created_by(self, obj: DealRevision) -> str | None:
        return _username(obj.created_by)


class DealSerializer(serializers.ModelSerializer):
    """A deal as it stands (its current revision)."""

    revision = serializers.IntegerField(source="current.revision")
    status = serializers.CharField(source="current.status")
    dealer = serializers.CharField(source="current.dealer")
    pool_before = serializers.IntegerField(source="current.pool_before")
    pool_after = serializers.IntegerField(source="current.pool_after")
    record = RecordField(source="current.record")
    verdict = VerdictField(source="current.verdict")
    recorded_by = serializers.SerializerMethodField()
    recorded_at = serializers.DateTimeField(source="current.created_at")

    class Meta:
        model = Deal
        fields = ["number", "revision", "status", "dealer", "pool_before", "pool_after",
                  "record", "verdict", "recorded_by", "recorded_at"]
        read_only_fields = fields

    def get_recorded_by(self, obj: Deal) -> str | None:
        return _username(obj.current.created_by) if obj.current else None


class DealDetailSerializer(DealSerializer):
    revisions = RevisionSerializer(many=True, read_only=True)

    class Meta(DealSerializer.Meta):
        fields = [*DealSerializer.Meta.fields, "revisions"]
        read_only_fields = fields


class DealCreateSerializer(KnownFieldsOnly, serializers.Serializer):
    """A deal to record: its number in the session and its record (deal-record.md)."""

    number = StrictIntegerField(min_value=1, max_value=MAX_CHIPS,
                                help_text="The deal's number: must be the session's next.")
    record = RecordField()


class CorrectionCreateSerializer(KnownFieldsOnly, serializers.Serializer):
    """A correction of a recorded deal: the corrected record and why."""

    record = RecordField(help_text="The corrected record of this deal.")
    reason = serializers.CharField(max_length=2000, help_text="Why the record is corrected (kept with the revision).")


class DealChangeSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    revision = serializers.IntegerField()
    cause = serializers.ChoiceField(choices=DealRevision.Cause.choices)
    dealer = serializers.CharField()
    deltas_before = serializers.DictField(child=serializers.IntegerField())
    deltas_after = serializers.DictField(child=serializers.IntegerField())
    pool_after_before = serializers.IntegerField()
    pool_after_after = serializers.IntegerField()


class CorrectionSerializer(serializers.Serializer):
    deal = serializers.IntegerField()
    revision = serializers.IntegerField()
    reason = serializers.CharField()
    changes = DealChangeSerializer(many=True, help_text="Every deal whose settlement changed.")


class PurchaseVoidSerializer(serializers.Serializer):
    """A purchase's void: when, why, by whom, and its place in the timeline."""

    at = serializers.DateTimeField(source="created_at")
    reason = serializers.CharField()
    by = serializers.SerializerMethodField()
    posting = serializers.IntegerField(help_text="The void's timeline position (posting number).")

    def get_by(self, obj: PurchaseVoid) -> str | None:
        return _username(obj.created_by)


class PurchaseVoidCreateSerializer(KnownFieldsOnly, serializers.Serializer):
    """Why a purchase keyed in by mistake is voided."""

    reason = serializers.CharField(
        allow_blank=True, trim_whitespace=False,  # (the service refuses a blank one, naming it)
        help_text=f"Why the purchase is voided (required; at most {MAX_VOID_REASON_CHARS:,} characters).")


class PurchaseSerializer(KnownFieldsOnly, serializers.ModelSerializer):
    """Chips bought from the banker (a buy-in or a rebuy), paid on the spot or owed, with its void."""

    created_by = serializers.SerializerMethodField()
    void = serializers.SerializerMethodField()
    money = StrictIntegerField(min_value=0, max_value=MAX_MONEY, required=False, allow_null=True,
                               unit=MONEY_UNIT,
                               help_text="Smallest currency units; default chips x chip value.")
    chips = StrictIntegerField(min_value=1, max_value=MAX_CHIPS, unit=CHIPS_UNIT)
    paid = StrictBooleanField(default=True, help_text="Paid on the spot (else owed).")

    class Meta:
        model = ChipPurchase
        fields = ["id", "player", "chips", "money", "paid", "memo", "created_by", "created_at",
                  "void"]
        read_only_fields = ["id", "created_by", "created_at", "void"]

    def get_created_by(self, obj: ChipPurchase) -> str | None:
        return _username(obj.created_by)

    @extend_schema_field(PurchaseVoidSerializer(allow_null=True))
    def get_void(self, obj: ChipPurchase) -> dict[str, Any] | None:
        """The purchase's void (null: it stands)."""
        void = getattr(obj, "void", None)
        return None if void is None else PurchaseVoidSerializer(void).data


class PaymentSerializer(KnownFieldsOnly, serializers.ModelSerializer):
    """Money paid later toward chips bought on credit (negative: a refund)."""

    created_by = serializers.SerializerMethodField()
    money = StrictIntegerField(min_value=-MAX_MONEY, max_value=MAX_MONEY, unit=MONEY_UNIT,
                               help_text="Smallest currency units paid toward chips bought on "
                                         "credit; negative: a refund of a mistaken payment.")

    class Meta:
        model = ChipPayment
        fields = ["id", "player", "money", "memo", "created_by", "created_at"]
        read_only_fields = ["id", "created_by", "created_at"]

    def get_created_by(self, obj: ChipPayment) -> str | None:
        return _username(obj.created_by)


class LedgerRowSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="Timeline position (posting number).")
    kind = serializers.CharField(help_text="deal | purchase | void | end-pool | buyback")
    deal = serializers.IntegerField(allow_null=True)
    dealer = serializers.CharField(allow_null=True)
    revision = serializers.IntegerField(allow_null=True, help_text="A deal's current revision (above 1: corrected).")
    changes = serializers.DictField(child=serializers.IntegerField(), help_text="Account -> chips moved.")
    balances = serializers.DictField(child=serializers.IntegerField(), help_text="Each player's chips after this step.")
    pool = serializers.IntegerField()
    issued = serializers.IntegerField(help_text="Chips the bank has issued so far.")


class LedgerTotalsSerializer(serializers.Serializer):
    balances = serializers.DictField(child=serializers.IntegerField())
    pool = serializers.IntegerField()
    issued = serializers.IntegerField()
    purchased = serializers.DictField(child=serializers.IntegerField(),
                                      help_text="Chips bought per player (voided purchases left out).")
    money = serializers.DictField(child=serializers.IntegerField(),
                                  help_text="Money paid or owed per player (voided purchases left out).")
    owed = serializers.DictField(child=serializers.IntegerField(), help_text=(
        "Money still owed for chips per player, before a closing's buy-back is netted against it "
        "(the report's owed_to_banker is what a payment may still settle)."))


class LedgerSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.CharField())
    rows = LedgerRowSerializer(many=True)
    totals = LedgerTotalsSerializer()
    ok = serializers.BooleanField(help_text="The invariant holds (players + pool = chips issued, ...).")
    problems = serializers.ListField(child=serializers.CharField())


class ReplayRequestSerializer(KnownFieldsOnly, serializers.Serializer):
    """A dry run: a record, the rules and the pool to judge it under; nothing is stored."""

    rules = RulesField(required=False, help_text="Defaults to the record's own 'rules'.")
    pool = StrictIntegerField(min_value=0, max_value=MAX_CHIPS, required=False, allow_null=True,
                              unit=CHIPS_UNIT,
                              help_text="Units in the pool before the antes (default: the record's, else 0).")
    first_of_series = StrictBooleanField(required=False, allow_null=True)
    record = RecordField()

    def validate_record(self, record: dict[str, Any]) -> dict[str, Any]:
        """The record's own pool (the default pool) is held to the bounds of ``pool``: the
        engine counts any integer, so 10**30 was judged and settled in 31-digit figures."""
        inner = record.get("pool")
        if is_whole(inner) and not 0 <= inner <= MAX_CHIPS:
            raise serializers.ValidationError(
                f"pool is {inner:,}: a pool holds 0 to {MAX_CHIPS:,} chips.")
        return record
