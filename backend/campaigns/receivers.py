"""Connected in ``CampaignsConfig.ready``: whatever changes a campaign's public view renders it afresh.

Model signals rather than calls in each service, so no write path is missed: the services, the
Django admin, the demo data. Pledges and donations, in a layer above, renew the view themselves
(``pledges.receivers``).
"""

from typing import Any

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from accounts.models import User
from campaigns.caching import campaign_changed
from campaigns.models import Campaign
from organizations.models import Organization

# The organizer's name in the public view comes from these.
ORGANIZER_NAME_FIELDS = {"first_name", "last_name", "email"}


@receiver([post_save, post_delete], sender=Campaign, dispatch_uid="campaigns.campaign_changed")
def on_campaign_saved(sender: type[Campaign], instance: Campaign, **kwargs: Any) -> None:
    campaign_changed(campaign_id=instance.pk)


@receiver(post_save, sender=User, dispatch_uid="campaigns.organizer_changed")
def on_user_saved(
    sender: type[User], instance: User, created: bool, update_fields: frozenset[str] | None, **kwargs: Any
) -> None:
    if created or (update_fields is not None and not ORGANIZER_NAME_FIELDS & update_fields):
        return  # a new user organizes nothing yet; last_login changes at every sign-in
    for campaign_id in Campaign.objects.filter(organizer=instance).values_list("pk", flat=True):
        campaign_changed(campaign_id=campaign_id)


@receiver(post_save, sender=Organization, dispatch_uid="campaigns.organization_changed")
def on_organization_saved(sender: type[Organization], instance: Organization, created: bool, **kwargs: Any) -> None:
    """The organization's name is on each of its campaigns' pages."""
    if created:
        return
    for campaign_id in Campaign.objects.filter(organization=instance).values_list("pk", flat=True):
        campaign_changed(campaign_id=campaign_id)
