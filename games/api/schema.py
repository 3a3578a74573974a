"""Serializers that *describe* the public JSON shapes in the OpenAPI schema.

The deal record and the verdict are validated by the rules engine, not by DRF (so that a bad
record is answered with the engine's errors: action index, player, card). These serializers
exist so that drf-spectacular documents the shapes of ``deal-record.md`` exactly; request
fields use :class:`RecordField` / :class:`RulesField`, JSON fields documented with them.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers

from games.rules.options import _COMMON, ANTES, BOOLEANS, CHOICES, INTEGERS, PRESETS
from games.rules.phases import ACTIONS as RECORD_ACTIONS
from games.rules.phases import DECLARATION_ALIASES, IRREGULARITY_KINDS
from games.rules.version import RECORD_FORMAT
from games.services.limits import MAX_REASON_CHARS
from loo_ledger.fields import KnownFieldsOnly
from loo_ledger.parsers import MAX_DEPTH, unstorable

CARD_HELP = "A card: rank A K Q J T 9 ... 2 (10 accepted) and suit C D H S, e.g. 'TH', 'JC'."
ACTIONS = [*RECORD_ACTIONS, *DECLARATION_ALIASES]  # the engine's: one list, and "fold" (a pass)
#: the engine's irregularity kinds, one list (it also takes a play rule's name, e.g. a revoke
#: the table caught and corrected), in alphabetical order so the enum reads the same each time
IRREGULARITIES = sorted(IRREGULARITY_KINDS)


class CardListField(serializers.ListField):
    child = serializers.CharField(help_text=CARD_HELP)


class ActionSchema(serializers.Serializer):
    player = serializers.CharField(help_text="A seat.")
    action = serializers.ChoiceField(choices=ACTIONS)
    card = serializers.CharField(required=False, help_text=f"For 'play'. {CARD_HELP}")
    say = serializers.ChoiceField(choices=["pam-be-civil"], required=False)
    discard = CardListField(required=False, help_text="For 'exchange'.")
    draw = CardListField(required=False, help_text="For 'exchange', unless the record gives 'stock'.")
    kind = serializers.ChoiceField(choices=IRREGULARITIES, required=False, help_text="For 'irregularity'.")
    evidence = serializers.CharField(required=False, help_text="For 'irregularity': what the table saw (the violation's evidence).")


class ResultSchema(serializers.Serializer):
    tricks = serializers.DictField(child=serializers.IntegerField(min_value=0), help_text="Seat -> tricks taken.")
    winners = serializers.ListField(child=serializers.CharField(), required=False,
                                    help_text="Optional: each trick's winner, in order.")


def _rule_option_fields() -> dict[str, serializers.Field]:
    """Every rule option the engine knows, typed from its own tables (``games.rules.options``),
    so the schema lists each option and each value the engine takes, and no other."""
    fields: dict[str, serializers.Field] = {
        "preset": serializers.ChoiceField(choices=list(PRESETS), required=False,
                                          help_text="A named game; options beside it override its defaults."),
    }
    for name, values in CHOICES.items():
        fields[name] = serializers.ChoiceField(choices=list(values), required=False)
    for name in BOOLEANS:
        fields[name] = serializers.BooleanField(required=False)
    for name in INTEGERS:  # (null: the default, where the default is "not set")
        fields[name] = serializers.IntegerField(required=False, min_value=0,
                                                allow_null=_COMMON.get(name, 0) is None)
    for name in ANTES:
        fields[name] = serializers.DictField(
            child=serializers.IntegerField(min_value=0), required=False,
            allow_null=_COMMON.get(name, 0) is None,
            help_text='Units paid before the deal: {"dealer": 3, "each": 0} (a whole number n is '
                      '{"dealer": n, "each": 0}).')
    return fields


#: a preset and/or game plus house options (option names of loo-rules.md)
RulesSchema = type("RulesSchema", (serializers.Serializer,), {
    **_rule_option_fields(),
    "__doc__": "A preset and/or game plus house options (option names of loo-rules.md).",
    "__module__": __name__,
    "Meta": type("Meta", (), {"ref_name": "Rules"}),
})


class DealRecordSchema(serializers.Serializer):
    """A deal record, format loo-deal/1 (see deal-record.md)."""

    format = serializers.ChoiceField(choices=[RECORD_FORMAT], default=RECORD_FORMAT,
                                     help_text="The record format; another value is refused.")
    seats = serializers.ListField(child=serializers.CharField(), required=False,
                                  help_text="Players clockwise; inside a session the session's seats apply.")
    dealer = serializers.CharField(required=False, help_text="Inside a session: must be the dealer whose turn it is (filled in when left out).")
    pool = serializers.IntegerField(required=False, help_text="Units before this deal's antes; inside a session must match the ledger.")
    number = serializers.IntegerField(required=False, min_value=1)
    turnup = serializers.CharField(required=False, help_text=CARD_HELP)
    hands = serializers.DictField(child=CardListField(), required=False)
    miss = CardListField(required=False)
    stock = CardListField(required=False, help_text="Top card first.")
    actions = ActionSchema(many=True, required=False)
    result = ResultSchema(required=False, help_text="Result-only record: trick counts instead of plays (status 'unverified').")
    rules = RulesSchema(required=False, help_text="Standalone replays only.")
    final = serializers.BooleanField(required=False, help_text="The final deal of `end_pool: final-deal` (everybody stands, no miss, no ante).")
    redeal = serializers.BooleanField(required=False, help_text="Poker-Loo: a redeal by the same dealer (no antes); inside a session the server sets it from `next.sits_out`.")
    sits_out = serializers.ListField(child=serializers.CharField(), required=False,
                                     help_text="With `redeal`: who sits the redeal out.")

    class Meta:
        ref_name = "DealRecord"


class TrickSchema(serializers.Serializer):
    number = serializers.IntegerField()
    leader = serializers.CharField()
    cards = serializers.DictField(child=serializers.CharField())
    winner = serializers.CharField()


class ViolationSchema(serializers.Serializer):
    player = serializers.CharField()
    rule = serializers.CharField(help_text="revoke, failed-to-head, failed-to-trump, ... or an irregularity kind.")
    trick = serializers.IntegerField(allow_null=True)
    card = serializers.CharField(allow_null=True)
    evidence = serializers.CharField()
    penalty = serializers.CharField()


class SettlementSchema(serializers.Serializer):
    pool_before = serializers.IntegerField()
    antes = serializers.DictField(child=serializers.IntegerField())
    pool = serializers.IntegerField()
    payouts = serializers.DictField(child=serializers.IntegerField())
    loo_payments = serializers.DictField(child=serializers.IntegerField())
    penalties = serializers.DictField(child=serializers.IntegerField())
    pool_after = serializers.IntegerField()
    deltas = serializers.DictField(child=serializers.IntegerField(), help_text="Every seat's chip change.")
    transfers = serializers.DictField(child=serializers.IntegerField(), required=False,
                                      help_text="Direct payments between players (`flush_pays: everyone-pays-holder`).")


class NextSchema(serializers.Serializer):
    dealer = serializers.CharField()
    pool = serializers.IntegerField()
    first_of_series = serializers.BooleanField()


ENDINGS = ["played", "dealer-takes", "conceded", "lone-stander", "nobody-stands", "flush",
           "redeal", "misdeal", "thrown-in"]


class FlushSchema(serializers.Serializer):
    player = serializers.CharField()
    cards = CardListField()


class RedealSchema(serializers.Serializer):
    sits_out = serializers.ListField(child=serializers.CharField())


class EngineSchema(serializers.Serializer):
    """Which engine judged a deal, and by which rules: enough to judge it again."""

    version = serializers.CharField(help_text="The engine's version (`games.rules.ENGINE_VERSION`).")
    rules = serializers.DictField(help_text="Every option of the rules it was judged by, "
                                  "resolved (`RuleSet.to_options()`).")

    class Meta:
        ref_name = "VerdictEngine"


class VerdictSchema(serializers.Serializer):
    """The engine's verdict on a deal (deal-record.md), as the API answers it: a deal's, stored,
    and the dry run's. It carries no ``number`` (the engine's ``replay_session`` and its CLI
    number the deals of a file they replay): a deal's number is its row's."""

    status = serializers.ChoiceField(choices=["valid", "irregular", "unverified"])
    pool_kind = serializers.ChoiceField(choices=["simple", "double"], allow_null=True,
                                        help_text="Three-card Loo's pool; null in the other games.")
    trumps = serializers.CharField(allow_null=True)
    dealer = serializers.CharField()
    standers = serializers.ListField(child=serializers.CharField())
    tricks = TrickSchema(many=True)
    tricks_won = serializers.DictField(child=serializers.IntegerField())
    violations = ViolationSchema(many=True)
    settlement = SettlementSchema()
    ended = serializers.ChoiceField(choices=ENDINGS, help_text="How the deal ended.")
    next = NextSchema()
    engine = EngineSchema()
    defender = serializers.CharField(required=False, help_text="A dealer who defended the pool.")
    flushes = FlushSchema(many=True, required=False)
    redeal = RedealSchema(required=False, help_text="Poker-Loo: the next deal is a redeal by the same dealer.")

    class Meta:
        ref_name = "Verdict"


class ProblemErrorSchema(serializers.Serializer):
    field = serializers.CharField(required=False, allow_null=True)
    index = serializers.IntegerField(required=False, allow_null=True, help_text="Index into the record's actions.")
    player = serializers.CharField(required=False, allow_null=True)
    card = serializers.CharField(required=False, allow_null=True)
    deal = serializers.IntegerField(required=False, help_text="The deal concerned (corrections).")
    message = serializers.CharField()


class ProblemSchema(serializers.Serializer):
    """RFC 9457 problem details (application/problem+json)."""

    type = serializers.CharField()
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    instance = serializers.CharField(allow_null=True)
    code = serializers.CharField()
    errors = ProblemErrorSchema(many=True, required=False)

    class Meta:
        ref_name = "Problem"


def problems(*statuses: int, described: Mapping[int, str] | None = None) -> dict[int, Any]:
    """``extend_schema(responses=...)`` entries for these error statuses; ``described`` adds
    statuses with a description (which problem ``code`` answers and when)."""
    out: dict[int, Any] = {s: ProblemSchema for s in statuses}
    for status, text in (described or {}).items():
        out[status] = OpenApiResponse(response=ProblemSchema, description=text)
    return out


class JSONObjectField(serializers.JSONField):
    """A JSON object a body carries (a deal record, the rules): any object here; the engine
    judges the rest.

    A form post (the browsable API's form, ``curl -d``) carries it as JSON text, which this
    field parses itself, past the JSON body parser: so it holds it to the parser's check
    (``unstorable``: no NUL character, no lone surrogate, nesting no deeper than
    ``MAX_DEPTH``), else such a record was stored or a 500 (PostgreSQL's "unsupported Unicode
    escape sequence"; a ``RecursionError`` on deep nesting)."""

    #: how messages name what the field holds, and what they say of a value that is no object
    what = "The value"
    not_an_object = "A JSON object is expected."

    def to_internal_value(self, data: Any) -> Any:
        try:
            value = super().to_internal_value(data)
            problem = unstorable(value, MAX_DEPTH)
        except RecursionError:  # (json.loads gave up first: deeper still)
            problem = f"nested deeper than {MAX_DEPTH} levels"
        if problem is not None:
            raise serializers.ValidationError(f"{self.what} is refused: {problem}.")
        if not isinstance(value, dict):
            raise serializers.ValidationError(self.not_an_object)
        return value


@extend_schema_field(DealRecordSchema)
class RecordField(JSONObjectField):
    """A deal record."""

    what = "The record"
    not_an_object = "A deal record is a JSON object."


@extend_schema_field(RulesSchema)
class RulesField(JSONObjectField):
    """Rules: a preset and house options (the engine names any bad option). In a form post,
    JSON text (``rules={"preset": "three-card"}``), which was refused as no object."""

    what = "The rules"
    not_an_object = 'Rules are a JSON object, e.g. {"preset": "three-card"}.'


@extend_schema_field(VerdictSchema)
class VerdictField(serializers.JSONField):
    pass


# --- answers documented for clients: closing, reopening, the closings log, import jobs --------

class EndPoolSchema(serializers.Serializer):
    mode = serializers.CharField(help_text="The rules' `end_pool`: `split` or `final-deal`.")
    pool = serializers.IntegerField(help_text="Units in the pool at the close.")
    eldest = serializers.CharField(help_text="Who takes the first odd unit.")
    shares = serializers.DictField(child=serializers.IntegerField(), help_text="Seat -> units.")


class BankerLineSchema(serializers.Serializer):
    """One player's account with the banker (minor units): `banker_pays` = `buyback` - `owed`."""

    player = serializers.CharField()
    owed = serializers.IntegerField(help_text="Still owed for chips bought on credit.")
    buyback = serializers.IntegerField(help_text="What the banker pays for the chips returned.")
    banker_pays = serializers.IntegerField(help_text="Negative: the player pays the banker.")
    explanation = serializers.CharField()


class TransferSchema(serializers.Serializer):
    payer = serializers.CharField()
    payee = serializers.CharField()
    amount = serializers.IntegerField(help_text="Minor units.")
    explanation = serializers.CharField()


# The bodies of close and reopen: ``games.reports.api.reason_of`` reads them, and takes these
# fields as the only ones it knows.
class CloseBodySchema(KnownFieldsOnly, serializers.Serializer):
    """A close's body: an optional reason; any other key is a 400."""

    reason = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=MAX_REASON_CHARS,
        help_text="Why (kept in the closings log and the session file's close line); null or "
                  "left out: no reason.")

    class Meta:
        ref_name = "Close"  # the request component: CloseRequest


class ReopenBodySchema(KnownFieldsOnly, serializers.Serializer):
    """A reopen's body: the reason, required; any other key is a 400."""

    reason = serializers.CharField(help_text="Why the session is reopened (required; logged).")

    class Meta:
        ref_name = "Reopen"  # the request component: ReopenRequest


class CloseAnswerSchema(serializers.Serializer):
    """The settlement a close answers (docs/settlement.md#closing-a-session)."""

    session = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["closed"])
    closed_at = serializers.DateTimeField()
    end_pool = EndPoolSchema()
    returned = serializers.DictField(child=serializers.IntegerField(), help_text="Chips bought back.")
    results = serializers.DictField(child=serializers.IntegerField(), help_text="Minor units.")
    currency = serializers.CharField()
    through_banker = BankerLineSchema(many=True)
    transfers = TransferSchema(many=True, help_text="The fewest direct transfers.")
    warnings = serializers.ListField(child=serializers.CharField())

    class Meta:
        ref_name = "CloseAnswer"


class ReopenAnswerSchema(serializers.Serializer):
    session = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["open"])
    reopened_by = serializers.CharField()
    reopened_at = serializers.DateTimeField()
    reason = serializers.CharField()
    reversing_postings = serializers.ListField(child=serializers.IntegerField())

    class Meta:
        ref_name = "ReopenAnswer"


class ClosingSchema(serializers.Serializer):
    """One close or reopen of a session."""

    action = serializers.ChoiceField(choices=["close", "reopen"])
    at = serializers.DateTimeField()
    by = serializers.CharField(allow_null=True)
    reason = serializers.CharField()
    end_pool_mode = serializers.CharField(help_text="A close's end-pool rule; empty for a reopen.")
    end_pool = serializers.IntegerField()
    shares = serializers.DictField(child=serializers.IntegerField())
    returned = serializers.DictField(child=serializers.IntegerField())
    warnings = serializers.ListField(child=serializers.CharField())
    postings = serializers.ListField(child=serializers.IntegerField(), help_text="Ledger postings made (reversed, for a reopen).")

    class Meta:
        ref_name = "Closing"


class ImportErrorSchema(serializers.Serializer):
    """One bad line of a session file."""

    line = serializers.IntegerField(help_text="Line number in the file, from 1.")
    message = serializers.CharField()
    field = serializers.CharField(required=False)
    deal = serializers.IntegerField(required=False, help_text="The deal the line records.")
    index = serializers.IntegerField(required=False, allow_null=True, help_text="From the engine: index into the record's actions.")
    player = serializers.CharField(required=False, allow_null=True)
    card = serializers.CharField(required=False, allow_null=True)
    code = serializers.CharField(help_text="Machine-readable reason, as a 400's `errors[].code` "
                                 "(`ProblemErrorItem`): the engine's `invalid`/`impossible`, "
                                 "`mismatch`, `insufficient-chips`, else `invalid`; "
                                 "`unchecked` where the file was checked no further (past the "
                                 "error cap, or lines after a bad deal line).")


class ImportJobSchema(serializers.Serializer):
    """An import job (docs/settlement.md#imports-json-lines-session-files)."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["queued", "validating", "storing", "done", "failed"])
    filename = serializers.CharField()
    total = serializers.IntegerField(help_text="Deal lines in the file.")
    done = serializers.IntegerField(help_text="Deal lines validated (then stored).")
    progress = serializers.CharField(help_text="`done/total`.")
    errors = ImportErrorSchema(many=True)
    detail = serializers.CharField()
    attempts = serializers.IntegerField()
    session = serializers.IntegerField(allow_null=True, help_text="The session stored, once done.")
    report = serializers.URLField(allow_null=True, help_text="That session's report.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    url = serializers.URLField()

    class Meta:
        ref_name = "ImportJob"
