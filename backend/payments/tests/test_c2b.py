"""Paybill payments people make themselves (C2B) into an organization's paybill: URLs registered
with the real adapter, the simulator playing the customer, validation and confirmation arriving
over HTTP. Harambee's own paybill takes no such payment."""

import io
import json
import time

import httpx
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client

from collection_accounts.tests.factories import CHURCH_CALLBACK_TOKEN, TEST_PAYBILL, connected_paybill
from organizations.models import Organization
from payments.models import Payment, PaymentEvent
from payments.tests.support import wait_for
from simulators.models import SimulatedC2BRegistration

URL = f"/api/payments/callbacks/c2b/{CHURCH_CALLBACK_TOKEN}"
PLATFORM_URL = "/api/payments/callbacks/c2b/local-callback-token"


@pytest.fixture(autouse=True)
def church_paybill():
    """The paybill of a church, connected to M-Pesa: its confirmations reach us."""
    return connected_paybill(Organization.objects.create(name="ICC Imara", kind="church"), TEST_PAYBILL)


def c2b_body(**fields):
    return {
        "TransactionType": "Pay Bill",
        "TransID": "SLK4Q7T2XZ",
        "TransTime": "20261122103000",
        "TransAmount": "500.00",
        "BusinessShortCode": TEST_PAYBILL,
        "BillRefNumber": "PLEDGE-42",
        "InvoiceNumber": "",
        "OrgAccountBalance": "",
        "ThirdPartyTransID": "",
        "MSISDN": "2547 ***** 149",
        "FirstName": "John",
        "MiddleName": "",
        "LastName": "",
        **fields,
    }


def post(body, path="confirmation", url=URL):
    return Client(enforce_csrf_checks=True).post(f"{url}/{path}", json.dumps(body), content_type="application/json")


@pytest.fixture
def registered(providers):
    """Harambee's own paybill registered by its command; the church's paybill (the test campaigns'
    church, or this module's) registered with its own callback URLs, as its connection does."""
    call_command("mpesa_register_c2b_urls", stdout=io.StringIO())
    SimulatedC2BRegistration.objects.create(
        shortcode=TEST_PAYBILL,
        response_type="Completed",
        confirmation_url=f"{settings.MPESA_CALLBACK_BASE_URL}{URL}/confirmation",
        validation_url=f"{settings.MPESA_CALLBACK_BASE_URL}{URL}/validation",
    )
    return providers


def pay_bill(providers, **body):
    body = {"ShortCode": TEST_PAYBILL, **body}
    answer = httpx.post(f"{providers.url}/simulators/daraja/c2b/simulate", json=body, timeout=5)
    assert answer.status_code == 200, answer.text
    return answer.json()["TransID"]


@pytest.mark.django_db(transaction=True)
def test_registered_urls_point_at_us_and_do_not_mention_mpesa(registered):
    registration = SimulatedC2BRegistration.objects.get(shortcode="174379")

    assert registration.confirmation_url == f"{registered.url}{PLATFORM_URL}/confirmation"
    assert registration.validation_url == f"{registered.url}{PLATFORM_URL}/validation"
    assert registration.response_type == "Completed"
    assert "mpesa" not in registration.confirmation_url.lower()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("account", ["K7M2Q9X4PZ3T", "harambee church"], ids=["known-format", "unknown"])
def test_a_paybill_payment_is_recorded_as_an_unmatched_pledge_payment(registered, account):
    trans_id = pay_bill(registered, BillRefNumber=account, Amount=750, MSISDN="254708374149")

    payment = wait_for(lambda: Payment.objects.filter(mpesa_receipt=trans_id).first())
    assert payment is not None
    wait_for(lambda: payment.events.filter(outcome=PaymentEvent.Outcome.CREDITED).exists())
    payment.refresh_from_db()
    assert (payment.provider, payment.purpose, payment.status) == ("mpesa_c2b", "pledge_payment", "succeeded")
    assert (payment.amount, payment.account_reference) == (750, account)
    assert payment.receipt_number
    assert payment.payer_phone == ""  # Safaricom masks the number: never used to match
    validation = PaymentEvent.objects.get(kind=PaymentEvent.Kind.C2B_VALIDATION)
    assert validation.outcome == PaymentEvent.Outcome.ACCEPTED


@pytest.mark.django_db(transaction=True)
def test_a_payment_without_an_account_number_is_rejected_at_validation(registered):
    pay_bill(registered, BillRefNumber="", Amount=750, MSISDN="254708374149")

    wait_for(lambda: PaymentEvent.objects.filter(outcome=PaymentEvent.Outcome.REJECTED).exists())
    time.sleep(0.3)  # a confirmation would follow the validation answer at once
    assert not Payment.objects.exists()


@pytest.mark.django_db
def test_the_same_confirmation_twice_is_credited_once():
    first, second = post(c2b_body()), post(c2b_body())

    assert [first.json(), second.json()] == [{"ResultCode": 0, "ResultDesc": "Accepted"}] * 2
    payment = Payment.objects.get()
    assert list(payment.events.values_list("outcome", flat=True).order_by("id")) == ["credited", "duplicate"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"BusinessShortCode": "600000"}, "C2B00015"),
        ({"BillRefNumber": ""}, "C2B00012"),
        ({"TransAmount": "0"}, "C2B00013"),
        ({"TransAmount": "1000000001"}, "C2B00013"),
    ],
    ids=["other-shortcode", "no-account", "no-amount", "beyond-any-real-payment"],
)
def test_validation_rejects_what_we_cannot_take(fields, code):
    answer = post(c2b_body(**fields), path="validation")

    assert answer.json() == {"ResultCode": code, "ResultDesc": "Rejected"}


@pytest.mark.django_db
def test_a_payment_into_harambees_own_paybill_is_refused_and_credits_nothing(settings):
    body = c2b_body(BusinessShortCode=settings.MPESA_SHORTCODE, BillRefNumber="K7M2QPX")

    answer = post(body, path="validation", url=PLATFORM_URL)
    assert answer.json() == {"ResultCode": "C2B00015", "ResultDesc": "Rejected"}
    assert post(body, url=PLATFORM_URL).status_code == 200
    assert not Payment.objects.exists()
    assert PaymentEvent.objects.get(kind=PaymentEvent.Kind.C2B_CONFIRMATION).outcome == "ignored_unknown"


@pytest.mark.django_db
def test_a_confirmation_for_another_shortcode_changes_nothing():
    answer = post(c2b_body(BusinessShortCode="600000"))

    assert answer.status_code == 200
    assert not Payment.objects.exists()
    assert PaymentEvent.objects.get().outcome == PaymentEvent.Outcome.IGNORED_UNKNOWN


@pytest.mark.django_db
def test_a_malformed_confirmation_gets_400():
    answer = post(c2b_body(TransAmount="five hundred"))

    assert answer.status_code == 400
    assert not Payment.objects.exists()


@pytest.mark.django_db
def test_a_confirmation_too_large_for_the_ledger_is_flagged_and_acknowledged():
    answer = post(c2b_body(TransAmount=str(10**20)))

    assert (answer.status_code, answer.json()) == (200, {"ResultCode": 0, "ResultDesc": "Accepted"})
    assert not Payment.objects.exists()
    event = PaymentEvent.objects.get()
    assert (event.outcome, event.body["TransAmount"]) == (PaymentEvent.Outcome.FLAGGED_MISMATCH, str(10**20))


@pytest.mark.django_db
def test_a_body_larger_than_any_real_callback_is_refused_and_not_stored():
    answer = post(c2b_body(FirstName="x" * 70_000))

    assert answer.status_code == 413
    assert not PaymentEvent.objects.exists()
