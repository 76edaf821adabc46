"""The simulator's M-Pesa Ratiba: refuses what Ratiba refuses, puts the approval on the virtual phone,
and runs executions on its own clock."""

from datetime import timedelta

import httpx
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from payments.providers import ProviderError
from payments.providers.daraja import DarajaClient, StandingOrderTerms
from payments.tests.support import wait_for
from simulators.models import SimulatedC2BTransaction, SimulatedStandingOrder

pytestmark = pytest.mark.django_db(transaction=True)


def terms(**fields) -> StandingOrderTerms:
    start = timezone.localdate() + timedelta(days=1)
    values = {
        "name": "Pledge K7Q2M9X",
        "phone": "+254700000000",  # waits on the virtual phone
        "amount": 500,
        "frequency": "weekly",
        "start_on": start,
        "end_on": start + timedelta(weeks=3),
        "account_reference": "K7Q2M9X",
        "description": "Pledge",
    }
    return StandingOrderTerms(**{**values, **fields})


def create(providers, **fields) -> None:
    callback = f"{providers.url}/api/payments/callbacks/standing-order/no-such-token/ABC"
    DarajaClient.from_settings().standing_order_create(terms(**fields), callback_url=callback)


def test_a_second_order_of_the_same_name_for_the_same_payer_is_refused(providers):
    create(providers)

    with pytest.raises(ProviderError, match="same name"):
        create(providers)
    create(providers, phone="+254711000222")  # another payer may use the name
    assert SimulatedStandingOrder.objects.count() == 2


def test_a_start_date_in_the_past_is_refused(providers):
    with pytest.raises(ProviderError, match="StartDate"):
        create(providers, start_on=timezone.localdate() - timedelta(days=1))


def test_the_payer_approves_on_the_virtual_phone(providers):
    create(providers)
    order = SimulatedStandingOrder.objects.get()
    page = Client().get(reverse("simulators:daraja-phone"))
    assert "Pledge K7Q2M9X" in page.content.decode()

    Client().post(reverse("simulators:daraja-ratiba-answer", args=[order.request_ref]), {"action": "approve"})

    order.refresh_from_db()
    assert (order.status, order.frequency, order.paid_to) == ("active", "3", "174379")


def test_the_clock_runs_each_execution_once_and_a_missed_one_pays_nothing(providers):
    create(providers, phone="+254711000222")  # approved by itself
    wait_for(lambda: SimulatedStandingOrder.objects.filter(status="active").exists())
    start = SimulatedStandingOrder.objects.get().start_on
    clock = f"{providers.url}/simulators/daraja/ratiba/clock"
    day = lambda value: value.strftime("%Y%m%d")  # noqa: E731

    ran = httpx.post(
        clock, json={"Today": day(start + timedelta(weeks=5)), "Missed": [day(start + timedelta(weeks=1))]}
    )
    again = httpx.post(clock, json={"Today": day(start + timedelta(weeks=6))})

    executions = ran.json()["Executions"]
    assert [e["Date"] for e in executions] == [day(start + timedelta(weeks=n)) for n in range(4)]
    assert [bool(e["TransID"]) for e in executions] == [True, False, True, True]
    assert again.json()["Executions"] == []
    paid = SimulatedC2BTransaction.objects.all()
    assert {(t.amount, t.bill_ref_number, t.paid_to) for t in paid} == {(500, "K7Q2M9X", "174379")}
    assert sorted(t.paid_at.date() for t in paid) == [start, start + timedelta(weeks=2), start + timedelta(weeks=3)]
