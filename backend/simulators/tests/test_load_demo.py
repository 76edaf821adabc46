"""``manage.py simulators_load_demo`` gives the simulators what the demo data says Safaricom and
Paystack hold, so that `make run` works end to end: the scheduled Pull of the demo paybill succeeds
(no warning) and card gifts to the ministry settle to its subaccount."""

import pytest
from django.core.management import call_command

from payments.providers.paystack import PaystackClient
from payments.services import mpesa_pull_due
from pledges.demo import DEMO_CARD_SUBACCOUNT

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(settings, providers):
    settings.IS_PRODUCTION = False
    settings.SECRET_KEY = "local-development-only-not-secret"
    call_command("load_demo_data", stdout=None)
    call_command("simulators_load_demo")


def test_the_scheduled_pull_of_the_demo_paybill_succeeds(demo):
    totals = mpesa_pull_due()

    assert totals["accounts"] >= 1
    assert totals["failed"] == 0


def test_a_card_gift_to_the_ministry_settles_to_its_demo_subaccount(demo):
    client = PaystackClient.from_settings()

    checkout = client.initialize(
        email="giver@example.com",
        amount_kes=1000,
        reference="DEMO-CARD-1",
        callback_url="",
        metadata={},
        subaccount=DEMO_CARD_SUBACCOUNT,
    )

    assert client.verify(checkout.reference).body["subaccount"]["account_number"] == "1234567890"
