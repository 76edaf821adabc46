"""A caller on Airtel (Africa's Talking's networkCode 63903) paying a pledge by USSD gets the Airtel Money
push where the campaign has an Airtel Money account: the menu -> the task -> the real Airtel adapter ->
the simulator over HTTP -> its callback -> the ledger. Safaricom callers still get the M-Pesa prompt."""

from types import SimpleNamespace

import pytest

from campaigns.tests.factories import link_account
from organizations.models import Membership
from payments.models import Payment
from payments.tests.airtel_support import airtel_account, airtel_url, connect
from payments.tests.support import settled
from pledges.models import Pledge, PledgeStatus

pytestmark = pytest.mark.django_db(transaction=True)

AIRTEL_CALLER = "+254733000345"


@pytest.fixture
def airtel_campaign(providers, campaign, make_api_client):
    account = airtel_account(campaign.organization)
    link_account(campaign, account)
    owner = Membership.objects.filter(organization=campaign.organization).select_related("user").get().user
    connect(SimpleNamespace(account=account, owner=owner, url=airtel_url(account)), make_api_client)
    return campaign


def test_an_airtel_caller_pays_a_pledge_by_airtel_push(airtel_campaign, make_gateway):
    gateway = make_gateway(phone=AIRTEL_CALLER, network="63903")
    gateway.session("1", str(airtel_campaign.pk), "1500", "1", "1", "1")
    pledge = Pledge.objects.get()

    answer = gateway.session("2", "1", "1")

    assert answer == f"END Enter your Airtel Money PIN when asked, to pay Ksh 1,500 for pledge {pledge.code}."
    payment = settled(Payment.objects.get().reference)
    assert (payment.provider, payment.status, payment.payer_phone) == ("airtel", "succeeded", AIRTEL_CALLER)
    pledge.refresh_from_db()
    assert pledge.status == PledgeStatus.CONFIRMED


def test_a_safaricom_caller_still_gets_the_mpesa_prompt(airtel_campaign, make_gateway):
    gateway = make_gateway(network="63902")
    gateway.session("1", str(airtel_campaign.pk), "1500", "1", "1", "1")
    pledge = Pledge.objects.get()

    answer = gateway.session("2", "1", "1")

    assert answer == f"END Enter your M-Pesa PIN when asked, to pay Ksh 1,500 for pledge {pledge.code}."
    assert settled(Payment.objects.get().reference).provider == "mpesa_stk"
