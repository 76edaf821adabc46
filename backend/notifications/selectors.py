from accounts.models import User
from notifications.models import CampaignReminderSettings
from pledges.selectors import campaign_managed_get


def reminder_settings_get(*, campaign_id: int, user: User) -> CampaignReminderSettings:
    """The campaign's reminder settings (organizer or admin): the defaults, unsaved, until changed."""
    campaign = campaign_managed_get(campaign_id=campaign_id, user=user)
    return CampaignReminderSettings.objects.filter(campaign=campaign).first() or CampaignReminderSettings(
        campaign=campaign
    )
