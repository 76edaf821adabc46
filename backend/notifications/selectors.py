from dataclasses import dataclass

from django.core import signing
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns.models import Campaign
from campaigns.selectors import campaign_managed_get
from common.errors import ServiceError
from events.models import Event
from notifications.models import CampaignReminderSettings, EventThanks, NotificationLog, known_offsets
from organizations.roles import Permission
from payments.selectors import payments_made_by
from pledges.models import Pledge
from pledges.selectors import donations_made_by, pledges_made_by

OPT_OUT_SALT = "notifications.opt-out"


def reminders_campaign_get(*, campaign_id: int, user: User, permission: Permission) -> Campaign:
    """The campaign if ``user`` may see (``SEE_PLEDGES``) or change (``MANAGE_PLEDGES``) its reminders."""
    if permission == Permission.SEE_PLEDGES:
        denied = _("Only the campaign's owners, treasurers and viewers, or an admin, can see its reminders.")
    else:
        denied = _("Only the campaign's owners and treasurers, or an admin, can change its reminders.")
    return campaign_managed_get(campaign_id=campaign_id, user=user, permission=permission, denied=denied)


def reminder_settings_get(*, campaign_id: int, user: User) -> CampaignReminderSettings:
    """The campaign's reminder settings (its team but ushers, or an admin): the defaults, unsaved, until changed."""
    campaign = reminders_campaign_get(campaign_id=campaign_id, user=user, permission=Permission.SEE_PLEDGES)
    row = CampaignReminderSettings.objects.filter(campaign=campaign).first() or CampaignReminderSettings(
        campaign=campaign
    )
    # An offset saved before offsets were checked (through the admin) is left out: the organizer's
    # form would send it back and have every save refused.
    row.offsets = known_offsets(row.offsets)
    return row


def opt_out_token(pledge: Pledge) -> str:
    return signing.dumps(pledge.pk, salt=OPT_OUT_SALT)


def opt_out_pledge_get(*, token: str) -> Pledge:
    """The pledge (with its campaign) the signed opt-out ``token`` names; ServiceError if forged."""
    try:
        pledge_id = signing.loads(token, salt=OPT_OUT_SALT)
    except signing.BadSignature as error:
        raise ServiceError(_("This link is not valid."), code="invalid_token") from error
    pledge = Pledge.objects.select_related("campaign", "opt_out").filter(pk=pledge_id).first()
    if pledge is None:
        raise ServiceError(_("This link is not valid."), code="invalid_token")
    return pledge


def notifications_sent_to(*, user: User) -> QuerySet[NotificationLog]:
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


def notifications_personal_data_export(*, user: User) -> dict[str, object]:
    """The messages sent to the user, for their download (``privacy``)."""
    return {"notifications": list(notifications_sent_to(user=user).order_by("created_at", "id"))}


@dataclass(frozen=True)
class ThanksStatus:
    """How an event's thanks stand: waiting (for the morning, or the worker), sent, not sent as the
    recipient had had their share of unasked messages (limited), or failed."""

    waiting: int
    sent: int
    limited: int
    failed: int

    @property
    def total(self) -> int:
        return self.waiting + self.sent + self.limited + self.failed


def event_thanks_status(*, event: Event) -> ThanksStatus:
    """One query."""
    statuses = NotificationLog.Status
    counts = EventThanks.objects.filter(event=event).aggregate(
        waiting=Count("pk", filter=Q(log__isnull=True) | Q(log__status=statuses.QUEUED)),
        # A delivery report since (delivered or not) keeps a sent message sent: the gateway took it.
        sent=Count("pk", filter=Q(log__status__in=[statuses.SENT, statuses.DELIVERED, statuses.UNDELIVERED])),
        limited=Count("pk", filter=Q(log__status=statuses.LIMITED)),
        failed=Count("pk", filter=Q(log__status=statuses.FAILED)),
    )
    return ThanksStatus(**counts)
