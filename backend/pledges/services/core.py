"""What every pledge and donation write shares: limits, cleaning, the campaign's counters, the prompts
to pay by phone."""

from collections.abc import Callable, Mapping
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from campaigns.models import Campaign, CampaignStatus
from campaigns.selectors import campaign_airtel_account, campaign_stk_account
from campaigns.services import campaign_counters_move
from collection_accounts.models import CollectionAccount
from common import ratelimit
from common.errors import FieldValidationError, ServiceError
from common.money import AMOUNT_MAX, format_ksh
from payments.airtel import payment_airtel_push_start
from payments.models import Payment
from payments.services import payment_stk_push_start
from pledges import signals
from pledges.models import (
    CampaignFigures,
    Pledge,
)

NAME_MAX_LENGTH = 150
CODE_ATTEMPTS = 5
REASON_MAX_LENGTH = 500


def _ensure_open(campaign: Campaign, *, refusals: Mapping[str, str | Promise]) -> None:
    """Pledges and donations go only to active campaigns, up to and including their end date."""
    if campaign.status != CampaignStatus.ACTIVE:
        key = "closed" if campaign.status == CampaignStatus.CLOSED else "not_active"
        raise ServiceError(str(refusals[key]), code=f"campaign_{key}")
    if campaign.end_date < timezone.localdate():
        message = str(refusals["ended"]) % {"date": date_format(campaign.end_date, "j F Y")}
        raise ServiceError(message, code="campaign_ended")


def _whole_amount(value: float | None) -> int | None:
    """``value`` as whole shillings from 1 to AMOUNT_MAX, or None when it is not one."""
    if value is None or isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        return None
    amount = int(value)  # an int as it is: float() of one with hundreds of digits (an SMS's) overflows
    return amount if 1 <= amount <= AMOUNT_MAX else None


def _clean(value: str | None) -> str:
    return (value or "").strip()


def _counters_move(*, campaign_id: int, change: CampaignFigures) -> None:
    """Move a campaign's counters by ``change``, inside the caller's transaction. One ``F()``
    UPDATE, which takes the campaign row's lock itself: concurrent changes queue, none is lost."""
    if change == CampaignFigures():
        return
    campaign_counters_move(
        campaign_id=campaign_id,
        pledged=change.pledged,
        pledged_signed_in_or_paid=change.pledged_signed_in_or_paid,
        raised=change.raised,
        donors=change.donors,
    )


def _ceiling_error(campaign: Campaign, amount: int) -> str | None:
    """The refusal of a pledge above the campaign's largest single pledge, if it is one."""
    if amount <= campaign.largest_pledge:
        return None
    return _("The largest single pledge to this campaign is %(amount)s.") % {
        "amount": format_ksh(campaign.largest_pledge)
    }


def _reason_clean(reason: str) -> str:
    """A correction's reason: required, at most REASON_MAX_LENGTH characters."""
    reason = reason.strip()
    if not reason:
        raise FieldValidationError(
            _("Please correct the errors below"), field_errors={"reason": _("Please give the reason.")}
        )
    if len(reason) > REASON_MAX_LENGTH:
        raise FieldValidationError(
            _("Please correct the errors below"),
            field_errors={"reason": _("Please keep the reason under 500 characters.")},
        )
    return reason


def _status_settle(pledge: Pledge, *, by: User | None) -> bool:
    """Set a pledge's status from its amount and payments (who settled it, when it becomes
    confirmed; nobody once it no longer is). True if it has just become fully paid."""
    was_confirmed = pledge.is_confirmed
    pledge.status = pledge.derived_status()
    if pledge.is_confirmed and not was_confirmed:
        pledge.confirmed_at = timezone.now()
        pledge.confirmed_by = by
    elif not pledge.is_confirmed:
        pledge.confirmed_at, pledge.confirmed_by = None, None
    return pledge.is_confirmed and not was_confirmed


def _hand_change_count(pledge: Pledge) -> None:
    """Count one more correction, cancellation or restoration of ``pledge``, refusing it (429) past
    ``RATE_LIMIT_PLEDGE_CHANGES``: each texts the pledger, whose number an organizer must not be
    able to text without end by changing a pledge back and forth."""
    ratelimit.enforce(
        scope="pledge-changes",
        identifiers=[str(pledge.pk)],
        limit=settings.RATE_LIMIT_PLEDGE_CHANGES,
        message=_("This pledge was changed many times today. Please wait before changing it again."),
    )


def _changed(pledge: Pledge, change: str) -> None:
    """Tell the pledger (after commit) that their pledge was changed by hand (see ``signals``)."""
    transaction.on_commit(partial(signals.pledge_changed.send, sender=Pledge, pledge=pledge, change=change))


def _giving_contact_limits_enforce(*, scope: str, phone: str, email: str, viewer: User | None) -> None:
    """Behind the generous per-address limit: pledges or donations naming one phone number or e-mail
    address (``RATE_LIMIT_GIVING_CONTACT``), or made by one signed-in account (``…_ACCOUNT``)."""
    limits = [
        ratelimit.Limit(
            f"{scope}-phone",
            validators.normalize_kenyan_phone(phone) if phone else "",
            settings.RATE_LIMIT_GIVING_CONTACT,
        ),
        ratelimit.Limit(f"{scope}-email", email, settings.RATE_LIMIT_GIVING_CONTACT),
    ]
    if viewer is not None:
        limits.append(ratelimit.Limit(f"{scope}-account", f"user:{viewer.pk}", settings.RATE_LIMIT_GIVING_ACCOUNT))
    ratelimit.enforce_all(
        limits=limits, message=_("Too many in a short time with these details. Please wait a while and try again.")
    )


# A prompt to pay by phone: which one, to which of the campaign's accounts (None: none takes it).
PromptChannel = Callable[[Campaign], tuple[CollectionAccount | None, Callable[..., Payment]]]


def _mpesa_prompt_channel(campaign: Campaign) -> tuple[CollectionAccount | None, Callable[..., Payment]]:
    """M-Pesa's PIN prompt, to the campaign's account that takes them (None: none does)."""
    return campaign_stk_account(campaign=campaign), payment_stk_push_start


def _airtel_prompt_channel(campaign: Campaign) -> tuple[CollectionAccount, Callable[..., Payment]]:
    """Airtel Money's USSD push (``payments.airtel``), to the campaign's Airtel Money account; refused
    without one."""
    account = campaign_airtel_account(campaign=campaign)
    if account is None:
        raise ServiceError(_("This campaign takes no Airtel Money payments."), code="airtel_unavailable")
    return account, payment_airtel_push_start
