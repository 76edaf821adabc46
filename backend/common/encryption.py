"""Secrets at rest: values third parties gave us (an organization's Daraja consumer secret and
passkey) are stored encrypted, never in clear.

Fernet (AES-128-CBC with an HMAC) under the keys in ``SECRETS_ENCRYPTION_KEYS``: the first key
encrypts, every key decrypts (``MultiFernet``), so a new key is put first, ``manage.py
rotate_secrets_key`` re-encrypts every stored secret with it, and the old key can then be
dropped. The keys live in the environment, not in the database, so a database backup alone holds
nothing readable.
"""

from collections.abc import Callable
from functools import cache
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.apps import apps
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import models, transaction


class SecretUnreadable(ImproperlyConfigured):
    """A stored secret none of the configured keys opens: a key was dropped before rotation."""


@cache
def _fernet(keys: tuple[str, ...]) -> MultiFernet:
    if not keys:
        raise ImproperlyConfigured("SECRETS_ENCRYPTION_KEYS is empty: stored secrets cannot be encrypted.")
    try:
        return MultiFernet([Fernet(key) for key in keys])
    except ValueError:
        raise ImproperlyConfigured(
            "SECRETS_ENCRYPTION_KEYS holds a malformed key: each must be 32 url-safe base64-encoded bytes "
            "(python -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())')."
        ) from None


def _current() -> MultiFernet:
    return _fernet(tuple(settings.SECRETS_ENCRYPTION_KEYS))


def key_is_valid(key: str) -> bool:
    try:
        Fernet(key)
    except ValueError:
        return False
    return True


def encrypt(plaintext: str) -> str:
    return _current().encrypt(plaintext.encode()).decode()


def _unreadable() -> SecretUnreadable:
    # Never the ciphertext or anything derived from it in the message.
    return SecretUnreadable(
        "A stored secret cannot be decrypted with any key in SECRETS_ENCRYPTION_KEYS: keep the old key "
        "in the list until `manage.py rotate_secrets_key` has run (docs/operations/secrets.md)."
    )


def decrypt(ciphertext: str) -> str:
    try:
        return _current().decrypt(ciphertext.encode()).decode()
    except InvalidToken:
        raise _unreadable() from None


def reencrypt(ciphertext: str) -> str:
    """``ciphertext`` encrypted again with the first key (whichever key opens it)."""
    try:
        return _current().rotate(ciphertext.encode()).decode()
    except InvalidToken:
        raise _unreadable() from None


class EncryptedTextField(models.TextField):
    """A text column holding Fernet ciphertext; the model attribute holds the plaintext.

    An empty string stays empty (nothing to hide, and "not set" stays visible to queries). The
    ciphertext differs on every save, so the column cannot be looked up or made unique.
    """

    description = "Text encrypted at rest"

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> str | None:
        if value is None or value == "":
            return value
        return decrypt(value)

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        if value is None or value == "":
            return value
        return encrypt(str(value))


def encrypted_fields() -> list[tuple[type[models.Model], EncryptedTextField]]:
    return [
        (model, field)
        for model in apps.get_models()
        for field in model._meta.concrete_fields
        if isinstance(field, EncryptedTextField)
    ]


# Secrets held encrypted outside an EncryptedTextField (e.g. the credentials a change request holds
# while it waits for approval, inside its JSON payload): each holder re-encrypts its own and answers
# how many values it rewrote. Registered by the app that stores them, in its AppConfig.ready().
_HOLDERS: list[Callable[[], int]] = []


def register_secret_holder(reencrypt_held: Callable[[], int]) -> None:
    if reencrypt_held not in _HOLDERS:
        _HOLDERS.append(reencrypt_held)


def secrets_reencrypt() -> int:
    """Encrypt every stored secret again with the first key; the number of values rewritten.

    Each row is read (decrypted with whichever key opens it) and written back (encrypted with the
    first key) under a row lock, so a secret replaced meanwhile is not overwritten with its old value.
    Then each registered holder does the same with the secrets it keeps.
    """
    rewritten = sum(reencrypt_held() for reencrypt_held in _HOLDERS)
    for model, field in encrypted_fields():
        with transaction.atomic():
            rows = (
                model._default_manager.select_for_update()
                .exclude(**{field.attname: ""})
                .exclude(**{f"{field.attname}__isnull": True})
            )
            for pk, plaintext in rows.values_list("pk", field.attname):
                model._default_manager.filter(pk=pk).update(**{field.attname: plaintext})
                rewritten += 1
    return rewritten
