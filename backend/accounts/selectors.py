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


# Anyone may give without signing in, so a pledge or donation is a user's own only when it was
# given while signed in (``Pledge.user``, a donation's ``payment.user``). Never by e-mail address
# or phone number: nobody verified either, so matching by them would hand a stranger's pledges,
# codes and payments to whoever signed up with that address.


def pledges_made_by(*, user: User) -> models.QuerySet[Pledge]:
    return Pledge.objects.filter(user=user)


def donations_made_by(*, user: User) -> models.QuerySet[Donation]:
    return Donation.objects.filter(payment__user=user)


def payments_made_by(*, user: User) -> models.QuerySet[Payment]:
    """Payments made while signed in, and those credited to the user's pledges (a paybill payment
    with the pledge code may come from someone else's phone: see ``personal_data_export``)."""
    return Payment.objects.filter(Q(user=user) | Q(pledge_link__pledge__in=pledges_made_by(user=user)))


def notifications_sent_to(*, user: User) -> models.QuerySet[NotificationLog]:
    """Messages to the user's e-mail address, and those about their pledges and payments that went
    to the address or number given with them. Not the organizer's e-mail about their pledge, nor a
    receipt sent to whoever else paid it."""
    own_addresses = {user.email.lower()}
    contacts = (
        pledges_made_by(user=user)
        .order_by()
        .values_list("email", "phone")
        .union(donations_made_by(user=user).order_by().values_list("email", "phone"))
    )
    for email, phone in contacts:
        own_addresses.update({email.lower(), phone} - {""})
    about_their_giving = Q(pledge__in=pledges_made_by(user=user)) | Q(payment__in=payments_made_by(user=user))
    return NotificationLog.objects.filter(
        Q(recipient__iexact=user.email) | (about_their_giving & Q(recipient__in=own_addresses))
    )


def personal_data_export(*, user: User) -> dict[str, object]:
    """Everything held about ``user``, for the download on /profile (``PersonalDataOut``).

    One query per kind of record, however many records there are. A payment credited to one of
    their pledges from someone else's phone is listed without that payer's number and address.
    """
    payments = list(payments_made_by(user=user).distinct().order_by("created_at", "id"))
    for payment in payments:
        if payment.user_id != user.pk:
            payment.payer_phone = payment.payer_email = ""  # for the download only; never saved
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
        "payments": payments,
        "subscriptions": list(
            Subscription.objects.filter(user=user).select_related("payment").order_by("starts_at", "id")
        ),
        "grant_applications": list(
            GrantApplication.objects.filter(user=user).select_related("grant").order_by("updated_at", "id")
        ),
        "feedback": list(Feedback.objects.filter(user=user).order_by("created_at", "id")),
        "notifications": list(notifications_sent_to(user=user).order_by("created_at", "id")),
    }
