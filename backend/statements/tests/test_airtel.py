"""Airtel Money statements: read in the merchant portal's columns, previewed, confirmed and undone like
M-Pesa ones, and never a second credit for a push a callback, an enquiry or an earlier import recorded."""

import uuid
from datetime import timedelta

import httpx
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT
from django.utils import timezone

from payments import airtel
from payments.models import Payment, PaymentEvent, PaymentReversal
from payments.tests.airtel_support import airtel_church, connect
from payments.tests.support import providers, settled, wait_for
from pledges.models import Pledge
from pledges.tests.factories import PledgeFactory
from simulators.models import SimulatedAirtelPayment
from statements.airtel import airtel_statement_parse
from statements.reading import StatementError

__all__ = ["airtel_church", "providers"]

NAIROBI_DAY = (timezone.now() - timedelta(hours=2)).astimezone(timezone.get_fixed_timezone(180))
JSON = "application/json"


def _csv(rows: list[tuple[str, str, str, int | str, str]]) -> bytes:
    """A statement as the portal exports it: (id, msisdn, name, amount, reference) per row, all successes."""
    lines = ["Transaction ID,Transaction Date,Sender MSISDN,Sender Name,Transaction Type,Reference,Amount,Status"]
    stamp = f"{NAIROBI_DAY:%d/%m/%Y %H:%M:%S}"
    for txn, msisdn, name, amount, reference in rows:
        lines.append(f"{txn},{stamp},{msisdn},{name},Merchant Payment,{reference},{amount},Success")
    return ("\n".join(lines) + "\n").encode()


def _path(account, suffix: str = "") -> str:
    return f"/api/orgs/{account.organization_id}/statement-imports{suffix}"


def _upload(client, account, data: bytes):
    return client.post(
        _path(account),
        {"account_id": account.pk, "file": SimpleUploadedFile("airtel.csv", data, content_type="text/csv")},
        content_type=MULTIPART_CONTENT,
    )


def _import(client, account, data: bytes) -> dict:
    preview = _upload(client, account, data)
    assert preview.status_code == 201, preview.content
    confirmed = client.post(_path(account, f"/{preview.json()['id']}/confirm"), {}, content_type=JSON)
    assert confirmed.status_code == 200, confirmed.content
    return confirmed.json()


def test_the_portals_columns_are_read_and_money_out_and_failures_are_told_apart():
    data = _csv([("MP261128.1054.A12345", "254733123456", "JANE WANJIRU", '"2,000.00"', "abc2345")])
    data += b"MP261128.1100.B00001,28/11/2026 11:00:00,254733000111,CHURCH,Settlement,,-5000.00,Success\n"
    data += b"MP261128.1101.C00002,28/11/2026 11:01:00,254733123456,JANE,Merchant Payment,ABC2345,100,Failed\n"

    statement = airtel_statement_parse(data)

    first, settlement, failed = statement.rows
    assert (first.receipt, first.paid_in, first.account_number) == ("MP261128.1054.A12345", 2000, "abc2345")
    assert first.other_party == "254733123456 - JANE WANJIRU" and first.is_completed
    assert (settlement.paid_in, settlement.withdrawn) == (0, 5000)
    assert not failed.is_completed
    with pytest.raises(StatementError):
        airtel_statement_parse(b"Receipt No.,Completion Time,Paid In\nSLK1,2026-11-28 10:00:00,100\n")


@pytest.mark.django_db
def test_preview_confirm_and_undo_of_an_airtel_statement(make_api_client, airtel_church_db):
    church = airtel_church_db
    pledge = PledgeFactory.create(campaign=church.campaign, amount=5_000)
    client = make_api_client(signed_in_as=church.owner)
    data = _csv(
        [
            ("MP261128.1054.A12345", "254733123456", "JANE", 2000, pledge.code),
            ("MP261128.1055.A12346", "254733999888", "JOHN", 700, "nothing"),
        ]
    )

    preview = _upload(client, church.account, data).json()
    assert [row["category"] for row in preview["rows"]] == ["matched", "unmatched"]
    assert not Payment.objects.exists()
    confirmed = client.post(_path(church.account, f"/{preview['id']}/confirm"), {}, content_type=JSON)
    assert confirmed.status_code == 200, confirmed.content
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 2_000
    assert set(Payment.objects.values_list("provider", "mpesa_receipt")) == {
        ("airtel", "MP261128.1054.A12345"),
        ("airtel", "MP261128.1055.A12346"),
    }
    again = _import(client, church.account, data)
    assert again["figures"]["recorded"]["rows"] == 2
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 2_000

    undone = client.post(_path(church.account, f"/{preview['id']}/undo"), {"reason": "Wrong file"}, content_type=JSON)

    assert undone.status_code == 200, undone.content
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 0
    assert PaymentReversal.objects.count() == 2


@pytest.fixture
def airtel_church_db(db):
    from types import SimpleNamespace

    from campaigns.tests.factories import CampaignFactory, link_account
    from organizations.models import Membership
    from payments.tests.airtel_support import airtel_account, airtel_url

    campaign = CampaignFactory.create()
    account = airtel_account(campaign.organization)
    link_account(campaign, account)
    owner = Membership.objects.get(organization=campaign.organization).user
    return SimpleNamespace(campaign=campaign, account=account, owner=owner, url=airtel_url(account))


def _push(api_client, pledge, phone: str) -> Payment:
    answer = api_client.post(
        f"/api/pledges/{pledge.code}/airtel-push",
        {"phone": phone, "amount": 2_000, "idempotency_key": uuid.uuid4().hex},
        content_type=JSON,
        REMOTE_ADDR="127.0.0.54",
    )
    assert answer.status_code == 201, answer.content
    return Payment.objects.get(reference=answer.json()["reference"])


def _simulator_statement(providers, account) -> bytes:
    return httpx.get(
        f"{providers.url}/simulators/airtel/statement/{account.merchant_msisdn[-9:]}.csv", timeout=5
    ).content


@pytest.mark.django_db(transaction=True)
def test_the_statement_imported_after_the_callback_credits_nothing_more(
    airtel_church, make_api_client, api_client, providers
):
    connect(airtel_church, make_api_client)
    pledge = PledgeFactory.create(campaign=airtel_church.campaign, amount=5_000)
    payment = settled(_push(api_client, pledge, "0733123456").reference)

    summary = _import(
        make_api_client(signed_in_as=airtel_church.owner),
        airtel_church.account,
        _simulator_statement(providers, airtel_church.account),
    )

    assert summary["figures"]["recorded"]["rows"] == 1
    assert Payment.objects.count() == 1
    assert PaymentEvent.objects.filter(payment=payment, outcome="credited").count() == 1
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 2_000


@pytest.mark.django_db(transaction=True)
def test_the_statement_completes_a_push_whose_callback_was_lost_and_the_enquiry_then_agrees(
    airtel_church, make_api_client, api_client, providers
):
    connect(airtel_church, make_api_client)
    pledge = PledgeFactory.create(campaign=airtel_church.campaign, amount=5_000)
    payment = _push(api_client, pledge, "0733129999")  # paid, no callback
    simulated = wait_for(
        lambda: SimulatedAirtelPayment.objects.filter(transaction_id=payment.reference, status="TS").first()
    )
    assert simulated is not None

    _import(
        make_api_client(signed_in_as=airtel_church.owner),
        airtel_church.account,
        _simulator_statement(providers, airtel_church.account),
    )
    airtel.payment_airtel_enquire(payment=payment)

    payment.refresh_from_db()
    assert (payment.status, payment.mpesa_receipt) == (Payment.Status.SUCCEEDED, simulated.airtel_money_id)
    assert Payment.objects.count() == 1
    assert PaymentEvent.objects.filter(payment=payment, outcome="credited").count() == 1
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 2_000
