"""'Give through a champion' on the USSD menu: their code, who and for which campaign, then a pledge or
a PIN-prompt gift that counts for the campaign and for the champion, once, however often reported."""

from datetime import UTC, datetime

import pytest
from django.db import transaction

from accounts.tests.factories import UserFactory
from campaigns.models import Campaign
from campaigns.selectors import campaign_stk_account
from champions.models import Attribution, Champion
from champions.services import champion_create
from payments import services as payments
from payments.models import Payment
from payments.tests.support import settled, wait_for
from pledges.models import Donation, Pledge, PledgeChannel

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def champion(campaign):
    member = UserFactory.create(first_name="Wanjiru", last_name="Kamau")
    return champion_create(campaign_id=campaign.pk, user=member, goal=20_000)


def test_a_champions_code_shows_who_and_for_which_campaign(gateway, champion):
    code = f"{champion.code[:3].lower()} {champion.code[3:]}"

    assert gateway.session("6", code) == (
        "CON Champion Wanjiru Kamau for Church Roof Repair\n1. Pledge\n2. Give now\n0 Back 00 Home"
    )
    assert gateway.session("6", "ZZZZZZ") == (
        "CON No champion of an open campaign has the code ZZZZZZ.\nEnter the champion's code:\n0 Back 00 Home"
    )


def test_a_pledge_through_a_champion_by_ussd_is_the_campaigns_pledge_attributed_to_them(gateway, champion):
    confirm = gateway.session("6", champion.code, "1", "1500", "1", "1")
    assert confirm == ("CON Pledge Ksh 1,500 to Church Roof Repair?\nThrough Wanjiru Kamau\n1. Confirm\n0 Back 00 Home")

    answer = gateway.send(f"6*{champion.code}*1*1500*1*1*1")

    pledge = Pledge.objects.get()
    assert answer.startswith(f"END Thank you! Your pledge code is {pledge.code}.")
    assert (pledge.amount, pledge.phone, pledge.channel) == (1_500, gateway.phone, PledgeChannel.USSD)
    assert Attribution.objects.get(pledge=pledge).champion == champion
    assert Champion.objects.get(pk=champion.pk).pledged == 1_500


def test_a_ussd_gift_through_a_champion_credits_the_campaign_and_the_champion_once(
    providers, gateway, campaign, champion, organizer
):
    answer = gateway.session("6", champion.code, "2", "250")

    assert answer == "END Enter your M-Pesa PIN when asked, to give Ksh 250 to Church Roof Repair."
    payment = settled(Payment.objects.get().reference)
    account = campaign_stk_account(campaign=campaign)
    assert account is not None and payment.mpesa_receipt
    wait_for(lambda: Donation.objects.filter(counted_at__isnull=False).exists())
    # Reported again: M-Pesa asked for the prompt's result, and a statement listing its receipt.
    payments.payment_stk_query(payment=payment)
    with transaction.atomic():
        payments.payments_record_from_statement(
            account=account,
            recorded_by=organizer,
            found=[
                payments.StatementPayment(
                    mpesa_receipt=payment.mpesa_receipt,
                    amount=250,
                    account_reference=payment.account_reference,
                    received_at=datetime.now(UTC),
                    payer_name="WANJIRU DOE",
                    notify_payer=False,
                )
            ],
        )

    donation = Donation.objects.get()
    assert (donation.amount, donation.is_anonymous, donation.phone) == (250, True, gateway.phone)
    assert Attribution.objects.get().donation == donation
    assert Attribution.objects.get().champion == champion
    assert Payment.objects.count() == 1
    assert Campaign.objects.get(pk=campaign.pk).raised_total == 250
    kept = Champion.objects.get(pk=champion.pk)
    assert (kept.raised, kept.gifts, kept.tonight_raised) == (250, 1, 250)
