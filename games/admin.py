"""Admin pages for sessions, deals and purchases (and their voids); the ledger is read-only.

Everything that moves chips (deals, corrections, purchases) goes through ``games.services`` so
the ledger stays exact: here only a session's name and date can be edited.
"""
from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import (
    ChipPayment,
    ChipPurchase,
    Deal,
    DealRevision,
    GameSession,
    IdempotencyKey,
    LedgerEntry,
    PurchaseVoid,
)
from .services.ledger import session_lock


class ReadOnlyAdminMixin:
    """No add, change or delete: a view of the books."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class DealInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Deal
    fields = ["number", "current", "posting", "created_at"]
    readonly_fields = fields
    show_change_link = True
    extra = 0


class PurchaseInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = ChipPurchase
    fields = ["player", "chips", "money", "paid", "voided", "created_by", "created_at"]
    readonly_fields = fields
    extra = 0

    @admin.display(description="voided")
    def voided(self, purchase: ChipPurchase) -> str:
        """The void's reason (empty while the purchase stands)."""
        void = getattr(purchase, "void", None)
        return f"voided (posting {void.posting}): {void.reason}" if void else ""


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = ["id", "club", "date", "name", "status", "banker", "chip_value", "currency", "deal_count"]
    list_filter = ["status", "club", "date"]
    search_fields = ["name", "club__slug"]
    list_select_related = ["club"]
    date_hierarchy = "date"
    readonly_fields = [
        "club", "seats", "first_dealer", "rules", "resolved_rules", "banker", "chip_value",
        "currency", "allow_credit", "status", "created_by", "created_at", "closed_at",
    ]
    inlines = [PurchaseInline, DealInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # sessions are opened through the API: the engine validates the rules

    def save_model(self, request: HttpRequest, obj: GameSession, form: Any, change: bool) -> None:
        """Write only the fields the form edits (name, date), under the session's lock. A whole
        save wrote every column as the page read it, so a close or reopen committed meanwhile
        was undone: the session open again with every chip bought back, or closed with its
        closing reversed in the ledger."""
        session_lock(obj)  # (the admin's change view runs in a transaction)
        obj.save(update_fields=[name for name in form.changed_data if name in ("name", "date")])

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="deals")
    def deal_count(self, session: GameSession) -> int:
        return session.deals.count()


class RevisionInline(ReadOnlyAdminMixin, admin.StackedInline):
    model = DealRevision
    fields = ["revision", "cause", "reason", "status", "dealer", "pool_before", "pool_after",
              "record", "verdict", "created_by", "created_at"]
    readonly_fields = fields
    extra = 0


@admin.register(Deal)
class DealAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["session", "number", "dealer", "status", "revision"]
    list_filter = ["current__status", "session__club"]
    list_select_related = ["session", "current"]
    search_fields = ["session__id"]
    inlines = [RevisionInline]

    @admin.display(description="dealer")
    def dealer(self, deal: Deal) -> str:
        return deal.current.dealer if deal.current else ""

    @admin.display(description="status")
    def status(self, deal: Deal) -> str:
        return deal.current.status if deal.current else ""

    @admin.display(description="revision")
    def revision(self, deal: Deal) -> int:
        return deal.current.revision if deal.current else 0


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["session", "seq", "posting", "kind", "account", "chips", "deal", "memo", "created_at"]
    list_filter = ["kind", "session__club"]
    search_fields = ["account", "memo"]
    list_select_related = ["session", "deal"]


@admin.register(ChipPurchase)
class ChipPurchaseAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["session", "player", "chips", "money", "paid", "voided", "created_by",
                    "created_at"]
    list_filter = ["paid", "session__club", ("void", admin.EmptyFieldListFilter)]
    list_select_related = ["session", "void"]

    @admin.display(description="voided", boolean=True)
    def voided(self, purchase: ChipPurchase) -> bool:
        return hasattr(purchase, "void")


@admin.register(PurchaseVoid)
class PurchaseVoidAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Voids of purchases keyed in by mistake: append-only, made through the API only."""

    list_display = ["purchase", "session", "player", "chips", "posting", "reason", "created_by",
                    "created_at"]
    list_filter = ["purchase__session__club"]
    list_select_related = ["purchase__session", "created_by"]
    search_fields = ["purchase__player", "reason"]

    @admin.display(description="session")
    def session(self, void: PurchaseVoid) -> GameSession:
        return void.purchase.session

    @admin.display(description="player")
    def player(self, void: PurchaseVoid) -> str:
        return void.purchase.player

    @admin.display(description="chips")
    def chips(self, void: PurchaseVoid) -> int:
        return void.purchase.chips


@admin.register(ChipPayment)
class ChipPaymentAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["session", "player", "money", "memo", "created_by", "created_at"]
    list_filter = ["session__club"]


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["club", "user", "key", "state", "response_status", "created_at"]
    list_filter = ["state"]
