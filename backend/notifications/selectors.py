from django.core import signing
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns.models import Campaign
from common.errors import ServiceError
from notifications.models import CampaignReminderSettings, known_offsets
from organizations.roles import Permission
from pledges.models import Pledge
from pledges.selectors import campaign_managed_get

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
