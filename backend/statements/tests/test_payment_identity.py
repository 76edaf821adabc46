"""One payment, one credit across the features that report it (issue #44), through HTTP where a person
or a provider reaches us: a PIN prompt confirmed by query, then its statement row, then Pull; import,
undo, import again; the same receipt in two organizations; a statement with cents withdrawn."""

from datetime import timedelta
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.tests.factories import CampaignFactory
from collection_accounts.models import CollectionAccount
from payments import services as payments
from payments.models import MpesaConnection, Payment, PaymentEvent, PaymentReversal
from payments.providers.daraja import DarajaClient, PulledTransaction, StkQueryAnswer, StkResult
from payments.tests.support import CHECKOUT_REQUEST_ID, pending_stk_intent, stk_callback
from pledges.models import Pledge
from pledges.tests.factories import make_pledge
from pledges.tests.test_ledger_properties import typo
from simulators.statements import Line, statement_csv
from statements.tests.test_api import RECENT, paid_by_c2b, path, upload

pytestmark = pytest.mark.django_db

RECEIPT = "SLK6000001"


def preview_categories(client, campaign, import_id):
    rows = client.get(path(campaign, f"/{import_id}")).json()["rows"]
    return {row["receipt"]: row["category"] for row in rows}


def confirm(client, campaign, import_id):
    answer = client.post(path(campaign, f"/{import_id}/confirm"), {}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    return answer


def paid(pledge):
    return Pledge.objects.get(pk=pledge.pk).paid_amount


def test_a_pin_prompt_confirmed_by_query_then_its_statement_row_then_pull_pay_the_pledge_once(
    client, treasurer_client, campaign, paybill, pledge, settings
):
    settings.MPESA_ALLOWED_IPS = []  # the default: the callback vouches for nothing, the query decides
    connection = MpesaConnection.objects.get(account=paybill)
    prompt = pending_stk_intent(
        amount=6_000,
        purpose=Payment.Purpose.PLEDGE_PAYMENT,
        campaign=campaign,
        collection_account=paybill,
        account_reference=pledge.code,
    )
    callback = reverse("api:payments_stk_callback", kwargs={"token": connection.callback_token})
    answered = client.post(
        callback, stk_callback(CHECKOUT_REQUEST_ID, amount=6_000, receipt=RECEIPT), "application/json"
    )
    query = StkResult(checkout_request_id=CHECKOUT_REQUEST_ID, merchant_request_id="", result_code=0, result_desc="OK")
    payments.payment_record_stk_query_result(payment=prompt, answer=StkQueryAnswer(body={}, result=query))

    statement = statement_csv([Line(RECEIPT, RECENT, 6_000, account_number=pledge.code)], shortcode=paybill.number)
    previewed = upload(treasurer_client, campaign, paybill, statement).json()
    categories = preview_categories(treasurer_client, campaign, previewed["id"])
    confirm(treasurer_client, campaign, previewed["id"])
    pulled = PulledTransaction(RECEIPT, RECENT, 6_000, paybill.number, pledge.code, "2547 ***** 149", "c2b-pay-bill")
    with mock.patch.object(DarajaClient, "pull_transactions", return_value=[pulled]):
        payments.mpesa_pull_run(connection=connection)

    assert answered.status_code == 200
    assert Payment.objects.get(pk=prompt.pk).mpesa_receipt == RECEIPT
    assert categories == {RECEIPT: "recorded"}
    assert paid(pledge) == 6_000
    assert Payment.objects.filter(mpesa_receipt=RECEIPT).count() == 1
    # Each reporter's word is kept on the one payment: callback, query, statement row, Pull.
    kinds = set(PaymentEvent.objects.filter(payment=prompt).values_list("kind", flat=True))
    assert kinds == {"stk_callback", "stk_query", "statement_row", "pull"}


def test_a_prompt_confirmed_without_any_receipt_takes_its_statement_rows_receipt(
    treasurer_client, campaign, paybill, pledge
):
    prompt = pending_stk_intent(
        amount=2_500,
        purpose=Payment.Purpose.PLEDGE_PAYMENT,
        campaign=campaign,
        collection_account=paybill,
        account_reference=pledge.code,
    )
    query = StkResult(checkout_request_id=CHECKOUT_REQUEST_ID, merchant_request_id="", result_code=0, result_desc="OK")
    payments.payment_record_stk_query_result(payment=prompt, answer=StkQueryAnswer(body={}, result=query))
    paid_at = timezone.now().replace(microsecond=0)
    statement = statement_csv([Line(RECEIPT, paid_at, 2_500, account_number=pledge.code)], shortcode=paybill.number)

    previewed = upload(treasurer_client, campaign, paybill, statement).json()
    categories = preview_categories(treasurer_client, campaign, previewed["id"])
    confirm(treasurer_client, campaign, previewed["id"])

    assert categories == {RECEIPT: "recorded"}
    assert Payment.objects.get(pk=prompt.pk).mpesa_receipt == RECEIPT
    assert paid(pledge) == 2_500


def test_import_undo_import_again_credits_what_the_first_import_did_and_the_unmatched_row_is_back(
    treasurer_client, campaign, paybill, pledge
):
    statement = statement_csv(
        [
            Line("SLK7000001", RECENT, 4_000, account_number=pledge.code),
            Line("SLK7000002", RECENT, 700, account_number=typo(pledge.code)),
            Line("SLK7000003", RECENT, 1_500, account_number="TITHE"),
        ],
        shortcode=paybill.number,
    )
    first = upload(treasurer_client, campaign, paybill, statement).json()
    confirm(treasurer_client, campaign, first["id"])
    after_first = (paid(pledge), campaign.__class__.objects.get(pk=campaign.pk).raised_total)

    undone = treasurer_client.post(
        path(campaign, f"/{first['id']}/undo"), {"reason": "Wrong file"}, content_type="application/json"
    )
    after_undo = (paid(pledge), campaign.__class__.objects.get(pk=campaign.pk).raised_total)
    again = upload(treasurer_client, campaign, paybill, statement).json()
    categories = preview_categories(treasurer_client, campaign, again["id"])
    confirm(treasurer_client, campaign, again["id"])
    unmatched = treasurer_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments")

    assert undone.status_code == 200, undone.content
    assert after_first == (4_000, 4_000)
    assert after_undo == (0, 0)
    assert categories == {"SLK7000001": "matched", "SLK7000002": "unmatched", "SLK7000003": "keyword"}
    assert (paid(pledge), campaign.__class__.objects.get(pk=campaign.pk).raised_total) == after_first
    assert unmatched.status_code == 200, unmatched.content
    assert "SLK7000002" in unmatched.content.decode()


def undo(client, campaign, import_id):
    answer = client.post(
        path(campaign, f"/{import_id}/undo"), {"reason": "Wrong file"}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    return answer


def test_undo_takes_back_an_imported_payment_whose_later_confirmation_contradicts_its_amount(
    treasurer_client, campaign, paybill, pledge
):
    statement = statement_csv([Line(RECEIPT, RECENT, 376, account_number=pledge.code)], shortcode=paybill.number)
    imported = upload(treasurer_client, campaign, paybill, statement).json()
    confirm(treasurer_client, campaign, imported["id"])
    paid_by_c2b(RECEIPT, 1_858, pledge.code)  # M-Pesa tells another amount: flagged, it vouches for nothing

    undo(treasurer_client, campaign, imported["id"])

    payment = Payment.objects.get(mpesa_receipt=RECEIPT)
    assert PaymentReversal.objects.filter(payment=payment).exists()
    assert paid(pledge) == 0
    # The contradicting confirmation stays on the payment, flagged for a person.
    assert payment.flagged
    assert PaymentEvent.objects.filter(payment=payment, kind="c2b_confirmation", outcome="flagged_mismatch").exists()


def test_undo_leaves_an_imported_payment_mpesa_confirmed_since_with_its_amount(
    treasurer_client, campaign, paybill, pledge
):
    statement = statement_csv([Line(RECEIPT, RECENT, 376, account_number=pledge.code)], shortcode=paybill.number)
    imported = upload(treasurer_client, campaign, paybill, statement).json()
    confirm(treasurer_client, campaign, imported["id"])
    paid_by_c2b(RECEIPT, 376, pledge.code)

    undo(treasurer_client, campaign, imported["id"])

    assert not PaymentReversal.objects.exists()
    assert paid(pledge) == 376


def test_one_organizations_hand_entry_of_a_receipt_does_not_block_anothers_confirmation(
    make_api_client, treasurer_client, campaign, paybill, pledge
):
    other = CampaignFactory.create(paybill="600900")
    other_pledge = make_pledge(other, amount=3_000)
    other_paybill = CollectionAccount.objects.get(organization=other.organization, paybill_number="600900")
    other_connection = MpesaConnection.objects.get(account=other_paybill)
    typed = treasurer_client.post(
        f"/api/pledges/{pledge.pk}/payments",
        {"amount": 3_000, "method": "mpesa_manual", "reference": RECEIPT},
        content_type="application/json",
    )
    confirmation = {
        "TransactionType": "Pay Bill",
        "TransID": RECEIPT,
        "TransTime": "20261122103000",
        "TransAmount": "3000.00",
        "BusinessShortCode": "600900",
        "BillRefNumber": other_pledge.code,
        "MSISDN": "2547 ***** 149",
        "FirstName": "John",
    }
    callback = reverse("api:payments_c2b_confirmation", kwargs={"token": other_connection.callback_token})
    confirmed = make_api_client().post(callback, confirmation, content_type="application/json")

    assert typed.status_code == 201, typed.content
    assert confirmed.status_code == 200, confirmed.content
    assert paid(other_pledge) == 3_000
    assert paid(pledge) == 3_000
    assert Payment.objects.filter(mpesa_receipt=RECEIPT).count() == 2


def test_a_statement_with_cents_withdrawn_imports(treasurer_client, campaign, paybill, pledge):
    statement = statement_csv(
        [
            Line("SLK8000001", RECENT, 1_000, account_number=pledge.code),
            Line("SLK8000002", RECENT + timedelta(minutes=1), -1, reason_type="Business Charge"),
        ],
        shortcode=paybill.number,
    ).replace(b"-1.00", b"-0.55")

    uploaded = upload(treasurer_client, campaign, paybill, statement)

    assert uploaded.status_code == 201, uploaded.content
    confirm(treasurer_client, campaign, uploaded.json()["id"])
    assert paid(pledge) == 1_000


def test_the_preview_warns_of_each_matched_row_that_would_pay_a_pledge_beyond_its_amount(
    treasurer_client, campaign, paybill, pledge
):
    statement = statement_csv(
        [
            Line("SLK9000001", RECENT, 8_000, account_number=pledge.code),
            Line("SLK9000002", RECENT + timedelta(minutes=1), 4_000, account_number=pledge.code),
            Line("SLK9000003", RECENT + timedelta(minutes=2), 500, account_number=pledge.code),
        ],
        shortcode=paybill.number,
    )

    previewed = upload(treasurer_client, campaign, paybill, statement).json()
    rows = treasurer_client.get(path(campaign, f"/{previewed['id']}")).json()["rows"]

    assert {row["receipt"]: row["beyond_pledge"] for row in rows} == {
        "SLK9000001": 0,
        "SLK9000002": 2_000,
        "SLK9000003": 500,
    }
