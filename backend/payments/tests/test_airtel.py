"""Airtel Money end to end over HTTP: the real adapter (payments.providers.airtel) against the simulator,
its callbacks to our endpoint, the enquiry for missed callbacks, and the statement afterwards. Whatever
reports a push and in whatever order, the pledge is credited once (docs/architecture/payment-identity.md)."""

import json
import uuid
from datetime import timedelta

import httpx
import pytest
from django.utils import timezone

from payments import airtel
from payments.models import AirtelConnection, Payment, PaymentEvent
from payments.providers.airtel import callback_hash
from payments.selectors import airtel_callback_url
from payments.services import payments_reconcile
from payments.tests.airtel_support import CALLBACK_KEY, connect
from payments.tests.support import settled, wait_for
from pledges.models import Pledge
from pledges.tests.factories import PledgeFactory
from simulators.airtel import callback_body
from simulators.models import SimulatedAirtelPayment

pytestmark = pytest.mark.django_db(transaction=True)

Outcome = PaymentEvent.Outcome
PAYER = "0733123456"  # Airtel; pays after the simulator's delay
NO_CALLBACK = "0733129999"  # pays, but the callback never comes
DECLINES = "0733121032"
WAITS = "0733120000"  # waits for the phone page


def _pledge(church, phone: str = PAYER) -> Pledge:
    return PledgeFactory.create(campaign=church.campaign, phone=f"+254{phone[1:]}", amount=5_000)


def _push(api_client, pledge: Pledge, phone: str, amount: int = 2_000) -> Payment:
    answer = api_client.post(
        f"/api/pledges/{pledge.code}/airtel-push",
        {"phone": phone, "amount": amount, "idempotency_key": uuid.uuid4().hex},
        content_type="application/json",
        REMOTE_ADDR="127.0.0.53",
    )
    assert answer.status_code == 201, answer.content
    return Payment.objects.get(reference=answer.json()["reference"])


def _simulated(payment: Payment) -> SimulatedAirtelPayment:
    found = wait_for(lambda: SimulatedAirtelPayment.objects.filter(transaction_id=payment.reference).first())
    assert found is not None
    return found


def _answered(payment: Payment) -> SimulatedAirtelPayment:
    found = wait_for(
        lambda: SimulatedAirtelPayment.objects.filter(transaction_id=payment.reference).exclude(status="TIP").first()
    )
    assert found is not None
    return found


def _credits(payment: Payment) -> int:
    return PaymentEvent.objects.filter(payment=payment, outcome=Outcome.CREDITED).count()


def test_a_pledge_paid_by_airtel_push_is_credited_once_by_its_signed_callback(
    airtel_church, make_api_client, api_client
):
    connect(airtel_church, make_api_client)
    pledge = _pledge(airtel_church)

    payment = _push(api_client, pledge, PAYER)

    assert (payment.provider, payment.status, payment.account_reference) == ("airtel", "pending", pledge.code)
    payment = settled(payment.reference)
    simulated = _simulated(payment)
    assert payment.status == Payment.Status.SUCCEEDED
    assert payment.mpesa_receipt == simulated.airtel_money_id
    assert (simulated.msisdn, simulated.amount, simulated.reference) == ("733123456", 2_000, pledge.code)
    pledge.refresh_from_db()
    assert pledge.paid_amount == 2_000
    # The enquiry afterwards agrees, and credits nothing more.
    airtel.payment_airtel_enquire(payment=payment)
    assert _credits(payment) == 1
    assert PaymentEvent.objects.get(payment=payment, kind="airtel_enquiry").outcome == Outcome.DUPLICATE
    pledge.refresh_from_db()
    assert pledge.paid_amount == 2_000


def test_a_lost_callback_is_found_by_the_enquiry_of_reconciliation(airtel_church, make_api_client, api_client):
    connect(airtel_church, make_api_client)
    pledge = _pledge(airtel_church, NO_CALLBACK)
    payment = _push(api_client, pledge, NO_CALLBACK)
    _answered(payment)
    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.PENDING

    Payment.objects.filter(pk=payment.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    payments_reconcile(query_after=timedelta(minutes=2))

    payment.refresh_from_db()
    assert payment.status == Payment.Status.SUCCEEDED
    assert payment.mpesa_receipt == _simulated(payment).airtel_money_id
    pledge.refresh_from_db()
    assert pledge.paid_amount == 2_000


def test_enquiry_then_the_late_callback_credit_once(airtel_church, make_api_client, api_client):
    connection = connect(airtel_church, make_api_client)
    pledge = _pledge(airtel_church, NO_CALLBACK)
    payment = _push(api_client, pledge, NO_CALLBACK)
    simulated = _answered(payment)
    airtel.payment_airtel_enquire(payment=payment)

    late = httpx.post(airtel_callback_url(connection), json=callback_body(simulated), timeout=5)

    assert late.status_code == 200
    assert PaymentEvent.objects.get(payment=payment, kind="airtel_callback").outcome == Outcome.DUPLICATE
    assert _credits(payment) == 1
    pledge.refresh_from_db()
    assert pledge.paid_amount == 2_000


def test_an_unsigned_apps_success_callback_credits_only_once_the_enquiry_confirms(
    airtel_church, make_api_client, api_client
):
    connect(airtel_church, make_api_client, signed=False)
    pledge = _pledge(airtel_church)
    pushed = _push(api_client, pledge, PAYER)

    payment = wait_for(lambda: Payment.objects.filter(pk=pushed.pk, status="succeeded").first())

    kinds = dict(PaymentEvent.objects.filter(payment=payment).values_list("kind", "outcome"))
    assert kinds == {"airtel_callback": Outcome.PENDING, "airtel_enquiry": Outcome.CREDITED}


def test_a_callback_with_a_wrong_hash_is_refused_and_credits_nothing(airtel_church, make_api_client, api_client):
    connection = connect(airtel_church, make_api_client)
    pledge = _pledge(airtel_church, WAITS)
    payment = _push(api_client, pledge, WAITS)
    transaction = {"id": payment.reference, "message": "paid", "status_code": "TS", "airtel_money_id": "MP1.2.A3"}

    forged = httpx.post(
        airtel_callback_url(connection),
        json={"transaction": transaction, "hash": callback_hash(transaction, key="not-the-key")},
        timeout=5,
    )

    assert forged.status_code == 403
    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.PENDING
    assert PaymentEvent.objects.get(kind="airtel_callback").outcome == Outcome.REJECTED_SIGNATURE
    assert callback_hash(transaction, key=CALLBACK_KEY) != callback_hash(transaction, key="not-the-key")


def test_the_phone_page_approves_and_declines_pushes(airtel_church, make_api_client, api_client, providers):
    connect(airtel_church, make_api_client)
    approved = _push(api_client, _pledge(airtel_church, WAITS), WAITS, amount=1_000)
    declined = _push(api_client, PledgeFactory.create(campaign=airtel_church.campaign, phone="+254733120000"), WAITS)
    page = httpx.get(f"{providers.url}/simulators/airtel/phone", timeout=5)
    assert page.status_code == 200 and "Pay KES 1000" in page.text

    with httpx.Client(base_url=providers.url, timeout=5) as phone:
        phone.get("/simulators/airtel/phone")
        token = phone.cookies.get("csrftoken")
        for payment, action in ((approved, "approve"), (declined, "decline")):
            answer = phone.post(
                f"/simulators/airtel/phone/{_simulated(payment).pk}",
                data={"action": action, "csrfmiddlewaretoken": token},
            )
            assert answer.status_code in (200, 302)

    assert settled(approved.reference).status == Payment.Status.SUCCEEDED
    assert settled(declined.reference).status == Payment.Status.FAILED


def test_a_declined_push_fails_the_payment_and_credits_nothing(airtel_church, make_api_client, api_client):
    connect(airtel_church, make_api_client)
    pledge = _pledge(airtel_church, DECLINES)

    payment = settled(_push(api_client, pledge, DECLINES).reference)

    assert payment.status == Payment.Status.FAILED
    pledge.refresh_from_db()
    assert pledge.paid_amount == 0


def test_a_callback_to_an_unknown_token_is_not_found(airtel_church, make_api_client, providers):
    connect(airtel_church, make_api_client)

    answer = httpx.post(
        f"{providers.url}/api/payments/callbacks/airtel/no-such-token", json={"transaction": {}}, timeout=5
    )

    assert answer.status_code == 404
    assert not PaymentEvent.objects.exists()


def test_a_campaign_without_airtel_credentials_offers_no_airtel_push(airtel_church, api_client):
    pledge = _pledge(airtel_church)

    answer = api_client.post(
        f"/api/pledges/{pledge.code}/airtel-push",
        {"phone": PAYER, "idempotency_key": "only-once-1"},
        content_type="application/json",
    )

    assert answer.status_code == 400
    assert answer.json()["code"] == "airtel_unavailable"
    assert not Payment.objects.exists()


def test_credentials_are_stored_encrypted(airtel_church, make_api_client):
    connect(airtel_church, make_api_client)
    from django.db import connection as db

    with db.cursor() as cursor:
        cursor.execute("SELECT client_secret, callback_key FROM payments_airtelconnection")
        stored = cursor.fetchone()
    assert "church-airtel-secret" not in stored[0] and CALLBACK_KEY not in stored[1]
    assert AirtelConnection.objects.get().client_secret == "church-airtel-secret-77aa"
    detail = make_api_client(signed_in_as=airtel_church.owner).get(airtel_church.url).json()
    assert "church-airtel" not in json.dumps(detail)
    assert detail["credentials_set"] and detail["callback_signed"]
