"""Reads for accounts: the session, and everything the platform holds about a user."""

from django.db import models
from django.db.models import Q
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils import timezone

from accounts.models import User
from campaigns.models import Campaign, CampaignLike, Draft, WizardFeedback
from feedback.models import Feedback
from grants.models import GrantApplication, OrganizationProfile
from notifications.models import NotificationLog
from payments.models import Payment, Subscription
from pledges.models import Donation, Pledge


def session_state(*, request: HttpRequest) -> dict[str, object]:
    """The signed-in user (or None) and a CSRF token bound to this browser's cookie."""
    user = request.user if request.user.is_authenticated else None
    return {"user": user if isinstance(user, User) else None, "csrf_token": get_token(request)}


# Pledges and donations have no account of their own: anyone may give without signing in. A
# user's are those given with their account's e-mail address (which sign-up makes unique and the
# profile cannot change), or paid while signed in. Not by phone: the profile's phone number is
# never verified, so matching by it would hand a stranger's pledges to whoever typed the number.


def pledges_made_by(*, user: User) -> models.QuerySet[Pledge]:
    return Pledge.objects.filter(email__iexact=user.email)


def donations_made_by(*, user: User) -> models.QuerySet[Donation]:
    return Donation.objects.filter(Q(payment__user=user) | Q(email__iexact=user.email))


def payments_made_by(*, user: User) -> models.QuerySet[Payment]:
    return Payment.objects.filter(
        Q(user=user)
        | Q(payer_email__iexact=user.email)
        | Q(pledge_link__pledge__in=pledges_made_by(user=user))
        | Q(donation__in=donations_made_by(user=user))
    )


def notifications_sent_to(*, user: User) -> models.QuerySet[NotificationLog]:
    """Messages to the user's e-mail address, and every message about their pledges and payments
    (SMS go to the number given with the pledge)."""
    return NotificationLog.objects.filter(
        Q(recipient__iexact=user.email)
        | Q(pledge__in=pledges_made_by(user=user))
        | Q(payment__in=payments_made_by(user=user))
    )


def personal_data_export(*, user: User) -> dict[str, object]:
    """Everything held about ``user``, for the download on /profile (``PersonalDataOut``).

    One query per kind of record, however many records there are.
    """
    return {
        "exported_at": timezone.now(),
        "account": user,
        "organization_profile": OrganizationProfile.objects.filter(user=user).first(),
        "campaigns": list(Campaign.objects.filter(organizer=user).order_by("created_at", "id")),
        "campaign_drafts": list(Draft.objects.filter(user=user).order_by("created_at", "id")),
        "campaign_likes": list(CampaignLike.objects.filter(user=user).order_by("created_at", "id")),
        "wizard_feedback": list(WizardFeedback.objects.filter(user=user).order_by("created_at", "id")),
        "pledges": list(pledges_made_by(user=user).select_related("campaign").order_by("created_at", "id")),
        "donations": list(
            donations_made_by(user=user).select_related("campaign", "payment").order_by("created_at", "id")
        ),
        "payments": list(payments_made_by(user=user).distinct().order_by("created_at", "id")),
        "subscriptions": list(
            Subscription.objects.filter(user=user).select_related("payment").order_by("starts_at", "id")
        ),
        "grant_applications": list(
            GrantApplication.objects.filter(user=user).select_related("grant").order_by("updated_at", "id")
        ),
        "feedback": list(Feedback.objects.filter(user=user).order_by("created_at", "id")),
        "notifications": list(notifications_sent_to(user=user).order_by("created_at", "id")),
    }
