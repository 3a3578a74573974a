"""Serializers for tokens, clubs and members."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.validators import UniqueValidator

from games.rules.errors import shown
from loo_ledger.fields import KnownFieldsOnly, as_written

from .models import HANDLE_PATTERN, RESERVED_HANDLES, Club, Member, Role, reserved_handle_validator


class TokenSerializer(serializers.Serializer):
    """The answer of ``POST /api/v1/auth/token/``."""

    token = serializers.CharField(read_only=True, help_text="Send as `Authorization: Token <token>`.")
    username = serializers.CharField(read_only=True)


class PasswordChangeSerializer(KnownFieldsOnly, serializers.Serializer):
    """The body of ``POST /api/v1/auth/password/``."""

    old_password = serializers.CharField(write_only=True, trim_whitespace=False,
                                         style={"input_type": "password"})
    new_password = serializers.CharField(write_only=True, trim_whitespace=False, max_length=128,
                                         style={"input_type": "password"})


def link(context: Mapping[str, Any], name: str, **kwargs: Any) -> str:
    """The URL named ``name``: absolute when the serializer has the request, else the path."""
    path = reverse(name, kwargs=kwargs)
    request = context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


class LinksField(serializers.Field):
    """Read only: ``{key: URL}`` of named routes for the object, which the browsable API shows
    as links. ``links`` maps each key to its URL name and a description (the schema's);
    ``url_kwargs`` gives the routes' arguments for an object; the schema names the object
    ``ref_name``."""

    def __init__(self, ref_name: str, links: Mapping[str, tuple[str, str]],
                 url_kwargs: Callable[[Any], dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(read_only=True, source="*", **kwargs)
        self.links, self.url_kwargs = links, url_kwargs
        extend_schema_field({  # one component, answers only (a request never sends links)
            "type": "object",
            "description": "Where to go from here (the browsable API shows them as links).",
            "properties": {key: {"type": "string", "format": "uri", "description": text}
                           for key, (_, text) in links.items()},
            "required": list(links),
        }, component_name=ref_name)(self)

    def to_representation(self, value: Any) -> dict[str, str]:
        kwargs = self.url_kwargs(value)
        return {key: link(self.context, name, **kwargs) for key, (name, _) in self.links.items()}


SLUG_TAKEN = "This slug is taken by another club; choose another."


class ClubSerializer(KnownFieldsOnly, serializers.ModelSerializer):
    """A club, with the caller's own role in it and links to what hangs off it."""

    role = serializers.SerializerMethodField(help_text="Your role in this club.")
    links = LinksField("ClubLinks", {
        "self": ("club-detail", "This club."),
        "sessions": ("session-list", "Its sessions; POST opens one."),
        "members": ("member-list", "Its members."),
        "results": ("club-results-api", "Each player's results over its closed sessions."),
        "imports": ("import-list", "Session-file imports (scorers and owners)."),
        "page": ("club-page", "The club's web page (browser login)."),
    }, lambda club: {"club": club.slug})
    member_name = serializers.RegexField(
        HANDLE_PATTERN,
        write_only=True,
        required=False,
        validators=[reserved_handle_validator],
        help_text="Your seat handle in the new club (default: derived from your username).",
    )

    class Meta:
        model = Club
        fields = ["slug", "name", "created_at", "role", "member_name", "links"]
        read_only_fields = ["created_at"]

    def get_fields(self) -> dict[str, serializers.Field]:
        """A slug taken is a 400 on ``slug`` in words (the model's own said "club with this slug
        already exists."); two requests taking it at once: ``club_create``'s 409."""
        fields = super().get_fields()
        for validator in fields["slug"].validators:
            if isinstance(validator, UniqueValidator):
                validator.message = SLUG_TAKEN
        return fields

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


class ClubUpdateSerializer(ClubSerializer):
    """A club as a PUT or PATCH takes it: its name. The slug names the club in its URL and never
    changes, so a PUT may leave it out (sent, it must be the club's own); ``member_name`` is the
    creator's seat in a new club, so an update has no such field."""

    member_name = None  # type: ignore[assignment]  # (None removes a parent's declared field)

    class Meta(ClubSerializer.Meta):
        fields = ["slug", "name", "created_at", "role", "links"]
        extra_kwargs = {"slug": {"required": False}}


def handle_from_username(username: str) -> str:
    """A seat handle derived from a username ('Ann.Smith' -> 'ann-smith')."""
    handle = re.sub(r"[^a-z0-9_-]+", "-", username.lower()).strip("-_")[:32]
    if handle in RESERVED_HANDLES:  # a login named "Club" is not the club
        return f"{handle}-owner"
    return handle or "owner"


class UsernameField(serializers.SlugRelatedField):
    """A login named by its username, as text: a number (a user's id, as REST clients often name
    a related object) would be looked up as the username it reads as, another login. A NUL
    character is refused like any CharField refuses it, before the look-up: PostgreSQL cannot
    hold one in text, even to compare.

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
        if not isinstance(data, str):  # a user's id (5) would find the login named "5"
            raise serializers.ValidationError(
                f'{self.field_name} is a login\'s username, written as text such as "ann" (or null '
                f"for none), not {as_written(data)}.")
        if "\x00" in data:
            raise serializers.ValidationError("Null characters are not allowed.")
        return super().to_internal_value(data)


class MemberSerializer(KnownFieldsOnly, serializers.ModelSerializer):
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
            raise serializers.ValidationError(f"This club already has a member named '{shown(name, bare=True)}'.")
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
        if member is None:
            return attrs
        role, user = attrs.get("role", member.role), attrs.get("user", member.user)
        if member.leaves_club_without_owner(role=role, user=user):
            # the field whose change left no owner: the role stepped down, else the login
            field = "role" if role != Role.OWNER else "user"
            raise serializers.ValidationError({field: Member.KEEP_AN_OWNER})
        return attrs


class MemberUpdateSerializer(MemberSerializer):
    """A member as a PUT or PATCH takes it: display name, role and login. The name is the
    member's seat in every deal record and never changes, so a PUT may leave it out (sent, it
    must be the member's own)."""

    class Meta(MemberSerializer.Meta):
        extra_kwargs = {"name": {"required": False}}
