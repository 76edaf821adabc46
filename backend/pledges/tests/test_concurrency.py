"""Many payments for one campaign (and one pledge) succeeding at the same moment, their callbacks
delivered in parallel through the HTTP endpoints of a live server. PostgreSQL only: SQLite
serialises every write and cannot show what the row locks do."""

import json
import random
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from django.db import connection

from campaigns.models import Campaign
from collection_accounts.tests.factories import CHURCH_CALLBACK_TOKEN, TEST_PAYBILL
from payments.models import Payment
from payments.tests.support import pending_stk_intent, stk_callback
from pledges.models import Donation, Pledge, PledgePayment
from pledges.services import donation_attach_payment
from pledges.tests.factories import make_pledge

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (row locks and concurrent writers); CI runs it with DATABASE_URL set",
    ),
]


def post_all(url: str, bodies: list[dict]) -> None:
    random.Random(6).shuffle(bodies)  # noqa: S311 - a fixed order to reproduce, not a secret
    with httpx.Client(timeout=60) as daraja, ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda body: daraja.post(url, content=json.dumps(body)), bodies))
    assert {answer.status_code for answer in answers} == {200}


def test_100_donations_paid_at_once_raise_the_total_and_the_donors_exactly(providers, campaign):
    for n in range(100):
        payment = pending_stk_intent(
            amount=100 + n, checkout_request_id=f"ws_CO_DON{n:03d}", purpose=Payment.Purpose.DONATION, campaign=campaign
        )
        donation_attach_payment(
            payment=payment, campaign=campaign, name=f"Donor {n}", email="", phone="", is_anonymous=False
        )
    bodies = [stk_callback(f"ws_CO_DON{n:03d}", amount=100 + n, receipt=f"SLKD{n:06d}") for n in range(100)]
    bodies += bodies[:25]  # Daraja repeats some callbacks

    post_all(f"{providers.url}/api/payments/callbacks/stk/local-callback-token", bodies)

    campaign = Campaign.objects.get(pk=campaign.pk)
    assert campaign.raised_total == sum(100 + n for n in range(100))
    assert campaign.donor_count == 100
    assert Donation.objects.filter(counted_at__isnull=False).count() == 100


def test_50_paybill_payments_to_one_pledge_at_once_all_add_up(providers, campaign):
    pledge = make_pledge(campaign, amount=4000, name="Many Instalments", phone="0712345678")
    bodies = [
        {
            "TransactionType": "Pay Bill",
            "TransID": f"SLKC{n:06d}",
            "TransTime": "20261122103000",
            "TransAmount": "100.00",
            "BusinessShortCode": TEST_PAYBILL,
            "BillRefNumber": pledge.code,
            "MSISDN": "2547 ***** 149",
            "FirstName": "John",
        }
        for n in range(50)
    ]
    bodies += bodies[:10]

    # To the church's own paybill, confirmed on its connection's URL.
    post_all(f"{providers.url}/api/payments/callbacks/c2b/{CHURCH_CALLBACK_TOKEN}/confirmation", bodies)

    pledge = Pledge.objects.get(pk=pledge.pk)
    assert (pledge.paid_amount, pledge.status, pledge.overpaid_amount) == (5000, "confirmed", 1000)
    assert PledgePayment.objects.filter(pledge=pledge).count() == 50
    campaign = Campaign.objects.get(pk=campaign.pk)
    assert (campaign.pledged_total, campaign.raised_total, campaign.donor_count) == (4000, 5000, 1)
