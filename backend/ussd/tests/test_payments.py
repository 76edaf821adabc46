"""Paying by USSD end to end: the menu -> the PIN prompt task -> the real Daraja adapter -> the
simulator over HTTP -> its callback -> the ledger, seen on the web and under My pledges."""

import pytest
from django.core import mail

from campaigns.tests.factories import CampaignFactory, link_account
from collection_accounts.instructions import account_instruction
from collection_accounts.models import CollectionAccountKind
from collection_accounts.tests.factories import CollectionAccountFactory
from notifications.models import NotificationLog
from payments.models import Payment
from payments.tests.support import settled, wait_for
from pledges.models import Donation, Pledge, PledgeStatus

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_ussd_pledge_paid_with_the_pin_shows_as_paid_on_the_web_and_under_my_pledges(
    providers, gateway, campaign, api_client
):
    gateway.session("1", str(campaign.pk), "1500", "1", "1", "1")
    pledge = Pledge.objects.get()
    recorded = NotificationLog.objects.get(template="sms/pledge_recorded")
    assert recorded.recipient == "+254711000345"
    assert pledge.code in recorded.body and "*384*4242#" in recorded.body
    # No e-mail address, no e-mail: only the organizer's news of the pledge.
    assert [message.to for message in mail.outbox] == [[campaign.organizer.email]]

    assert gateway.session("2") == (
        f"CON Choose a pledge to pay:\n1. {pledge.code} Church Roof Repair Ksh 1,500 left\n0 Back 00 Home"
    )
    answer = gateway.send("2*1*1")

    assert answer == f"END Enter your M-Pesa PIN when asked, to pay Ksh 1,500 for pledge {pledge.code}."
    payment = settled(Payment.objects.get().reference)
    assert (payment.status, payment.payer_phone, payment.account_reference) == (
        Payment.Status.SUCCEEDED,
        "+254711000345",
        pledge.code,
    )
    pledge.refresh_from_db()
    assert pledge.status == PledgeStatus.CONFIRMED
    assert api_client.get(f"/api/pledges/{pledge.code}").json()["status"] == "confirmed"
    assert gateway.session("3") == "END You have no open pledges. Dial again and choose 1 to pledge."


def test_part_of_a_pledge_is_paid_and_a_retried_step_sends_one_prompt(providers, gateway, campaign):
    gateway.session("1", str(campaign.pk), "1500", "1", "1", "1")
    pledge = Pledge.objects.get()

    first = gateway.session("2", "1", "2", "400")
    assert gateway.send("2*1*2*400") == first

    payment = settled(Payment.objects.get().reference)
    assert payment.amount == 400
    pledge.refresh_from_db()
    assert (pledge.paid_amount, pledge.status) == (400, PledgeStatus.PARTLY_PAID)
    assert gateway.session("3") == (
        f"END Your pledges:\n{pledge.code} Church Roof Repair: paid Ksh 400, left Ksh 1,100"
    )


def test_give_now_sends_a_prompt_for_an_anonymous_donation(providers, gateway, campaign):
    answer = gateway.session("4", str(campaign.pk), "250")

    assert answer == "END Enter your M-Pesa PIN when asked, to give Ksh 250 to Church Roof Repair."
    settled(Payment.objects.get().reference)
    wait_for(lambda: Donation.objects.filter(counted_at__isnull=False).exists())
    donation = Donation.objects.get()
    assert (donation.amount, donation.is_anonymous, donation.phone, donation.name) == (250, True, "+254711000345", "")
    campaign.refresh_from_db()
    assert campaign.raised_total == 250


def test_without_a_connected_account_pay_and_give_now_say_how_to_pay_into_the_campaigns_own_till(gateway):
    campaign = CampaignFactory.create(title="Church Roof Repair")
    till = CollectionAccountFactory.create(
        organization=campaign.organization, kind=CollectionAccountKind.TILL, paybill_number="", till_number="5123456"
    )
    link_account(campaign, till)
    gateway.session("1", str(campaign.pk), "1500", "1", "1", "1")
    pledge = Pledge.objects.get()

    pay = gateway.session("2", "1", "1")
    give = gateway.session("4", str(campaign.pk), "250")

    assert pay == f"END Pay Ksh 1,500 for pledge {pledge.code} via {till_summary(till, pledge.code)}."
    assert give == f"END Give Ksh 250 via {till_summary(till, None)}."
    assert not Payment.objects.exists()  # no PIN prompt: nothing took the church's money elsewhere


def till_summary(till, reference):
    return account_instruction(till, reference=reference).summary
