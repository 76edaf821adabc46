import factory

from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory
from payments.models import Payment
from payments.services import payment_record_manual
from pledges.models import Donation, Pledge, PledgeChannel
from pledges.services import donation_attach_payment, pledge_create


class PledgeFactory(factory.django.DjangoModelFactory[Pledge]):
    """A pending pledge to a new active campaign. Counters are not touched: make pledges that
    must count through ``pledges.services.pledge_create``."""

    class Meta:
        model = Pledge

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Pledger {n}")
    email = factory.Sequence(lambda n: f"pledger{n}@example.com")
    phone = factory.Sequence(lambda n: f"+2547{n % 10**8:08d}")
    amount = 10_000
    channel = PledgeChannel.WEB


def paid_donation(
    campaign: Campaign, *, name: str = "Donor", email: str = "", anonymous: bool = False, amount: int = 100
) -> Donation:
    """A donation counted on ``campaign`` as a succeeded payment leaves it (recorded in cash by
    the organizer, so no provider is needed)."""
    payment = payment_record_manual(
        recorded_by=campaign.organizer,
        provider=Payment.Provider.CASH,
        purpose=Payment.Purpose.DONATION,
        amount=amount,
        campaign=campaign,
    )
    return donation_attach_payment(
        payment=payment, campaign=campaign, name=name, email=email, phone="", is_anonymous=anonymous
    )


def make_pledge(campaign, *, amount=10_000, name="Njeri Wanjiru", anonymous=False, phone="0711000222", email=""):
    """A pledge made as a visitor makes one (``pledge_create``), so the campaign's counters count it."""
    return pledge_create(
        campaign_id=campaign.pk,
        amount=amount,
        name=name,
        email=email or f"{name.split()[0].lower()}@example.com",
        phone=phone,
        is_anonymous=anonymous,
        viewer=None,
        client_ip="",
    )
