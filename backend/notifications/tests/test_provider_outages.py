"""An e-mail or SMS provider that is down or slow never fails a pledge or a donation.

Messages go through tasks; here the task backend is the immediate one (each task runs inside the
request that enqueues it, the harshest case), the SMTP server and the SMS gateway either refuse
connections (a closed port) or accept them and never answer (a slow server, cut off by the timeout).
"""

import json
import socket
from collections.abc import Iterator
from unittest import mock

import pytest
from django.test import Client

from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import CHURCH_CALLBACK_TOKEN, TEST_PAYBILL
from notifications.models import NotificationLog
from payments.models import Payment
from payments.providers.daraja import DarajaClient, StkPushAccepted
from payments.tests.support import stk_callback
from pledges.models import Donation, Pledge
from pledges.tests.test_donations import donate
from pledges.tests.test_management import pay_bill

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT_SECONDS = 0.5
CAUSES = {"down": "refused", "slow": "timed out"}


@pytest.fixture
def campaign() -> Campaign:
    return CampaignFactory.create(paybill=TEST_PAYBILL)


@pytest.fixture
def visitor_client(make_api_client):
    return make_api_client()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(params=["down", "slow"])
def providers_out(request, settings, monkeypatch) -> Iterator[str]:
    """The mail server and the SMS gateway on a closed port, or on one that never answers."""
    with socket.socket() as silent:
        if request.param == "slow":
            silent.bind(("127.0.0.1", 0))
            silent.listen(16)  # connections complete in the backlog; nothing ever reads or answers
            port = silent.getsockname()[1]
        else:
            port = closed_port()
        settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, TIMEOUT_SECONDS
        settings.AFRICASTALKING_BASE_URL = f"http://127.0.0.1:{port}"
        monkeypatch.setattr("notifications.sms.TIMEOUT_SECONDS", TIMEOUT_SECONDS)
        yield request.param


def test_a_pledge_is_recorded_when_its_messages_cannot_be_sent(providers_out, visitor_client, campaign):
    body = {
        "campaign_id": campaign.pk,
        "amount": 5000,
        "name": "Njeri",
        "email": "njeri@example.com",
        "phone": "0711000222",
    }

    response = visitor_client.post("/api/pledges", body)

    assert response.status_code == 201, response.content
    pledge = Pledge.objects.get(code=response.json()["code"])
    assert Campaign.objects.get(pk=campaign.pk).pledged_total == 5000
    # Each message was tried, its error kept, and marked for someone to look at.
    logs = NotificationLog.objects.filter(pledge=pledge)
    assert {log.channel for log in logs} == {"email", "sms"}
    assert all(log.status == NotificationLog.Status.FAILED and CAUSES[providers_out] in log.error for log in logs)


def test_a_pledge_paid_by_paybill_is_credited_when_the_sms_receipt_cannot_be_sent(providers_out, campaign):
    pledge = Pledge.objects.create(
        campaign=campaign, name="Njeri", email="njeri@example.com", phone="+254711000222", amount=5000
    )

    pay_bill(pledge.code, 2000, "SLKOUTAGE1")  # Safaricom's confirmation is answered 200

    pledge.refresh_from_db()
    assert (pledge.paid_amount, pledge.status) == (2000, "partly_paid")
    assert Campaign.objects.get(pk=campaign.pk).raised_total == 2000
    sms = NotificationLog.objects.get(pledge=pledge, template="sms/payment_received")
    assert sms.status == NotificationLog.Status.FAILED and CAUSES[providers_out] in sms.error


def test_a_donation_is_counted_when_its_receipt_cannot_be_mailed(providers_out, visitor_client, campaign):
    accepted = StkPushAccepted(merchant_request_id="m-1", checkout_request_id="ws_CO_OUTAGE", customer_message="OK")
    with mock.patch.object(DarajaClient, "stk_push", return_value=accepted):
        response = donate(visitor_client, campaign)
    assert response.status_code == 201, response.content

    # The prompt went through the church's own Daraja app: its callback comes to the church's URL.
    answer = Client().post(
        f"/api/payments/callbacks/stk/{CHURCH_CALLBACK_TOKEN}",
        json.dumps(stk_callback("ws_CO_OUTAGE", amount=500, receipt="SLKOUTAGE2")),
        content_type="application/json",
    )
    assert answer.status_code == 200

    payment = Payment.objects.get(checkout_request_id="ws_CO_OUTAGE")
    assert payment.status == Payment.Status.SUCCEEDED and payment.receipt_number
    assert Donation.objects.get(payment=payment).counted_at is not None
    assert Campaign.objects.get(pk=campaign.pk).raised_total == 500
