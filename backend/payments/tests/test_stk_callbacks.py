"""The STK callback endpoint against what Daraja may really send: repeats, reordering, unknown
ids, broken bodies, wrong amounts, and requests that do not come from Daraja at all."""

import json
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client

from payments.models import Payment, PaymentEvent
from payments.providers.daraja import DarajaClient, StkQueryAnswer, StkResult
from payments.services import payment_expire_stale
from payments.tests.support import CHECKOUT_REQUEST_ID, pending_stk_intent, stk_callback

Outcome = PaymentEvent.Outcome
URL = "/api/payments/callbacks/stk/local-callback-token"
ACCEPTED = {"ResultCode": 0, "ResultDesc": "Accepted"}


@pytest.fixture
def daraja() -> Client:
    # Providers are not browsers: no session and no CSRF token, with CSRF checks on.
    return Client(enforce_csrf_checks=True)


def post(client: Client, body: object, url: str = URL, **extra: Any):
    content = body if isinstance(body, bytes) else json.dumps(body)
    return client.post(url, content, content_type="application/json", **extra)


def outcomes(payment: Payment) -> list[str]:
    return list(payment.events.order_by("id").values_list("outcome", flat=True))


@pytest.mark.django_db
def test_a_success_delivered_five_times_is_credited_once(daraja):
    payment = pending_stk_intent()

    answers = [post(daraja, stk_callback(CHECKOUT_REQUEST_ID)) for _ in range(5)]

    assert [(answer.status_code, answer.json()) for answer in answers] == [(200, ACCEPTED)] * 5
    payment.refresh_from_db()
    assert payment.status == Payment.Status.SUCCEEDED
    assert payment.mpesa_receipt == "SLK0000001"
    assert (payment.receipt_number or "").startswith("HRB-")
    assert outcomes(payment) == [Outcome.CREDITED] + [Outcome.DUPLICATE] * 4


@pytest.mark.django_db
def test_a_failure_arriving_after_the_success_does_not_undo_it(daraja):
    payment = pending_stk_intent()
    post(daraja, stk_callback(CHECKOUT_REQUEST_ID))
    receipt_number = Payment.objects.get(pk=payment.pk).receipt_number

    post(daraja, stk_callback(CHECKOUT_REQUEST_ID, result_code=1032))

    payment.refresh_from_db()
    assert (payment.status, payment.receipt_number) == (Payment.Status.SUCCEEDED, receipt_number)
    assert outcomes(payment) == [Outcome.CREDITED, Outcome.DUPLICATE]


@pytest.mark.django_db
def test_a_success_arriving_after_a_failure_still_credits_because_the_money_moved(daraja):
    payment = pending_stk_intent()

    post(daraja, stk_callback(CHECKOUT_REQUEST_ID, result_code=1037))
    post(daraja, stk_callback(CHECKOUT_REQUEST_ID))
    post(daraja, stk_callback(CHECKOUT_REQUEST_ID, result_code=1037))

    payment.refresh_from_db()
    assert payment.status == Payment.Status.SUCCEEDED
    assert outcomes(payment) == [Outcome.FAILED, Outcome.CREDITED, Outcome.DUPLICATE]


@pytest.mark.django_db
def test_a_late_success_credits_an_intent_that_had_expired(daraja):
    payment = pending_stk_intent()
    Payment.objects.filter(pk=payment.pk).update(status=Payment.Status.EXPIRED)

    post(daraja, stk_callback(CHECKOUT_REQUEST_ID))

    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.SUCCEEDED


@pytest.mark.django_db
def test_a_callback_for_an_unknown_request_is_acknowledged_logged_and_changes_nothing(daraja):
    payment = pending_stk_intent()

    answer = post(daraja, stk_callback("ws_CO_SOMEONE_ELSES"))

    assert (answer.status_code, answer.json()) == (200, ACCEPTED)
    event = PaymentEvent.objects.get()
    assert (event.outcome, event.payment) == (Outcome.IGNORED_UNKNOWN, None)
    assert event.body["Body"]["stkCallback"]["CheckoutRequestID"] == "ws_CO_SOMEONE_ELSES"
    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.PENDING


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        b"<xml>not json</xml>",
        {"Body": {}},
        {"Body": {"stkCallback": {"CheckoutRequestID": "ws_CO_TEST0001", "ResultCode": "zero"}}},
        {"Body": {"stkCallback": {"CheckoutRequestID": "ws_CO_TEST0001", "ResultCode": 0}}},  # no metadata
        stk_callback("ws_CO_TEST0001", amount=999.5),
        stk_callback("ws_CO_TEST0001", receipt=""),
    ],
    ids=["not-json", "no-callback", "bad-result-code", "success-without-metadata", "fractional-amount", "no-receipt"],
)
def test_a_malformed_callback_gets_400_and_changes_nothing(daraja, body):
    payment = pending_stk_intent()

    answer = post(daraja, body)

    assert answer.status_code == 400
    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.PENDING
    assert PaymentEvent.objects.get().outcome == Outcome.REJECTED_MALFORMED


@pytest.mark.django_db
def test_a_success_for_another_amount_is_recorded_and_flagged_not_credited(daraja):
    payment = pending_stk_intent(amount=1000)

    post(daraja, stk_callback(CHECKOUT_REQUEST_ID, amount=10))
    post(daraja, stk_callback(CHECKOUT_REQUEST_ID, amount=10))

    payment.refresh_from_db()
    assert (payment.status, payment.flagged, payment.receipt_number) == (Payment.Status.PENDING, True, None)
    assert payment.mpesa_receipt == "SLK0000001"
    assert "KES 10" in payment.flag_reason
    assert outcomes(payment) == [Outcome.FLAGGED_MISMATCH, Outcome.DUPLICATE]
    # A flagged payment waits for a person: it is never expired automatically.
    Payment.objects.filter(pk=payment.pk).update(created_at=payment.created_at.replace(year=2020))
    assert payment_expire_stale() == 0


@pytest.mark.django_db
def test_a_wrong_path_token_is_answered_404_and_nothing_is_logged(daraja):
    payment = pending_stk_intent()

    answer = post(daraja, stk_callback(CHECKOUT_REQUEST_ID), url="/api/payments/callbacks/stk/guessed-token")

    assert answer.status_code == 404
    assert not PaymentEvent.objects.exists()
    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.PENDING


@pytest.mark.django_db
def test_wrong_tokens_are_limited_per_address_but_the_right_one_never_is(daraja, settings):
    settings.RATE_LIMIT_CALLBACK_REJECTED = (2, 600)
    settings.MPESA_ALLOWED_IPS = ["127.0.18.60"]  # Daraja's address here
    payment = pending_stk_intent()
    guessed = "/api/payments/callbacks/stk/guessed-token"

    answers = [post(daraja, {}, url=guessed, REMOTE_ADDR="127.0.18.60").status_code for _ in range(3)]
    genuine = post(daraja, stk_callback(CHECKOUT_REQUEST_ID, amount=payment.amount), REMOTE_ADDR="127.0.18.60")

    assert answers == [404, 404, 429]
    assert (genuine.status_code, genuine.json()) == (200, ACCEPTED)
    assert post(daraja, {}, url=guessed, REMOTE_ADDR="127.0.18.61").status_code == 404


@pytest.mark.django_db
def test_the_address_allow_list_is_enforced_when_set(daraja, settings):
    settings.MPESA_ALLOWED_IPS = ["196.201.214.200"]
    payment = pending_stk_intent()

    refused = post(daraja, stk_callback(CHECKOUT_REQUEST_ID), REMOTE_ADDR="203.0.113.9")
    assert refused.status_code == 403
    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.PENDING

    accepted = post(daraja, stk_callback(CHECKOUT_REQUEST_ID), REMOTE_ADDR="196.201.214.200")
    assert accepted.status_code == 200
    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.SUCCEEDED


@pytest.mark.django_db
def test_a_success_naming_a_receipt_already_recorded_is_flagged_and_acknowledged(daraja):
    credited = pending_stk_intent()
    post(daraja, stk_callback(CHECKOUT_REQUEST_ID, receipt="SLK0000001"))
    replayed = pending_stk_intent(checkout_request_id="ws_CO_TEST0002")

    answer = post(daraja, stk_callback("ws_CO_TEST0002", receipt="SLK0000001"))

    assert (answer.status_code, answer.json()) == (200, ACCEPTED)
    replayed.refresh_from_db()
    assert (replayed.status, replayed.flagged, replayed.mpesa_receipt) == (Payment.Status.PENDING, True, None)
    assert "SLK0000001" in replayed.flag_reason
    assert outcomes(replayed) == [Outcome.FLAGGED_MISMATCH]
    assert Payment.objects.get(pk=credited.pk).mpesa_receipt == "SLK0000001"


@pytest.mark.django_db
def test_a_success_for_an_amount_beyond_any_real_payment_is_acknowledged_and_changes_nothing(daraja):
    answer = post(daraja, stk_callback("ws_CO_UNKNOWN", amount=10**20))

    assert (answer.status_code, answer.json()) == (200, ACCEPTED)
    assert PaymentEvent.objects.get().outcome == Outcome.IGNORED_UNKNOWN
    assert not Payment.objects.exists()


@pytest.fixture
def unvouched(settings, monkeypatch):
    """No allow-list: every callback could come from anyone holding the token. Daraja's answer to
    the STK query is ``answer.result``, set by each test."""
    settings.MPESA_ALLOWED_IPS = []
    answer = SimpleNamespace(result=None)
    queried: list[str] = []

    def stk_query(self, *, checkout_request_id):
        queried.append(checkout_request_id)
        return StkQueryAnswer(body={"ResultCode": "?"}, result=answer.result)

    monkeypatch.setattr(DarajaClient, "stk_query", stk_query)
    return SimpleNamespace(answer=answer, queried=queried)


def query_result(result_code: int) -> StkResult:
    return StkResult(
        checkout_request_id=CHECKOUT_REQUEST_ID,
        merchant_request_id="29115-34620561-1",
        result_code=result_code,
        result_desc="The service request is processed successfully." if result_code == 0 else "Cancelled",
    )


@pytest.mark.django_db
def test_a_success_nobody_vouches_for_is_credited_once_daraja_confirms_it(
    daraja, unvouched, django_capture_on_commit_callbacks
):
    payment = pending_stk_intent()
    unvouched.answer.result = query_result(0)

    with django_capture_on_commit_callbacks() as after_the_answer:
        answer = post(daraja, stk_callback(CHECKOUT_REQUEST_ID))

    assert (answer.status_code, answer.json()) == (200, ACCEPTED)
    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.PENDING
    assert unvouched.queried == []
    for callback in after_the_answer:
        callback()
    assert unvouched.queried == [CHECKOUT_REQUEST_ID]
    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.SUCCEEDED
    assert outcomes(payment) == [Outcome.PENDING, Outcome.CREDITED]


@pytest.mark.django_db
def test_a_forged_success_daraja_does_not_confirm_credits_nothing(
    daraja, unvouched, django_capture_on_commit_callbacks
):
    payment = pending_stk_intent()
    unvouched.answer.result = query_result(1032)

    with django_capture_on_commit_callbacks(execute=True):
        post(daraja, stk_callback(CHECKOUT_REQUEST_ID))

    payment.refresh_from_db()
    assert (payment.status, payment.receipt_number, payment.mpesa_receipt) == (Payment.Status.CANCELLED, None, None)
    assert outcomes(payment) == [Outcome.PENDING, Outcome.FAILED]


@pytest.mark.django_db
def test_a_success_daraja_is_still_processing_stays_pending(daraja, unvouched, django_capture_on_commit_callbacks):
    payment = pending_stk_intent()

    with django_capture_on_commit_callbacks(execute=True):
        post(daraja, stk_callback(CHECKOUT_REQUEST_ID))

    assert Payment.objects.get(pk=payment.pk).status == Payment.Status.PENDING
    assert outcomes(payment) == [Outcome.PENDING, Outcome.PENDING]
