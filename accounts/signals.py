"""Revoking API tokens when a password changes, whichever way it changes.

Tokens never expire, so a token must not outlive the password that got it: the REST password
change, the admin's forms, ``manage.py changepassword``, ``set_password()`` + ``save()`` in any
code all end in a save of the user, and that save is where the tokens go.
"""
from __future__ import annotations

from typing import Any

from rest_framework.authtoken.models import Token


def revoke_tokens_on_password_change(sender: type, instance: Any, raw: bool = False,
                                     update_fields: frozenset[str] | None = None,
                                     **kwargs: Any) -> None:
    """``pre_save`` of the user model: when the stored password hash is about to change, delete
    the user's tokens. Not on creating a user, not on a save that leaves the password alone (e.g.
    ``last_login`` on login), and not when Django re-hashes the same password on login (a hasher
    upgrade: ``check_password`` clears ``_password`` and saves only ``password``)."""
    if raw or instance._state.adding or instance.pk is None:
        return
    if update_fields is not None and "password" not in update_fields:
        return
    rehash = getattr(instance, "_password", None) is None and update_fields == {"password"}
    if rehash:
        return
    stored = sender._base_manager.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is not None and stored != instance.password:
        Token.objects.filter(user_id=instance.pk).delete()
