"""What the pledges' schemas share: the hidden e-mail, the idempotency key, a giver as lists show
them, masked contacts."""

from typing import Any

from django.utils.translation import gettext as _
from ninja import Field, Schema

from pledges.models import Donation, Pledge

HIDDEN_EMAIL = "hidden@anonymous.invalid"
IDEMPOTENCY_KEY = Field(
    min_length=8,
    max_length=64,
    description="A fresh random value per attempt: sending it again (a double tap, a retry) returns the same payment.",
)
IGNORED = "Accepted for compatibility and ignored: the server derives it."


class GiverOut(Schema):
    """The fields a pledge and a donation in a list begin with: who gave (masked: ``_giver_fields``)
    and how much."""

    id: int
    campaign_id: int
    name: str
    email: str
    phone: str
    amount: int


def _giver_fields(giver: Pledge | Donation, *, name: str, manages: bool) -> dict[str, Any]:
    """A listed pledge's or donation's giver as the viewer may see them (``name`` as organizers see
    it), whether they see the real details, and its amount."""
    return {
        "id": giver.pk,
        "campaign_id": giver.campaign_id,
        "name": name,
        "email": giver.email,
        "phone": giver.phone,
        "amount": giver.amount,
        "is_anonymous": giver.is_anonymous,
        "details_visible": manages,
        **_masked_contact(name=giver.name, is_anonymous=giver.is_anonymous, manages=manages),
    }


def _masked_contact(*, name: str, is_anonymous: bool, manages: bool) -> dict[str, str]:
    if manages:
        return {}
    # A pledge made by phone without a name (USSD) is the public's 'Caller', without the digits.
    return {
        "name": _("Anonymous") if is_anonymous else name or _("Caller"),
        "email": HIDDEN_EMAIL,
        "phone": _("Hidden"),
    }
