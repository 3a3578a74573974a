"""Serializers for tokens, clubs and members."""
from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import serializers

from .models import HANDLE_PATTERN, Club, Member


class TokenSerializer(serializers.Serializer):
    """The answer of ``POST /api/v1/auth/token/``."""

    token = serializers.CharField(read_only=True, help_text="Send as `Authorization: Token <token>`.")
    username = serializers.CharField(read_only=True)


class PasswordChangeSerializer(serializers.Serializer):
    """The body of ``POST /api/v1/auth/password/``."""

    old_password = serializers.CharField(write_only=True, trim_whitespace=False,
                                         style={"input_type": "password"})
    new_password = serializers.CharField(write_only=True, trim_whitespace=False, max_length=128,
                                         style={"input_type": "password"})


class ClubSerializer(serializers.ModelSerializer):
    """A club, with the caller's own role in it."""

    role = serializers.SerializerMethodField(help_text="Your role in this club.")
    member_name = serializers.RegexField(
        HANDLE_PATTERN,
        write_only=True,
        required=False,
        help_text="Your seat handle in the new club (default: derived from your username).",
    )

    class Meta:
        model = Club
        fields = ["slug", "name", "created_at", "role", "member_name"]
        read_only_fields = ["created_at"]

    def get_role(self, club: Club) -> str | None:
        member = self.context.get("member")
        if member is not None and member.club_id == club.pk:
            return member.role
        roles: dict[int, str] = self.context.get("roles", {})
        return roles.get(club.pk)

    def validate_slug(self, slug: str) -> str:
        if self.instance is not None and slug != self.instance.slug:
            raise serializers.ValidationError("A club's slug cannot change (it is in every URL).")
        return slug


def handle_from_username(username: str) -> str:
    """A seat handle derived from a username ('Ann.Smith' -> 'ann-smith')."""
    handle = re.sub(r"[^a-z0-9_-]+", "-", username.lower()).strip("-_")[:32]
    return handle or "owner"


class UsernameField(serializers.SlugRelatedField):
    """A login named by its username. A NUL character is refused like any CharField refuses it,
    before the look-up: PostgreSQL cannot hold one in text, even to compare.

    The logins of the whole system are not a club's business: the browsable API shows a text
    box, not a ``<select>`` of every username, and an unknown name is refused in plain words
    (not the model's "Object with username=... does not exist")."""

    default_error_messages = {
        **serializers.SlugRelatedField.default_error_messages,
        "does_not_exist": "No login named '{value}'.",
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("style", {"base_template": "input.html"})
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and "\x00" in data:
            raise serializers.ValidationError("Null characters are not allowed.")
        return super().to_internal_value(data)


class MemberSerializer(serializers.ModelSerializer):
    """A member: a seat name at the table, a role, and optionally a login."""

    user = UsernameField(
        slug_field="username",
        queryset=get_user_model().objects.all(),
        allow_null=True,
        required=False,
        help_text="Username of the login linked to this member, or null for a player without one.",
    )

    class Meta:
        model = Member
        fields = ["name", "display_name", "role", "user", "created_at"]
        read_only_fields = ["created_at"]

    def validate_name(self, name: str) -> str:
        if self.instance is not None and name != self.instance.name:
            raise serializers.ValidationError("A member's name cannot change (deal records use it).")
        club: Club = self.context["club"]
        if self.instance is None and Member.objects.filter(club=club, name=name).exists():
            raise serializers.ValidationError(f"This club already has a member named '{name}'.")
        return name

    def validate_user(self, user: Any) -> Any:
        club: Club = self.context["club"]
        if user is not None:
            taken = Member.objects.filter(club=club, user=user)
            if self.instance is not None:
                taken = taken.exclude(pk=self.instance.pk)
            if taken.exists():
                raise serializers.ValidationError(
                    f"'{user.username}' is already a member of this club as '{taken.get().name}'."
                )
        return user

    def create(self, validated_data: dict[str, Any]) -> Member:
        if not validated_data.get("display_name"):
            validated_data["display_name"] = validated_data["name"].title()
        return super().create(validated_data)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        member = self.instance
        if member is not None and member.leaves_club_without_owner(
                role=attrs.get("role", member.role), user=attrs.get("user", member.user)):
            raise serializers.ValidationError(
                {"role": Member.KEEP_AN_OWNER})
        return attrs
