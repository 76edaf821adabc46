"""What the pledges' schemas share: the hidden e-mail, the idempotency key, masked contacts."""

from django.utils.translation import gettext as _
from ninja import Field

HIDDEN_EMAIL = "hidden@anonymous.invalid"
IDEMPOTENCY_KEY = Field(
    min_length=8,
    max_length=64,
    description="A fresh random value per attempt: sending it again (a double tap, a retry) returns the same payment.",
)
IGNORED = "Accepted for compatibility and ignored: the server derives it."


def _masked_contact(*, name: str, is_anonymous: bool, manages: bool) -> dict[str, str]:
    if manages:
        return {}
    # A pledge made by phone without a name (USSD) is the public's 'Caller', without the digits.
    return {
        "name": _("Anonymous") if is_anonymous else name or _("Caller"),
        "email": HIDDEN_EMAIL,
        "phone": _("Hidden"),
    }
