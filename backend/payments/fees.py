"""The platform's own fees (campaign activation, subscription): what they cost and what paying
one does. The ledger core (``services``) knows no purpose: it credits a payment, then asks
``fee_paid_apply`` for the effect, inside the same transaction."""

from datetime import timedelta

from django.conf import settings
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns.models import Campaign, CampaignStatus
from campaigns.services import campaign_activate
from common.errors import FieldValidationError, NotFoundError, ServiceError
from organizations.roles import Permission, role_allows
from payments.models import Payment, Subscription


def fee_terms(*, user: User, purpose: str, campaign_id: int | None) -> tuple[int, Campaign | None]:
    """The amount (always from settings, never from the client) and campaign of a fee."""
    if purpose == Payment.Purpose.SUBSCRIPTION:
        return settings.SUBSCRIPTION_FEE_KES, None
    if purpose != Payment.Purpose.CAMPAIGN_ACTIVATION:
        message = _("Please choose a valid payment purpose")
        raise FieldValidationError(_("Please correct the errors below"), field_errors={"purpose": message})
    campaign = Campaign.objects.filter(pk=campaign_id).first() if campaign_id else None
    # The organization's owners pay it; anyone else is not told the campaign exists.
    if campaign is None or not role_allows(campaign.role_of(user), Permission.EDIT_CAMPAIGNS):
        raise NotFoundError(_("Campaign not found."), code="campaign_not_found")
    if campaign.status != CampaignStatus.PENDING:
        raise ServiceError(_("This campaign does not need an activation payment."), code="campaign_not_pending")
    return settings.CAMPAIGN_ACTIVATION_FEE_KES, campaign


def fee_paid_apply(*, payment: Payment) -> str:
    """The effect of a fee just credited (a locked payment, inside the crediting transaction):
    the campaign activated, or the subscription extended. Answers why the payment needs a person
    (to be flagged) when the effect cannot apply, else ''. Other purposes have no effect here."""
    if payment.purpose == Payment.Purpose.CAMPAIGN_ACTIVATION and payment.campaign_id is not None:
        return _campaign_activate(campaign_id=payment.campaign_id)
    if payment.purpose == Payment.Purpose.SUBSCRIPTION and payment.user_id is not None:
        _subscription_extend(payment, user_id=payment.user_id)
    return ""


def _campaign_activate(*, campaign_id: int) -> str:
    campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
    if campaign.status != CampaignStatus.PENDING:
        # Paid twice, or an admin activated it first: the money stays recorded, for a refund.
        return f"Campaign was already {campaign.status} when the activation fee was paid."
    campaign_activate(campaign=campaign, activated_by=None)
    return ""


def _subscription_extend(payment: Payment, *, user_id: int) -> None:
    """A new period starts now, or when the user's last period ends if that is later."""
    user = User.objects.select_for_update().get(pk=user_id)  # one renewal at a time per user
    now = timezone.now()
    last_end = Subscription.objects.filter(user=user).aggregate(last=Max("ends_at"))["last"]
    starts_at = max(now, last_end) if last_end else now
    Subscription.objects.create(
        user=user,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(days=settings.SUBSCRIPTION_PERIOD_DAYS),
        payment=payment,
    )
