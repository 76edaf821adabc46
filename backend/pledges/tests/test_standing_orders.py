"""'Pay automatically with M-Pesa' (M-Pesa Ratiba) end to end over HTTP: the pledge page's API, the
Daraja adapter, the simulator's approval prompt and clock, its callbacks and the paybill
confirmations of each execution, credited to the pledge by its code."""

from datetime import date, timedelta

import httpx
import pytest
from django.test import Client
from django.utils import timezone

from campaigns.tests.factories import link_account
from collection_accounts.tests.factories import CollectionAccountFactory
from payments.models import MpesaConnection, MpesaStandingOrder, Payment, PaymentEvent
from payments.tests.connected_support import JSON, church, connected
from payments.tests.support import wait_for
from pledges.instalments import add_months
from pledges.models import PledgeStatus
from pledges.tests.factories import make_pledge
from simulators.models import SimulatedStandingOrder

pytestmark = pytest.mark.django_db(transaction=True)

__all__ = ["church"]


@pytest.fixture
def ratiba_church(church, make_api_client):
    """The church's paybill connected, with Ratiba enabled by its owner, and a year-long campaign."""
    owner = connected(church, make_api_client)
    answer = owner.put(f"{church.url}/ratiba", {"enabled": True}, content_type=JSON)
    assert answer.status_code == 200, answer.content
    assert answer.json()["ratiba_enabled"] is True
    church.campaign.end_date = timezone.localdate() + timedelta(days=400)
    church.campaign.save(update_fields=["end_date"])
    church.owner_client = owner
    return church


def pledge_with_plan(church, api_client, *, amount=60_000, instalment=5_000, phone="0711000222"):
    pledge = make_pledge(church.campaign, amount=amount, phone=phone)
    first = timezone.localdate() + timedelta(days=1)
    answer = api_client.put(
        f"/api/pledges/{pledge.code}/plan",
        {"instalment": instalment, "frequency": "monthly", "first_due_on": str(first)},
        content_type=JSON,
    )
    assert answer.status_code == 200, answer.content
    return pledge, first


def order_settled(code: str) -> MpesaStandingOrder:
    settled = MpesaStandingOrder.objects.filter(account_reference=code).exclude(
        status=MpesaStandingOrder.Status.PENDING
    )
    wait_for(settled.exists)
    return settled.get()


def move_clock(providers, day: date, missed: list[date] | None = None) -> list[dict]:
    answer = httpx.post(
        f"{providers.url}/simulators/daraja/ratiba/clock",
        json={"Today": day.strftime("%Y%m%d"), "Missed": [d.strftime("%Y%m%d") for d in missed or []]},
        timeout=5,
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["Executions"]


def test_a_standing_order_approved_and_run_for_twelve_months_credits_the_pledge_twelve_times_once_each(
    ratiba_church, api_client, providers
):
    pledge, first = pledge_with_plan(ratiba_church, api_client)
    assert api_client.get(f"/api/pledges/{pledge.code}").json()["standing_order_available"] is True

    answer = api_client.post(f"/api/pledges/{pledge.code}/standing-order", {}, content_type=JSON)

    assert answer.status_code == 201, answer.content
    assert answer.json()["standing_order"]["status"] == "pending"
    sent = SimulatedStandingOrder.objects.get()
    assert (sent.amount, sent.frequency, sent.account_reference, sent.phone) == (
        5_000,
        "4",
        pledge.code,
        "254711000222",
    )
    assert (sent.start_on, sent.end_on) == (first, add_months(first, 11))
    assert order_settled(pledge.code).status == MpesaStandingOrder.Status.ACTIVE
    page = api_client.get(f"/api/pledges/{pledge.code}").json()
    assert page["plan"]["standing_order"]["status"] == "active"
    assert page["plan"]["standing_order"]["name"] == f"Pledge {pledge.code}"
    assert page["standing_order_available"] is False

    executions = move_clock(providers, add_months(first, 12))
    # The clock moved again, and past the end: nothing runs twice.
    assert move_clock(providers, add_months(first, 13)) == []

    assert len(executions) == 12
    wait_for(lambda: Payment.objects.filter(account_reference=pledge.code).count() == 12)
    pledge.refresh_from_db()
    assert (pledge.paid_amount, pledge.status) == (60_000, PledgeStatus.CONFIRMED)
    assert pledge.payment_links.count() == 12
    assert {p.mpesa_receipt for p in Payment.objects.all()} == {e["TransID"] for e in executions}


def test_a_declined_standing_order_leaves_a_manual_plan_and_a_message(ratiba_church, api_client, providers):
    pledge, _first = pledge_with_plan(ratiba_church, api_client, phone="0700001032")

    answer = api_client.post(f"/api/pledges/{pledge.code}/standing-order", {}, content_type=JSON)

    assert answer.status_code == 201, answer.content
    assert order_settled(pledge.code).status == MpesaStandingOrder.Status.FAILED
    page = api_client.get(f"/api/pledges/{pledge.code}").json()
    assert page["plan"]["standing_order"]["status"] == "failed"
    assert page["plan"]["standing_order"]["message"] == "The standing order was declined on the phone."
    assert page["plan"]["instalment"] == 5_000
    # Still a plan paid by hand, and the pledger may ask again (a new name: Ratiba wants them unique).
    assert page["standing_order_available"] is True
    again = api_client.post(f"/api/pledges/{pledge.code}/standing-order", {"phone": "0711000333"}, content_type=JSON)
    assert again.status_code == 201, again.content
    assert again.json()["standing_order"]["name"] == f"Pledge {pledge.code}"


def test_the_callback_is_recorded_once_and_only_on_its_accounts_url(ratiba_church, api_client, providers):
    pledge, _first = pledge_with_plan(ratiba_church, api_client, phone="0700000000")  # waits on the phone
    assert api_client.post(f"/api/pledges/{pledge.code}/standing-order", {}, content_type=JSON).status_code == 201
    order = MpesaStandingOrder.objects.get()
    token = MpesaConnection.objects.get().callback_token
    body = {"responseHeader": {"responseCode": "0", "responseDescription": "Standing order created successfully"}}

    stranger = Client().post(f"/api/payments/callbacks/standing-order/not-a-token/{order.reference}", body, JSON)
    first = Client().post(f"/api/payments/callbacks/standing-order/{token}/{order.reference}", body, JSON)
    declined = {"responseHeader": {"responseCode": "1032", "responseDescription": "Request cancelled by user"}}
    repeated = Client().post(f"/api/payments/callbacks/standing-order/{token}/{order.reference}", declined, JSON)

    assert (stranger.status_code, first.status_code, repeated.status_code) == (404, 200, 200)
    order.refresh_from_db()
    assert order.status == MpesaStandingOrder.Status.ACTIVE
    outcomes = PaymentEvent.objects.filter(kind=PaymentEvent.Kind.STANDING_ORDER_CALLBACK).values_list(
        "outcome", flat=True
    )
    assert sorted(outcomes) == ["accepted", "duplicate"]


def test_changing_the_plan_drops_the_standing_order_which_the_payer_stops_on_the_phone(
    ratiba_church, api_client, providers
):
    pledge, first = pledge_with_plan(ratiba_church, api_client)
    api_client.post(f"/api/pledges/{pledge.code}/standing-order", {}, content_type=JSON)
    order_settled(pledge.code)

    answer = api_client.put(
        f"/api/pledges/{pledge.code}/plan",
        {"instalment": 10_000, "frequency": "monthly", "first_due_on": str(first)},
        content_type=JSON,
    )

    assert answer.status_code == 200
    assert answer.json()["standing_order"] is None
    # The order on the phone still pays; its payments still carry the code and are credited.
    assert MpesaStandingOrder.objects.get().status == MpesaStandingOrder.Status.ACTIVE


def _offered(api_client, pledge) -> tuple[bool, int, str]:
    page = api_client.get(f"/api/pledges/{pledge.code}").json()
    answer = api_client.post(f"/api/pledges/{pledge.code}/standing-order", {}, content_type=JSON)
    return page["standing_order_available"], answer.status_code, answer.json().get("code", "")


def test_not_offered_without_the_accounts_ratiba_setting(church, make_api_client, api_client, providers):
    connected(church, make_api_client)
    church.campaign.end_date = timezone.localdate() + timedelta(days=400)
    church.campaign.save(update_fields=["end_date"])
    pledge, _first = pledge_with_plan(church, api_client)

    assert _offered(api_client, pledge) == (False, 400, "standing_order_unavailable")
    assert not SimulatedStandingOrder.objects.exists()


def test_not_offered_on_an_unequal_plan(ratiba_church, api_client, providers):
    pledge, _first = pledge_with_plan(ratiba_church, api_client, instalment=7_000)  # eight of 7,000 and 4,000

    assert _offered(api_client, pledge) == (False, 400, "standing_order_unavailable")


def test_not_offered_without_a_plan(ratiba_church, api_client, providers):
    pledge = make_pledge(ratiba_church.campaign, amount=60_000)

    assert _offered(api_client, pledge) == (False, 400, "plan_missing")


def test_not_offered_on_a_till(ratiba_church, api_client, providers):
    """A till payment carries no account number: the setting is refused there, and a till that has it
    anyway (set before it was one) offers nothing."""
    till = CollectionAccountFactory.create(
        organization=ratiba_church.campaign.organization,
        kind="till",
        paybill_number="",
        till_number="5123456",
        is_default=False,
    )
    connection = MpesaConnection.objects.create(
        account=till, consumer_key="k", consumer_secret="s", passkey="p", ratiba_enabled=True
    )
    till.mpesa_connected_at = timezone.now()
    till.save()
    url = f"/api/orgs/{till.organization_id}/collection-accounts/{till.pk}/mpesa/ratiba"

    refused = ratiba_church.owner_client.put(url, {"enabled": True}, content_type=JSON)

    assert (refused.status_code, refused.json()["code"]) == (400, "ratiba_paybill_only")
    ratiba_church.campaign.account_links.all().delete()
    link_account(ratiba_church.campaign, till)
    pledge, _first = pledge_with_plan(ratiba_church, api_client)
    assert connection.ratiba_enabled
    assert _offered(api_client, pledge) == (False, 400, "standing_order_unavailable")
