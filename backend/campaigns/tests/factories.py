from datetime import timedelta

import factory
from django.utils import timezone

from accounts.tests.factories import UserFactory
from campaigns.categories import Category
from campaigns.models import Campaign, CampaignLike, CampaignStatus
from organizations.services import organization_choose_for_campaign


class CampaignFactory(factory.django.DjangoModelFactory[Campaign]):
    """An active pledging campaign by a new organizer, ending in 30 days, in the one organization
    the organizer owns (a new personal one if none)."""

    class Meta:
        model = Campaign

    status = CampaignStatus.ACTIVE
    organizer = factory.SubFactory(UserFactory)
    organization = factory.LazyAttribute(
        lambda campaign: organization_choose_for_campaign(user=campaign.organizer, organization_id=None)
    )
    title = factory.Sequence(lambda n: f"Harambee number {n}")
    description = "Help us reach our goal."
    story = "A long story about why this matters."
    category = Category.COMMUNITY
    goal = 100_000
    image_url = "https://example.com/cover.jpg"
    end_date = factory.LazyFunction(lambda: timezone.localdate() + timedelta(days=30))
    payment_options = factory.LazyFunction(lambda: [{"method": "mpesa_till", "details": {"till_number": "5123456"}}])


class CampaignLikeFactory(factory.django.DjangoModelFactory[CampaignLike]):
    class Meta:
        model = CampaignLike

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
