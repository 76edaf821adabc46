"""A giver's pledges and gifts as the ledger records them, through its own services."""

from dataclasses import dataclass
from datetime import date

from accounts.models import User
from accounts.tests.factories import UserFactory
from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory
from payments.models import Payment
from payments.services import payment_record_manual
from pledges.models import Donation, Pledge, PledgeChannel
from pledges.services import (
    donation_attach_payment,
    pledge_create,
    pledge_create_at_desk,
    pledge_create_by_phone,
    pledge_payment_record,
)

PHONE = "+254712345678"


def mpesa_pledge_payment(pledge: Pledge, *, amount: int, code: str, on: date | None = None) -> Payment:
    """A payment towards ``pledge`` by M-Pesa to the organization's number, recorded with its code."""
    pledge_payment_record(
        pledge_id=pledge.pk,
        user=pledge.campaign.organizer,
        amount=amount,
        method=Payment.Provider.MPESA_MANUAL,
        note="",
        reference=code,
        received_on=on,
    )
    return Payment.objects.get(mpesa_receipt=code)


def mpesa_gift(campaign: Campaign, *, phone: str, amount: int, code: str, anonymous: bool = False) -> Donation:
    payment = payment_record_manual(
        recorded_by=campaign.organizer,
        provider=Payment.Provider.MPESA_MANUAL,
        purpose=Payment.Purpose.DONATION,
        amount=amount,
        campaign=campaign,
        payer_phone=phone,
        reference=code,
    )
    return donation_attach_payment(
        payment=payment, campaign=campaign, name="", email="", phone=phone, is_anonymous=anonymous
    )


def card_gift(campaign: Campaign, *, user: User, amount: int, reference: str) -> Donation:
    """A card gift made signed in, as Paystack's webhook leaves it: succeeded, the giver's account on it."""
    payment = Payment.objects.create(
        provider=Payment.Provider.CARD,
        purpose=Payment.Purpose.DONATION,
        amount=amount,
        status=Payment.Status.SUCCEEDED,
        user=user,
        campaign=campaign,
        organization=campaign.organization,
        provider_reference=reference,
        receipt_number=f"HRB-{reference}",
    )
    return donation_attach_payment(
        payment=payment, campaign=campaign, name=user.display_name, email=user.email, phone="", is_anonymous=False
    )


@dataclass
class GivingWorld:
    church: Campaign
    school: Campaign
    web: Pledge
    ussd: Pledge
    desk: Pledge
    card: Donation
    mpesa: Donation


def giving_world(*, giver: User, phone: str = PHONE, series: str = "RKT") -> GivingWorld:
    """``giver`` pledged by web (signed out, with their number), by USSD and at the desk, and gave by
    card (signed in) and M-Pesa (anonymously), to two organizations; with payments towards two pledges."""
    church = CampaignFactory.create(organizer=UserFactory.create(), title="Church roof")
    school = CampaignFactory.create(organizer=UserFactory.create(), title="School library")
    web = pledge_create(
        campaign_id=church.pk,
        amount=20_000,
        name="Wanjiku Kamau",
        email="wanjiku@example.com",
        phone=phone,
        is_anonymous=False,
        viewer=None,
        client_ip="",
    )
    ussd = pledge_create_by_phone(
        campaign_id=school.pk, amount=5_000, phone=phone, is_anonymous=False, channel=PledgeChannel.USSD
    )
    desk = pledge_create_at_desk(campaign=church, amount=3_000, name="Wanjiku", phone=phone, is_anonymous=False)
    mpesa_pledge_payment(web, amount=8_000, code=f"{series}1AB2CD3")
    mpesa_pledge_payment(ussd, amount=5_000, code=f"{series}4EF5GH6")
    card = card_gift(school, user=giver, amount=1_500, reference=f"{series}-card")
    mpesa = mpesa_gift(church, phone=phone, amount=700, code=f"{series}7JK8LM9", anonymous=True)
    return GivingWorld(church=church, school=school, web=web, ussd=ussd, desk=desk, card=card, mpesa=mpesa)
