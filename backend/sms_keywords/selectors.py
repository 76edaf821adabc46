"""Reads of the texts received: what is kept about a user's number (``privacy``)."""

from accounts.models import User
from sms_keywords.models import InboundSms


def sms_keywords_personal_data_export(*, user: User) -> dict[str, object]:
    """The texts sent to the shortcode from the account's verified number and what was done about them."""
    if not user.verified_phone:
        return {"sms_received": []}
    return {"sms_received": list(InboundSms.objects.filter(sender=user.verified_phone).order_by("received_at", "id"))}
