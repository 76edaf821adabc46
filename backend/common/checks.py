"""System checks of a deployment's settings (``manage.py check --deploy``).

The unsafe-settings check also runs when a production web process starts (config/wsgi.py): a
deployment left with the example's ``change-me`` or a local default would let anyone forge a
paybill confirmation or sign a session, so it refuses to serve instead of warning.
"""

import base64
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured

from common.encryption import key_is_valid

# Values copied from an example instead of chosen: refused wherever a secret is expected.
PLACEHOLDERS = (
    "change-me",
    "changeme",
    "change_me",
    "replace-me",
    "replace_me",
    "replaceme",
    "goes-here",
    "goes_here",
    "your-",
    "your_",
    "placeholder",
    "insecure",  # Django's startproject writes django-insecure-…
)
# Guessable in far fewer tries than a forger can make: the secrets must be at least this long, and a
# value of fewer different characters (40 x "x", "abababab…") is a pattern, not a secret.
SECRET_MIN_LENGTH = 32
DISTINCT_CHARACTERS_MIN = 10
SECRETS = (
    "SECRET_KEY",
    "MPESA_CALLBACK_TOKEN",
    "PAYSTACK_SECRET_KEY",
    "AFRICASTALKING_API_KEY",
    "AFRICASTALKING_CALLBACK_TOKEN",
)
# Daraja's own credentials (its consumer keys are 48 characters, secrets and passkeys 64).
CREDENTIALS = ("MPESA_CONSUMER_KEY", "MPESA_CONSUMER_SECRET", "MPESA_PASSKEY")
CREDENTIAL_MIN_LENGTH = 16
REQUIRED = (*SECRETS, *CREDENTIALS, "MPESA_SHORTCODE")
# Kenyan paybills and tills have 5 to 7 digits.
SHORTCODE_DIGITS = range(5, 8)
# A Fernet key of fewer different bytes (all zero, one byte repeated) is no key.
KEY_DISTINCT_BYTES_MIN = 8
# Daraja refuses to register callback URLs that mention these.
DARAJA_REFUSED_WORDS = ("mpesa", "safaricom")


def _setting_errors(name: str) -> list[CheckMessage]:
    value = str(getattr(settings, name, "") or "")
    if not value:
        return [
            Error(
                f"{name} is not set.",
                hint="Set it in the environment (docs/operations/deployment.md).",
                id="harambee.E001",
            )
        ]
    if value in settings.LOCAL_DEFAULTS.values() or any(word in value.lower() for word in PLACEHOLDERS):
        return [
            Error(
                f"{name} is a placeholder or local default, which anyone can read in the repository.",
                hint="Set the real value (docs/operations/deployment.md).",
                id="harambee.E002",
            )
        ]
    minimum = SECRET_MIN_LENGTH if name in SECRETS else CREDENTIAL_MIN_LENGTH if name in CREDENTIALS else 0
    if len(value) < minimum:
        return [
            Error(
                f"{name} is shorter than {minimum} characters.",
                hint="Use a long random value, e.g. python -c 'import secrets; print(secrets.token_urlsafe(48))'.",
                id="harambee.E003",
            )
        ]
    if minimum and len(set(value)) < DISTINCT_CHARACTERS_MIN:
        return [
            Error(
                f"{name} has fewer than {DISTINCT_CHARACTERS_MIN} different characters: a pattern, not a secret.",
                hint="Use a long random value, e.g. python -c 'import secrets; print(secrets.token_urlsafe(48))'.",
                id="harambee.E006",
            )
        ]
    if name == "MPESA_SHORTCODE" and not (value.isascii() and value.isdigit() and len(value) in SHORTCODE_DIGITS):
        return [
            Error(
                "MPESA_SHORTCODE is not a paybill or till number (5 to 7 digits).",
                hint="Set the organization's shortcode as Safaricom issued it.",
                id="harambee.E007",
            )
        ]
    if name == "PAYSTACK_SECRET_KEY" and value.startswith("sk_test_") and settings.IS_PRODUCTION:
        return [
            Error(
                "PAYSTACK_SECRET_KEY is a test-mode key: no card payment would be real.",
                hint="Set the live secret key (sk_live_…) from Paystack's dashboard.",
                id="harambee.E008",
            )
        ]
    return []


def _key_is_predictable(key: str) -> bool:
    return len(set(base64.urlsafe_b64decode(key))) < KEY_DISTINCT_BYTES_MIN


def _encryption_key_errors() -> list[CheckMessage]:
    """Stored secrets are only as safe as these keys: present, well formed, not the published local one."""
    keys = list(settings.SECRETS_ENCRYPTION_KEYS)
    hint = (
        "Generate one with python -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())' "
        "(docs/operations/secrets.md)."
    )
    if not keys:
        return [Error("SECRETS_ENCRYPTION_KEYS is not set.", hint=hint, id="harambee.E005")]
    if not all(key_is_valid(key) for key in keys):
        return [Error("SECRETS_ENCRYPTION_KEYS holds a malformed Fernet key.", hint=hint, id="harambee.E005")]
    if any(map(_key_is_predictable, keys)):
        return [
            Error(
                "SECRETS_ENCRYPTION_KEYS holds a predictable key (all zero, or a repeated byte).",
                hint=hint,
                id="harambee.E005",
            )
        ]
    if settings.LOCAL_DEFAULTS["SECRETS_ENCRYPTION_KEYS"] in keys:
        return [
            Error(
                "SECRETS_ENCRYPTION_KEYS holds the local default key, which anyone can read in the repository.",
                hint=hint,
                id="harambee.E002",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def unsafe_settings_check(**kwargs: Any) -> list[CheckMessage]:
    """Every secret set, none a placeholder, a local default, short or a pattern, nor a test-mode key in
    production; a shortcode of digits; encryption keys not predictable; callback URLs Daraja accepts."""
    messages = [message for name in REQUIRED for message in _setting_errors(name)]
    messages += _encryption_key_errors()
    callback = f"{settings.MPESA_CALLBACK_BASE_URL} {settings.MPESA_CALLBACK_TOKEN}".lower()
    if any(word in callback for word in DARAJA_REFUSED_WORDS):
        messages.append(
            Error(
                "MPESA_CALLBACK_TOKEN or MPESA_CALLBACK_BASE_URL mentions M-Pesa or Safaricom: Daraja refuses "
                "such callback URLs, so no payment would ever be confirmed.",
                hint="Choose a token (and host) without the words 'mpesa' and 'safaricom'.",
                id="harambee.E004",
            )
        )
    if not settings.MPESA_ALLOWED_IPS:
        messages.append(
            Warning(
                "MPESA_ALLOWED_IPS is empty: M-Pesa callbacks are accepted from any address, and every STK "
                "success is confirmed with an STK query before it is credited.",
                hint="Set MPESA_ALLOWED_IPS to Safaricom's published callback addresses (docs/operations/deployment.md).",
                id="harambee.W002",
            )
        )
    return messages


def refuse_unsafe_settings() -> None:
    """Stop a production process from starting with any error of ``unsafe_settings_check``."""
    if not settings.IS_PRODUCTION:
        return
    errors = [message for message in unsafe_settings_check() if message.is_serious()]
    if errors:
        lines = "\n".join(f"- {error.msg} {error.hint}" for error in errors)
        raise ImproperlyConfigured(f"Refusing to start with unsafe settings (HARAMBEE_ENV=production):\n{lines}")


@register(Tags.security, deploy=True)
def trusted_proxies_check(**kwargs: Any) -> list[CheckMessage]:
    """Behind a balancer every request comes from its address: without ``TRUSTED_PROXIES`` each
    rate limit would count the whole site as one client (ten sign-ups an hour for everyone)."""
    if settings.TRUSTED_PROXIES:
        return []
    return [
        Warning(
            "TRUSTED_PROXIES is empty: rate limits count the address that connects to the app.",
            hint="Behind a load balancer, set TRUSTED_PROXIES to its addresses or networks (docs/operations/deployment.md).",
            id="harambee.W001",
        )
    ]
