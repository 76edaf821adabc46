"""Reads for the USSD menu: open campaigns by their number, a caller's open pledges and language."""

from django.db.models import F
from django.utils import timezone

from accounts.models import User
from campaigns.models import Campaign, CampaignStatus
from campaigns.selectors import campaign_get
from common.errors import NotFoundError
from pledges.models import Pledge
from ussd.models import Caller, Session


def open_campaign_get(*, number: int) -> Campaign | None:
    """The campaign with this number (its id) if anyone may pledge to it now: visible to all,
    active, not past its end date. One query."""
    try:
        campaign = campaign_get(campaign_id=number, user=None)
    except NotFoundError:
        return None
    if campaign.status != CampaignStatus.ACTIVE or campaign.end_date < timezone.localdate():
        return None
    return campaign


def caller_open_pledges(*, phone: str) -> list[Pledge]:
    """The live pledges naming ``phone`` (E.164) with something left to pay, newest first: made by
    USSD or on the web with this number, both its owner's, whom the network identified."""
    return list(
        Pledge.objects.live()
        .filter(phone=phone, paid_amount__lt=F("amount"))
        # With its plan: 'Pay a pledge' offers the amount due first.
        .select_related("campaign", "instalment_plan")
        .order_by("-created_at", "-id")
    )


def caller_language(*, phone: str) -> str | None:
    return Caller.objects.filter(phone=phone).values_list("language", flat=True).first()


def ussd_personal_data_export(*, user: User) -> dict[str, object]:
    """What the USSD menu holds about the number on the user's account (``privacy``): its language
    choice and the sessions still kept."""
    if not user.phone:
        return {"ussd_caller": None, "ussd_sessions": []}
    return {
        "ussd_caller": Caller.objects.filter(phone=user.phone).first(),
        "ussd_sessions": list(Session.objects.filter(phone=user.phone).order_by("created_at", "id")),
    }
