"""Admin pages for clubs and their members.

The admin keeps the rules the REST API keeps: a member's name never changes (deal records use
it), members are never deleted (unlink the login instead), and a club always keeps an owner who
can log in, even when a login is switched off on the user pages.
"""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.http import HttpRequest

from .models import Club, Member, Role, lock_club


class MemberForm(forms.ModelForm):
    class Meta:
        model = Member
        fields = ["club", "name", "display_name", "role", "user"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        member = self.instance
        if member.pk is None or "role" in self.errors or "user" in self.errors:
            return data  # a new member, or a field already refused: nothing more to say
        lock_club(member.club_id)  # the admin saves in the same transaction
        if member.leaves_club_without_owner(role=data.get("role", member.role),
                                            user=data.get("user")):
            raise forms.ValidationError(Member.KEEP_AN_OWNER)
        return data


class MemberInline(admin.TabularInline):
    """The club's members, to look at; each is changed on its own page."""

    model = Member
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = True
    fields = ["name", "display_name", "role", "user", "created_at"]
    readonly_fields = fields


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
    form = MemberForm
    list_display = ["name", "club", "role", "user", "display_name", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["name", "display_name", "user__username", "club__slug"]
    list_select_related = ["club", "user"]
    autocomplete_fields = ["user"]

    def get_readonly_fields(self, request: HttpRequest, obj: Member | None = None) -> list[str]:
        return ["club", "name", "created_at"] if obj is not None else ["created_at"]

    def has_delete_permission(self, request: HttpRequest, obj: Member | None = None) -> bool:
        return False  # deal records name members: unlink the login instead


class OwnerKeepingUserChangeForm(UserChangeForm):
    """Switching a login off is refused while it is some club's last owner who can log in."""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        user = self.instance
        if user.pk is not None and user.is_active and data.get("is_active") is False:
            stranded = sorted(m.club.slug for m in Member.objects.filter(
                user=user, role=Role.OWNER).select_related("club")
                if m.leaves_club_without_owner(role=m.role, user=None))
            if stranded:
                raise forms.ValidationError(
                    f"{user.get_username()} is the last owner with a login of "
                    f"{', '.join(stranded)}: give the club another owner first.")
        return data


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class OwnerKeepingUserAdmin(UserAdmin):
    form = OwnerKeepingUserChangeForm
