"""Admin pages for clubs and their members."""
from __future__ import annotations

from django.contrib import admin

from .models import Club, Member


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0
    fields = ["name", "display_name", "role", "user", "created_at"]
    readonly_fields = ["created_at"]
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "member_count", "created_at"]
    search_fields = ["slug", "name"]
    readonly_fields = ["created_at"]
    inlines = [MemberInline]

    @admin.display(description="members")
    def member_count(self, club: Club) -> int:
        return club.members.count()


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "role", "user", "display_name", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["name", "display_name", "user__username", "club__slug"]
    list_select_related = ["club", "user"]
    autocomplete_fields = ["user"]
    readonly_fields = ["created_at"]
