"""The acceptance cross-check: money in by every channel (PIN prompt, paybill, card, the desk's cash, a
treasurer's hand entry, a statement import), spending in several categories with one line reversed
and one waiting, and then the public page's totals == the committee's report's == the ledger's, and no
private payee's name on the public page."""

import csv
import hashlib
import hmac
import io
import json
from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Sum
from django.utils import timezone
from pypdf import PdfReader

from campaigns.models import Campaign
from campaigns.selectors import campaign_card_account, campaign_stk_account
from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import TEST_PAYBILL
from desk.actors import DeskActor
from desk.services import desk_entry_record
from events.tests.factories import open_event
from payments import services as payments
from payments.models import MpesaConnection, Payment
from payments.providers import paystack
from payments.providers.daraja import DarajaClient, StkPushAccepted, StkQueryAnswer, StkResult
from payments.providers.paystack import PaystackClient
from payments.tests.support import stk_callback
from pledges import services as pledges
from pledges.models import Pledge
from simulators.statements import Line, statement_csv
from spending.models import SpendingRecord, SpendingStatus
from spending.services import spending_reverse
from spending.tests.factories import spent, treasurer_of
from statements import services as statements

pytestmark = pytest.mark.django_db

PRIVATE_PAYEE = "Grace Akinyi Wambui"


def _pledge(campaign: Campaign, amount: int) -> Pledge:
    return pledges.pledge_create(
        campaign_id=campaign.pk,
        amount=amount,
        name="Njeri Wanjiru",
        email="njeri@example.com",
        phone="0711000222",
        is_anonymous=False,
        viewer=None,
        client_ip="203.0.113.9",
    )


def money_in_by_every_channel(campaign: Campaign) -> None:
    organizer = campaign.organizer
    connection = MpesaConnection.objects.get(account__paybill_number=TEST_PAYBILL)
    accepted = StkPushAccepted(merchant_request_id="mr-1", checkout_request_id="ws_CO_1", customer_message="OK")
    with (
        mock.patch.object(DarajaClient, "stk_push", return_value=accepted),
        mock.patch.object(
            PaystackClient,
            "initialize",
            side_effect=lambda *, reference, **kw: paystack.Checkout(
                authorization_url="https://checkout.test", access_code="x", reference=reference
            ),
        ),
        mock.patch.object(
            PaystackClient,
            "verify",
            side_effect=lambda reference: paystack.Transaction(
                body={},
                reference=reference,
                status="success",
                amount_subunit=2_500 * 100,
                currency="KES",
                transaction_id="tx-1",
                gateway_response="success",
            ),
        ),
    ):
        # A PIN prompt (STK Push) for a gift of 1,000.
        prompt = payments.payment_stk_push_start(
            purpose=Payment.Purpose.DONATION,
            amount=1_000,
            phone="0711000222",
            campaign=campaign,
            collection_account=campaign_stk_account(campaign=campaign),
        )
        pledges.donation_attach_payment(
            payment=prompt, campaign=campaign, name="Donor", email="", phone="", is_anonymous=False
        )
        payments.payment_record_stk_callback(
            body=stk_callback("ws_CO_1", result_code=0, amount=1_000, receipt="SLK0000001"), remote_addr="127.0.0.1"
        )
        # Daraja's answer to the STK query vouches for the callback.
        prompt.refresh_from_db()
        payments.payment_record_stk_query_result(
            payment=prompt,
            answer=StkQueryAnswer(
                body={},
                result=StkResult(
                    checkout_request_id="ws_CO_1", merchant_request_id="", result_code=0, result_desc="ok"
                ),
            ),
        )
        # A card gift of 2,500.
        card = payments.payment_checkout_start(
            purpose=Payment.Purpose.DONATION,
            amount=2_500,
            email="donor@example.com",
            campaign=campaign,
            collection_account=campaign_card_account(campaign=campaign),
        )
        pledges.donation_attach_payment(
            payment=card, campaign=campaign, name="Donor", email="", phone="", is_anonymous=False
        )
        raw = json.dumps({"event": paystack.CHARGE_SUCCESS, "data": {"reference": card.reference}}).encode()
        signature = hmac.new(settings.PAYSTACK_SECRET_KEY.encode(), raw, hashlib.sha512).hexdigest()
        payments.payment_record_card_webhook(raw_body=raw, signature=signature, remote_addr=None)
    # The paybill (C2B) to a pledge's code: 4,000.
    pledge = _pledge(campaign, 50_000)
    payments.payment_record_c2b_confirmation(
        body={
            "TransactionType": "Pay Bill",
            "TransID": "SLKC2B0001",
            "TransTime": "20261122103000",
            "TransAmount": "4000.00",
            "BusinessShortCode": TEST_PAYBILL,
            "BillRefNumber": pledge.code,
            "MSISDN": "254711000222",
            "FirstName": "John",
        },
        remote_addr=None,
        connection=connection,
    )
    # Cash at the desk of tonight's event: 700.
    event = open_event(campaign)
    desk_entry_record(
        actor=DeskActor(user=organizer),
        event_id=event.pk,
        idempotency_key="desk-cash-1",
        kind="cash",
        amount=700,
        name="",
        phone="",
        is_anonymous=False,
        mpesa_receipt="",
    )
    # A treasurer's hand entry: 3,000 by bank.
    pledges.pledge_payment_record(
        pledge_id=pledge.pk, user=organizer, amount=3_000, method="bank", note="", reference="FT-1"
    )
    # A statement import of the paybill: 6,000 to the pledge's code.
    account = connection.account
    rows = [Line("SLKST00001", timezone.now() - timedelta(hours=2), 6_000, account_number=pledge.code)]
    upload = SimpleUploadedFile("statement.csv", statement_csv(rows, shortcode=account.paybill_number))
    previewed = statements.statement_import_upload(
        user=organizer, organization_id=account.organization_id, account_id=account.pk, file=upload
    )
    statements.statement_import_confirm(user=organizer, organization_id=account.organization_id, import_id=previewed.pk)


def spending_in_several_categories(campaign: Campaign) -> None:
    treasurer = treasurer_of(campaign)
    spent(campaign, amount=5_000, category="materials", recorder=treasurer)
    spent(campaign, amount=2_000, category="labour", payee=PRIVATE_PAYEE, payee_kind="person", recorder=treasurer)
    spent(campaign, amount=800, category="transport", recorder=treasurer)
    mistake = spent(campaign, amount=9_999, category="materials", recorder=treasurer)
    spending_reverse(user=campaign.organizer, record_id=mistake.pk, reason="Entered twice")
    spent(campaign, amount=1_234, category="other", recorder=treasurer, approve=False)  # still waiting


def _csv_totals(content: bytes) -> dict[str, int]:
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    return {row[1].split(" / ")[0]: int(row[2]) for row in rows if row and row[0].startswith("Totals")}


def test_the_public_page_the_report_and_the_ledger_agree(make_api_client, settings, tmp_path):
    (tmp_path / "index.html").write_text(
        "<!doctype html><title>Harambee</title><div id='root'></div>", encoding="utf-8"
    )
    settings.FRONTEND_DIST = tmp_path
    campaign = CampaignFactory.create(paybill=TEST_PAYBILL, cards=True)
    money_in_by_every_channel(campaign)
    spending_in_several_categories(campaign)
    campaign.refresh_from_db()

    # The ledger, read directly.
    counted = Payment.objects.filter(campaign=campaign, counted_at__isnull=False)
    ledger_in = counted.aggregate(total=Sum("amount"))["total"]
    channels = set(counted.values_list("provider", flat=True))
    approved_unreversed = SpendingRecord.objects.filter(
        campaign=campaign, status=SpendingStatus.APPROVED, reverses__isnull=True, reversal__isnull=True
    )
    ledger_out = approved_unreversed.aggregate(total=Sum("amount"))["total"]
    assert ledger_in == campaign.raised_total == 1_000 + 2_500 + 4_000 + 700 + 3_000 + 6_000
    assert {"mpesa_stk", "card", "mpesa_c2b", "cash", "bank", "mpesa_manual"} <= channels
    assert ledger_out == 5_000 + 2_000 + 800

    # The public page's data, as the server renders it, and the API's answer.
    visitor = make_api_client()
    public = visitor.get(f"/api/campaigns/{campaign.pk}/accountability").json()["figures"]
    page = visitor.get(f"/campaign/{campaign.pk}/spending")
    assert page.status_code == 200
    assert PRIVATE_PAYEE not in page.content.decode()
    assert "Akinyi" not in page.content.decode() and "G. A. W." in page.content.decode()

    # The committee's report, CSV and PDF.
    team = make_api_client(signed_in_as=campaign.organizer)
    report = _csv_totals(b"".join(team.get(f"/api/campaigns/{campaign.pk}/spending-report.csv").streaming_content))
    pdf = team.get(f"/api/campaigns/{campaign.pk}/spending-report.pdf")
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)

    assert public["raised"] == report["Money in"] == ledger_in
    assert sum(row["amount"] for row in public["in_by_channel"]) == ledger_in
    assert public["spent"] == report["Money out"] == ledger_out
    assert public["left"] == report["Balance"] == ledger_in - public["platform_fees"] - ledger_out
    for figure in (ledger_in, ledger_out, public["left"]):
        assert f"Ksh {figure:,}" in text
