"""Account field rules, with the exact messages the sign-up and password screens show.

Each ``check_*`` returns the message for a bad value, or ``None`` when the value is fine.
The React forms apply the same rules live (frontend/src/features/accounts/rules.ts).
"""

import re
import unicodedata
from typing import TYPE_CHECKING

import phonenumbers
from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

# +254 or 0, then 1 or 7, then eight digits.
KENYAN_PHONE_PATTERN = re.compile(r"^(?:\+254|0)[17]\d{8}$")
LETTER = re.compile(r"[A-Za-z]")
DIGIT = re.compile(r"\d")
SYMBOL = re.compile(r"[^A-Za-z0-9\s]")
PASSWORD_MIN_LENGTH = 8
STAFF_PASSWORD_MIN_LENGTH = 12

if TYPE_CHECKING:
    from accounts.models import User


def normalize_name(value: str) -> str:
    """A person's (or an account holder's) name as it is stored, from wherever it is typed.

    NFKC folds look-alike forms (full-width letters, ligatures) into ordinary ones; control (Cc) and
    format (Cf: zero-width spaces and joiners, direction overrides) characters are dropped and runs
    of whitespace made one space, so nothing invisible reaches a list, a receipt or a spreadsheet.
    What has no letter left (only zero-width characters, dots or digits) is no name: ``""``, which
    each form answers with its own "... is required" message.
    """
    words = unicodedata.normalize("NFKC", value or "").split()
    visible = (("".join(char for char in word if unicodedata.category(char) not in ("Cc", "Cf"))) for word in words)
    name = " ".join(word for word in visible if word)
    return name if any(char.isalpha() for char in name) else ""


def check_email(value: str) -> str | None:
    if not value.strip():
        return _("Email is required")
    try:
        validate_email(value.strip())
    except ValidationError:
        return _("Please enter a valid email address")
    return None


def check_kenyan_phone(value: str) -> str | None:
    compact = re.sub(r"[\s-]", "", value)
    if not KENYAN_PHONE_PATTERN.match(compact):
        return _("Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)")
    return None


def normalize_kenyan_phone(value: str) -> str:
    """E.164 form of a number that passed ``check_kenyan_phone``: +2547XXXXXXXX."""
    number = phonenumbers.parse(re.sub(r"[\s-]", "", value), "KE")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def check_id_number(value: str) -> str | None:
    if not 6 <= len(value.strip()) <= 9:
        return _("ID number must be 6-9 characters")
    return None


def _django_password_check(value: str, user: "User | None") -> str | None:
    """The first complaint of ``AUTH_PASSWORD_VALIDATORS`` (a common password, one like the user's
    name or e-mail, an admin's shorter than 12 characters), or None."""
    try:
        password_validation.validate_password(value, user)
    except ValidationError as error:
        return str(error.messages[0])
    return None


def check_new_password(value: str, user: "User | None") -> str | None:
    """Sign-up and reset rule: at least 8 characters, a letter and a symbol (the spec's message
    first), then Django's validators against ``user`` (unsaved at sign-up; None: not known yet)."""
    if len(value) < PASSWORD_MIN_LENGTH or not LETTER.search(value) or not SYMBOL.search(value):
        return _("Password must be at least 8 characters, include a symbol, and at least one letter")
    return _django_password_check(value, user)


def check_changed_password(value: str, user: "User | None") -> str | None:
    """Profile rule for a changed password: also needs a digit; then Django's validators."""
    if (
        len(value) < PASSWORD_MIN_LENGTH
        or not LETTER.search(value)
        or not DIGIT.search(value)
        or not SYMBOL.search(value)
    ):
        return _("Password must be at least 8 characters and include numbers, letters, and symbols.")
    return _django_password_check(value, user)


class StaffPasswordLengthValidator:
    """Admins' passwords are at least ``STAFF_PASSWORD_MIN_LENGTH`` characters (in
    ``AUTH_PASSWORD_VALIDATORS``: applies wherever a staff user's password is set)."""

    def validate(self, password: str, user: "User | None" = None) -> None:
        if user is not None and user.is_staff and len(password) < STAFF_PASSWORD_MIN_LENGTH:
            raise ValidationError(staff_password_too_short(), code="password_too_short")

    def get_help_text(self) -> str:
        return staff_password_too_short()


def staff_password_too_short() -> str:
    return _("An admin's password must be at least %(length)d characters.") % {"length": STAFF_PASSWORD_MIN_LENGTH}


def staff_password_needed_to_become_staff() -> str:
    return _(
        "This account's password is shorter than %(length)d characters: its owner must choose a longer one "
        "before becoming an admin."
    ) % {"length": STAFF_PASSWORD_MIN_LENGTH}


def check_avatar_url(value: str) -> str | None:
    """Blank is fine; otherwise an http(s) address."""
    if value.strip() and not re.match(r"^https?://[^\s/$.?#][^\s]*$", value.strip(), re.IGNORECASE):
        return _("Please enter a valid URL starting with http:// or https://")
    return None
