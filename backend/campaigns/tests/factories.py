from datetime import timedelta

import factory
from django.utils import timezone

from accounts.tests.factories import UserFactory
from campaigns.categories import Category
from campaigns.models import Campaign, CampaignCollectionAccount, CampaignLike, CampaignStatus
from collection_accounts.models import CollectionAccount
from collection_accounts.tests.factories import card_bank_account, connected_paybill
from organizations.services import organization_choose_for_campaign


class CampaignFactory(factory.django.DjangoModelFactory[Campaign]):
    """An active pledging campaign by a new organizer, ending in 30 days, in the one organization
    the organizer owns (a new personal one if none)."""

    class Meta:
        model = Campaign
        skip_postgeneration_save = True

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
    payment_options = factory.LazyFunction(list)  # legacy: only what migration 0012 left (a personal number)

    @factory.post_generation
    def paybill(self: Campaign, create: bool, number: str | None, **kwargs: object) -> None:
        """``paybill="600100"``: its givers pay into that paybill of its organization, connected to
        M-Pesa (PIN prompts go there, its C2B confirmations reach us)."""
        if create and number:
            link_account(self, connected_paybill(self.organization, number))

    @factory.post_generation
    def cards(self: Campaign, create: bool, takes_cards: bool | None, **kwargs: object) -> None:
        """``cards=True``: its organization takes card payments (``card_bank_account``)."""
        if create and takes_cards:
            card_bank_account(self.organization)


def link_account(campaign: Campaign, account: CollectionAccount) -> None:
    """Add ``account`` (of the campaign's organization) to the campaign's accounts, last."""
    CampaignCollectionAccount.objects.create(
        campaign=campaign, account=account, position=campaign.account_links.count()
    )


class CampaignLikeFactory(factory.django.DjangoModelFactory[CampaignLike]):
    class Meta:
        model = CampaignLike

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
