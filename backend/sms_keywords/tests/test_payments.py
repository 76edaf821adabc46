"""Pledging and paying by SMS end to end: the callback -> the PIN prompt task -> the real Daraja
adapter -> the simulator over HTTP -> its callback -> the ledger, and BAL says so."""

import pytest

from payments.models import Payment
from payments.tests.support import settled
from pledges.models import Pledge, PledgeStatus

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_pledge_by_sms_paid_with_the_pin_is_paid_and_bal_says_so(providers, phone, campaign, api_client):
    phone.text(f"PLEDGE {campaign.pk} 1500")
    pledge = Pledge.objects.get()
    assert phone.text("BAL") == f"Your pledges: {pledge.code} Church Roof Repair: paid Ksh 0, left Ksh 1,500;"

    assert phone.text(f"PAY {pledge.code}") == (
        f"Enter your M-Pesa PIN when asked, to pay Ksh 1,500 for pledge {pledge.code}."
    )

    payment = settled(Payment.objects.get().reference)
    assert (payment.status, payment.payer_phone, payment.account_reference) == (
        Payment.Status.SUCCEEDED,
        "+254711000345",
        pledge.code,
    )
    pledge.refresh_from_db()
    assert pledge.status == PledgeStatus.CONFIRMED
    assert api_client.get(f"/api/pledges/{pledge.code}").json()["status"] == "confirmed"
    assert phone.text("BAL") == "All your pledges are paid in full. Thank you!"


def test_a_retried_pay_sends_one_prompt(providers, phone, campaign):
    phone.text(f"PLEDGE {campaign.pk} 1500")
    pledge = Pledge.objects.get()

    phone.deliver(f"PAY {pledge.code} 400", message_id="ATXid_pay_once")
    phone.deliver(f"PAY {pledge.code} 400", message_id="ATXid_pay_once")

    payment = settled(Payment.objects.get().reference)
    assert payment.amount == 400
    assert phone.text("BAL") == f"Your pledges: {pledge.code} Church Roof Repair: paid Ksh 400, left Ksh 1,100;"
