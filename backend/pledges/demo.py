"""Demo pledges and donations, and the ministry campaign of /icc-imara-donate.

Loaded by ``manage.py load_demo_data`` after the demo campaigns, through the real services:
pledges are made with ``pledge_create``, paybill payments arrive as C2B confirmations (one
with a mistyped account number, left unmatched for the organizer to assign), cash payments
are recorded by the organizer, and two pledgers have weekly instalment plans that started in
the past, set by the organizer (one on track, one behind by an instalment). A campaign that already has pledges is left alone, so loading
again adds nothing.
"""

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.models import User
from campaigns.categories import Category
from campaigns.demo import COVERS, ORGANIZER
from campaigns.models import Campaign, CampaignStatus, CampaignType
from campaigns.wizard import campaign_accounts_link
from collection_accounts.demo import MINISTRY_PAYBILL, demo_ministry_paybill
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from organizations.services import organization_choose_for_campaign
from payments.models import MpesaConnection, Payment
from payments.services import payment_record_c2b_confirmation, payment_record_manual
from pledges import codes
from pledges.instalments import Frequency, PlanTerms
from pledges.models import Pledge
from pledges.services import (
    donation_attach_payment,
    pledge_confirm,
    pledge_create,
    pledge_payment_record,
    pledge_plan_set,
)

# (name, e-mail, phone, anonymous, amount, how it is paid so far)
DEMO_PLEDGES: list[tuple[str, str, str, bool, int, str]] = [
    ("Wanjiku Kamau", "wanjiku.kamau@example.com", "+254712000101", False, 50_000, "paybill_full"),
    ("David Otieno", "david.otieno@example.com", "+254722000202", False, 20_000, "paybill_part"),
    ("Grace Njeri", "grace.njeri@example.com", "+254733000303", True, 100_000, "pending"),
    ("Samuel Kiptoo", "samuel.kiptoo@example.com", "+254711000404", False, 15_000, "cash_part"),
    ("Faith Achieng", "faith.achieng@example.com", "+254701000505", True, 30_000, "paybill_over"),
    ("Joseph Mwangi", "joseph.mwangi@example.com", "+254724000606", False, 10_000, "confirmed_by_organizer"),
    ("Mercy Wambui", "mercy.wambui@example.com", "+254115000707", False, 5_000, "mistyped"),
    ("Peter Mutua", "peter.mutua@example.com", "+254798000808", False, 25_000, "pending"),
]
# Weekly plans agreed with the organizer: (name, instalment, days since the first fell due). David
# paid a quarter (5,000) and one instalment is due: on track. Samuel paid a third (5,000) and two
# are due: behind by one, Ksh 5,000.
DEMO_PLANS: dict[str, tuple[int, int]] = {
    "David Otieno": (5_000, 3),
    "Samuel Kiptoo": (5_000, 10),
}
# (name, e-mail, anonymous, amount)
DEMO_DONATIONS: list[tuple[str, str, bool, int]] = [
    ("Esther Chebet", "esther.chebet@example.com", False, 2_500),
    ("", "", True, 1_000),
    ("Brian Omondi", "brian.omondi@example.com", False, 500),
]
# Titles of the demo campaigns that get pledges, besides the ministry campaign.
PLEDGED_CAMPAIGNS = (
    "New Sanctuary for PCEA Kikuyu Parish",
    "Clean Water Borehole for Kathonzweni Village",
    "Medical Bills for Mama Wanjiru's Surgery",
    "Dialysis Support for Brian Kiprotich",
)

MINISTRY_CAMPAIGN: dict[str, Any] = {
    "description": "Help ICC Imara finish the church home where our congregation worships, learns and serves.",
    "story": (
        "ICC Imara began as a house fellowship of twelve people in Imara Daima. Ten years later more than five "
        "hundred of us gather every Sunday in a rented hall, and the children's church meets under a tent.\n\n"
        "The Lord has given us a plot beside the Mombasa Road. The foundation and walls are up; what remains is "
        "the roof, windows, floor and a sound system, so that by next Easter we can worship in our own home.\n\n"
        "The building will be more than a sanctuary. On weekdays it will host a daycare for mothers who trade "
        "at the market, evening classes for young people, and a counselling room for families in crisis.\n\n"
        "Give today through M-Pesa or by card, or make a pledge and pay it in instalments: every payment with "
        "your pledge code is matched to your pledge automatically. Thank you for building with us."
    ),
    "goal": 3_000_000,
    "days": 120,
}


DEMO_CARD_SUBACCOUNT = "ACCT_iccimarademo01"


def _ministry_campaign(organizer: User) -> Campaign:
    today = timezone.localdate()
    campaign, created = Campaign.objects.get_or_create(
        title=settings.MINISTRY_CAMPAIGN_TITLE,
        defaults={
            "type": CampaignType.PLEDGING,
            "status": CampaignStatus.ACTIVE,
            "organizer": organizer,
            "organization": organization_choose_for_campaign(user=organizer, organization_id=None),
            "description": MINISTRY_CAMPAIGN["description"],
            "story": MINISTRY_CAMPAIGN["story"],
            "category": Category.CHURCH,
            "goal": MINISTRY_CAMPAIGN["goal"],
            "image_url": COVERS + "church.svg",
            "start_date": today - timedelta(days=14),
            "end_date": today + timedelta(days=MINISTRY_CAMPAIGN["days"]),
            # A building drive: its pledgers may pay in instalments for up to two years after it ends.
            "instalments_past_end": True,
        },
    )
    if created:
        # Paid into the ministry's own connected paybill and its bank account, never Harambee's.
        paybill = demo_ministry_paybill(campaign.organization)
        _demo_connection(paybill)
        bank = {
            "kind": CollectionAccountKind.BANK,
            "bank_name": "KCB Bank Kenya Ltd",
            "account_name": "ICC Imara Building Fund",
            "account_number": "1234567890",
        }
        campaign_accounts_link(campaign=campaign, user=organizer, entries=[{"account_id": paybill.pk}, bank])
        # Card gifts settle to the bank account through the ministry's Paystack subaccount, which the
        # simulator provisions too (``manage.py simulators_load_demo``).
        CollectionAccount.objects.filter(organization=campaign.organization, **bank).update(
            card_subaccount_code=DEMO_CARD_SUBACCOUNT, card_settlement_bank="01"
        )
    return campaign


def _demo_connection(paybill: CollectionAccount) -> MpesaConnection:
    """The ministry's own Daraja app on its paybill, as its treasurer would enter it; the simulator
    provisions the same app (``manage.py simulators_load_demo``), so PIN prompts work locally."""
    connection, _created = MpesaConnection.objects.get_or_create(
        account=paybill,
        defaults={
            "consumer_key": "icc-imara-demo-key",
            "consumer_secret": "icc-imara-demo-secret",
            "passkey": "icc-imara-demo-passkey",
            "nominated_number": "+254722000111",
            "c2b_registered_at": timezone.now(),
            "pull_registered_at": timezone.now(),
        },
    )
    return connection


def _pay_bill(pledge: Pledge, *, amount: int, account: str, trans_id: str) -> None:
    """A paybill payment as Safaricom confirms it, through the real C2B path."""
    payment_record_c2b_confirmation(
        body={
            "TransactionType": "Pay Bill",
            "TransID": trans_id,
            "TransTime": timezone.localtime().strftime("%Y%m%d%H%M%S"),
            "TransAmount": f"{amount}.00",
            "BusinessShortCode": MINISTRY_PAYBILL,
            "BillRefNumber": account,
            "InvoiceNumber": "",
            "OrgAccountBalance": "",
            "ThirdPartyTransID": "",
            "MSISDN": f"{pledge.phone[1:5]} ***** {pledge.phone[-3:]}",
            "FirstName": pledge.name.split()[0],
            "MiddleName": "",
            "LastName": "",
        },
        remote_addr=None,
        connection=MpesaConnection.objects.get(account__paybill_number=MINISTRY_PAYBILL),
    )


def _mistyped(code: str) -> str:
    """The code with one character wrong, as a payer might type it."""
    wrong = next(char for char in codes.CODE_ALPHABET if char != code[2])
    return code[:2] + wrong + code[3:]


def _pledges(campaign: Campaign, organizer: User) -> None:
    if campaign.pledges.exists():
        return
    for index, (name, email, phone, anonymous, amount, paid) in enumerate(DEMO_PLEDGES):
        pledge = pledge_create(
            campaign_id=campaign.pk,
            amount=amount,
            name=name,
            email=email,
            phone=phone,
            is_anonymous=anonymous,
            viewer=None,
            client_ip="",  # no address: the demo is not rate-limited
        )
        trans_id = f"SDM{campaign.pk:04d}{index:03d}"
        if paid == "paybill_full":
            _pay_bill(pledge, amount=amount, account=pledge.code, trans_id=trans_id)
        elif paid == "paybill_part":
            _pay_bill(pledge, amount=amount // 4, account=pledge.code.lower(), trans_id=trans_id)
        elif paid == "paybill_over":
            _pay_bill(pledge, amount=amount + 2_000, account=f" {pledge.code} ", trans_id=trans_id)
        elif paid == "cash_part":
            pledge_payment_record(
                pledge_id=pledge.pk,
                user=organizer,
                amount=amount // 3,
                method="cash",
                note="Sunday offering",
                reference="",
            )
        elif paid == "confirmed_by_organizer":
            pledge_confirm(pledge_id=pledge.pk, user=organizer)
        elif paid == "mistyped":
            _pay_bill(pledge, amount=amount, account=_mistyped(pledge.code), trans_id=trans_id)
        if name in DEMO_PLANS:
            instalment, days_ago = DEMO_PLANS[name]
            first_due_on = timezone.localdate() - timedelta(days=days_ago)
            pledge_plan_set(
                pledge_id=pledge.pk, user=organizer, terms=PlanTerms(instalment, Frequency.WEEKLY, first_due_on)
            )


def _donations(campaign: Campaign, organizer: User) -> None:
    if campaign.donations.exists():
        return
    for name, email, anonymous, amount in DEMO_DONATIONS:
        # Recorded as cash: the demo has no phone to approve an STK Push.
        payment = payment_record_manual(
            recorded_by=organizer,
            provider=Payment.Provider.CASH,
            purpose=Payment.Purpose.DONATION,
            amount=amount,
            campaign=campaign,
        )
        donation_attach_payment(
            payment=payment, campaign=campaign, name=name, email=email, phone="", is_anonymous=anonymous
        )


def demo_pledges_load() -> Campaign:
    """Create the ministry campaign and the demo pledges and donations that are missing; needs the
    demo accounts and campaigns. Answers the ministry campaign."""
    organizer = User.objects.get(email=ORGANIZER)
    ministry = _ministry_campaign(organizer)
    for campaign in [ministry, *Campaign.objects.filter(title__in=PLEDGED_CAMPAIGNS).select_related("organizer")]:
        _pledges(campaign, campaign.organizer)
        _donations(campaign, campaign.organizer)
    return ministry
