"""Pledging in instalments from any phone: after the amount the menu asks how to pay (at once,
weekly or monthly, and how many), and 'Pay a pledge' offers the instalment due first."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import TEST_PAYBILL
from payments.models import Payment
from payments.tests.support import settled
from pledges.instalments import add_months
from pledges.models import InstalmentPlan, Pledge
from ussd.models import Caller


@pytest.fixture
def building(db):
    """A year-long building drive, paid into a connected paybill."""
    end_date = timezone.localdate() + timedelta(days=365)
    return CampaignFactory.create(title="Church Building", goal=5_000_000, end_date=end_date, paybill=TEST_PAYBILL)


def test_a_pledge_of_12000_in_3_monthly_instalments_has_a_plan_of_three_4000_instalments(gateway, building):
    c = str(building.pk)
    assert gateway.session("1", c, "12000") == (
        "CON How will you pay Ksh 12,000?\n1. All at once\n2. Weekly instalments\n3. Monthly instalments\n"
        "0 Back 00 Home"
    )
    assert gateway.send(f"1*{c}*12000*3") == "CON How many monthly instalments? 2 to 12:\n0 Back 00 Home"
    assert gateway.send(f"1*{c}*12000*3*3*1") == (
        "CON Pledge Ksh 12,000 to Church Building?\n3 monthly instalments of Ksh 4,000\n1. Confirm\n0 Back 00 Home"
    )

    answer = gateway.send(f"1*{c}*12000*3*3*1*1")

    assert answer.startswith("END Thank you! Your pledge code is")
    plan = InstalmentPlan.objects.select_related("pledge").get()
    assert [part.amount for part in plan.schedule()] == [4_000, 4_000, 4_000]
    assert (plan.frequency, plan.first_due_on) == ("monthly", add_months(timezone.localdate(), 1))
    assert (plan.pledge.amount, plan.pledge.channel) == (12_000, "ussd")


def test_weekly_instalments_in_kiswahili(gateway, building):
    Caller.objects.create(phone=gateway.phone, language="sw")

    gateway.session("1", str(building.pk), "10000", "2", "4", "2", "1")

    plan = InstalmentPlan.objects.get()
    assert [part.amount for part in plan.schedule()] == [2_500] * 4
    assert plan.first_due_on == timezone.localdate() + timedelta(weeks=1)


def test_more_instalments_than_fit_before_the_end_or_fewer_than_two_are_refused(gateway, campaign):
    # The campaign ends in 30 days: no monthly plan fits, and at most 4 weekly instalments.
    c = str(campaign.pk)
    assert gateway.session("1", c, "12000", "3").startswith("CON The campaign ends too soon for monthly instalments.")
    assert gateway.send(f"1*{c}*12000*2*5") == (
        "CON Please choose from 2 to 4 weekly instalments.\nHow many weekly instalments? 2 to 4:\n0 Back 00 Home"
    )
    assert gateway.send(f"1*{c}*12000*2*1").startswith("CON Please choose from 2 to 4 weekly instalments.")
    assert not Pledge.objects.exists()


@pytest.mark.django_db(transaction=True)  # the prompt is sent once the step's transaction commits
def test_pay_a_pledge_offers_the_instalment_due_first(providers, gateway, building):
    gateway.session("1", str(building.pk), "12000", "3", "3", "1", "1")
    pledge = Pledge.objects.get()

    assert gateway.session("2", "1") == (
        f"CON {pledge.code} Church Building\nLeft to pay: Ksh 12,000\n1. Pay the Ksh 4,000 due\n"
        "2. Pay another amount\n0 Back 00 Home"
    )
    gateway.send("2*1*1")

    assert settled(Payment.objects.get().reference).amount == 4_000
