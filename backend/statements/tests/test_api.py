"""Statement import over HTTP: upload → preview (nothing written) → confirm (credited once per
receipt) → undo (exactly its own credits taken back)."""

from datetime import timedelta

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.client import MULTIPART_CONTENT
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.tests.factories import UserFactory
from audit.models import AuditAction, AuditEntry
from campaigns.models import Campaign
from campaigns.tests.factories import link_account
from collection_accounts.tests.factories import TEST_PAYBILL
from notifications.models import NotificationLog
from payments import services as payments
from payments.models import MpesaConnection, Payment, PaymentReversal
from pledges import codes
from pledges.models import Pledge
from pledges.tests.factories import make_pledge
from pledges.tests.test_ledger_properties import typo
from simulators.statements import BankLine, Line, bank_statement_csv, statement_csv, statement_generate
from statements.models import BankStatementColumns, StatementImport
from statements.parsing import STATEMENT_MAX_BYTES
from statements.tests.test_reading import workbook

pytestmark = pytest.mark.django_db

RECENT = timezone.now().replace(microsecond=0) - timedelta(hours=2)
LONG_AGO = RECENT - timedelta(days=20)


def path(campaign, suffix=""):
    return f"/api/orgs/{campaign.organization_id}/statement-imports{suffix}"


def upload(client, campaign, account, data: bytes, name="statement.csv"):
    return client.post(
        path(campaign),
        {"account_id": account.pk, "file": SimpleUploadedFile(name, data, content_type="text/csv")},
        content_type=MULTIPART_CONTENT,
    )


def a_statement(pledge, *, extra=()):
    """One row of each kind, paid on the church's paybill."""
    return statement_csv(
        [
            Line("SLK0000001", RECENT, 4000, account_number=pledge.code.lower()),
            Line("SLK0000002", RECENT, 1500, account_number="tithe"),
            Line("SLK0000003", LONG_AGO, 700, account_number=typo(pledge.code)),
            Line("SLK0000004", RECENT, -2500, reason_type="Business Payment"),
            Line("SLK0000005", RECENT, 900, account_number=pledge.code, status="Failed"),
            Line("SLK0000006", RECENT, 300, account_number=pledge.code),
            Line("SLK0000007", RECENT, -300, reason_type="Reversal", linked_receipt="SLK0000006"),
            *extra,
        ],
        shortcode=TEST_PAYBILL,
    )


def paid_by_c2b(receipt: str, amount: int, account_number: str) -> None:
    """A paybill confirmation that reached us before the statement did."""
    payments.payment_record_c2b_confirmation(
        body={
            "TransactionType": "Pay Bill",
            "TransID": receipt,
            "TransTime": "20261122103000",
            "TransAmount": f"{amount}.00",
            "BusinessShortCode": TEST_PAYBILL,
            "BillRefNumber": account_number,
            "MSISDN": "2547 ***** 149",
            "FirstName": "John",
        },
        remote_addr=None,
        connection=MpesaConnection.objects.get(account__paybill_number=TEST_PAYBILL),
    )


def totals(campaign):
    campaign = Campaign.objects.get(pk=campaign.pk)
    return campaign.raised_total, campaign.donor_count


def test_the_preview_sorts_every_row_and_writes_nothing_to_the_ledger(treasurer_client, campaign, paybill, pledge):
    paid_by_c2b("SLK0000008", 1000, pledge.code)
    data = a_statement(pledge, extra=[Line("SLK0000008", RECENT, 1000, account_number=pledge.code)])

    response = upload(treasurer_client, campaign, paybill, data)

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "previewed"
    assert body["figures"] == {
        "matched": {"rows": 1, "total": 4000},
        "recorded": {"rows": 1, "total": 1000},
        "keyword": {"rows": 1, "total": 1500},
        "unmatched": {"rows": 1, "total": 700},
        "ignored": {"rows": 4, "total": 2500 + 900 + 300 + 300},
    }
    rows = {row["receipt"]: row for row in body["rows"]}
    assert (rows["SLK0000001"]["pledge_code"], rows["SLK0000001"]["campaign_title"]) == (pledge.code, "Church Roof")
    assert rows["SLK0000003"]["near_codes"] == [pledge.code]
    assert rows["SLK0000003"]["line"] == 8
    assert Payment.objects.count() == 1
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 1000


def test_confirming_credits_the_matched_rows_and_keeps_the_unmatched_for_a_person(
    treasurer_client, treasurer, campaign, paybill, pledge
):
    preview = upload(treasurer_client, campaign, paybill, a_statement(pledge)).json()

    response = treasurer_client.post(path(campaign, f"/{preview['id']}/confirm"), {}, content_type="application/json")

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed"
    assert response.json()["figures"]["matched"] == {"rows": 1, "total": 4000}
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 4000
    assert totals(campaign) == (4000, 1)
    credited = Payment.objects.get(mpesa_receipt="SLK0000001")
    assert (credited.status, credited.collection_account, credited.recorded_by) == ("succeeded", paybill, treasurer)
    unmatched = treasurer_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments").json()
    assert [payment["amount"] for payment in unmatched] == [700]
    assert not Payment.objects.filter(mpesa_receipt__in=["SLK0000002", "SLK0000004", "SLK0000005", "SLK0000006"])
    assert AuditEntry.objects.filter(action=AuditAction.STATEMENT_IMPORTED, actor=treasurer).count() == 1
    assert StatementImport.objects.get().rows == []

    again = treasurer_client.post(path(campaign, f"/{preview['id']}/confirm"), {}, content_type="application/json")

    assert (again.status_code, again.json()["code"]) == (400, "already_confirmed")


def test_the_same_statement_twice_credits_nothing_and_an_overlapping_one_only_its_new_rows(
    treasurer_client, campaign, paybill, pledge
):
    first = upload(treasurer_client, campaign, paybill, a_statement(pledge)).json()
    treasurer_client.post(path(campaign, f"/{first['id']}/confirm"), {}, content_type="application/json")
    payments_before = Payment.objects.count()

    second = upload(treasurer_client, campaign, paybill, a_statement(pledge)).json()
    assert second["figures"]["matched"]["rows"] == second["figures"]["unmatched"]["rows"] == 0
    treasurer_client.post(path(campaign, f"/{second['id']}/confirm"), {}, content_type="application/json")
    assert Payment.objects.count() == payments_before

    overlapping = a_statement(pledge, extra=[Line("SLK0000009", RECENT, 2000, account_number=pledge.code)])
    third = upload(treasurer_client, campaign, paybill, overlapping).json()
    treasurer_client.post(path(campaign, f"/{third['id']}/confirm"), {}, content_type="application/json")

    assert Payment.objects.count() == payments_before + 1
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 6000


def test_a_receipt_that_arrives_by_callback_after_the_import_is_not_credited_again(
    treasurer_client, campaign, paybill, pledge
):
    preview = upload(treasurer_client, campaign, paybill, a_statement(pledge)).json()
    treasurer_client.post(path(campaign, f"/{preview['id']}/confirm"), {}, content_type="application/json")

    paid_by_c2b("SLK0000001", 4000, pledge.code)

    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 4000


def test_undo_reverses_exactly_the_imports_own_credits(treasurer_client, treasurer, campaign, paybill, pledge):
    paid_by_c2b("SLK0000010", 1000, pledge.code)
    before = totals(campaign)
    preview = upload(treasurer_client, campaign, paybill, a_statement(pledge)).json()
    treasurer_client.post(path(campaign, f"/{preview['id']}/confirm"), {}, content_type="application/json")
    unmatched = Payment.objects.get(mpesa_receipt="SLK0000003")
    assigned = treasurer_client.post(
        f"/api/pledges/{pledge.pk}/assign-payment", {"reference": unmatched.reference}, content_type="application/json"
    )
    assert assigned.status_code == 200
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 1000 + 4000 + 700

    no_reason = treasurer_client.post(
        path(campaign, f"/{preview['id']}/undo"), {"reason": " "}, content_type="application/json"
    )
    assert no_reason.status_code == 422
    response = treasurer_client.post(
        path(campaign, f"/{preview['id']}/undo"), {"reason": "Wrong account"}, content_type="application/json"
    )

    assert response.status_code == 200, response.content
    assert (response.json()["status"], response.json()["undo_reason"]) == ("undone", "Wrong account")
    assert totals(campaign) == before
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 1000
    assert set(PaymentReversal.objects.values_list("payment__mpesa_receipt", flat=True)) == {"SLK0000001", "SLK0000003"}
    assert AuditEntry.objects.filter(action=AuditAction.STATEMENT_IMPORT_UNDONE, actor=treasurer).count() == 1
    twice = treasurer_client.post(
        path(campaign, f"/{preview['id']}/undo"), {"reason": "Again"}, content_type="application/json"
    )
    assert (twice.status_code, twice.json()["code"]) == (400, "not_confirmed")


def test_receipts_go_only_for_recent_money_unless_the_treasurer_asks(treasurer_client, campaign, paybill, pledge):
    old = [Line("SLK0000011", LONG_AGO, 500, account_number=pledge.code)]
    recent = [Line("SLK0000012", RECENT, 600, account_number=pledge.code)]
    data = statement_csv(old + recent, shortcode=TEST_PAYBILL)
    preview = upload(treasurer_client, campaign, paybill, data).json()

    treasurer_client.post(path(campaign, f"/{preview['id']}/confirm"), {}, content_type="application/json")

    assert dict(Payment.objects.values_list("mpesa_receipt", "notify_payer")) == {
        "SLK0000011": False,
        "SLK0000012": True,
    }
    later = statement_csv([Line("SLK0000013", LONG_AGO, 500, account_number=pledge.code)], shortcode=TEST_PAYBILL)
    preview = upload(treasurer_client, campaign, paybill, later).json()
    treasurer_client.post(
        path(campaign, f"/{preview['id']}/confirm"), {"send_receipts": True}, content_type="application/json"
    )
    assert Payment.objects.get(mpesa_receipt="SLK0000013").notify_payer is True


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "The file is empty."),
        (
            statement_csv([Line("SLK0000001", RECENT, 100)], shortcode="999999"),
            "This is the statement of shortcode 999999",
        ),
        (
            b"Receipt No.,Completion Time,Paid In\nSLK0000001,2026-11-01 10:00:00,=1+1\n",
            "Line 2: A cell holds a formula",
        ),
    ],
)
def test_a_bad_file_gets_a_clear_message_and_changes_nothing(treasurer_client, campaign, paybill, data, message):
    response = upload(treasurer_client, campaign, paybill, data)

    assert response.status_code == 422, response.content
    assert response.json()["field_errors"]["file"].startswith(message)
    assert not StatementImport.objects.exists()


@pytest.mark.parametrize(
    ("sheet_data", "message"),
    [
        ('<row r="1"><c r="JXLKR1"><v>1</v></c></row>', "Line 1: A statement may have at most 40 columns."),
        ('<row r="abc"><c r="A1"><v>1</v></c></row>', "Line 1: The row number abc is not the number of the next row."),
        ('<row r="1"><c r="1A1"><v>1</v></c></row>', "Line 1: The cell reference 1A1 is not one of this row's"),
    ],
)
def test_a_hostile_workbook_is_refused_with_its_line_never_a_server_error(
    treasurer_client, campaign, paybill, sheet_data, message
):
    response = upload(treasurer_client, campaign, paybill, workbook(sheet_data), name="statement.xlsx")

    assert response.status_code == 422, response.content
    assert response.json()["field_errors"]["file"].startswith(message)
    assert not StatementImport.objects.exists()


def test_statement_files_are_limited_per_user_and_per_organization(
    make_api_client, treasurer, campaign, paybill, settings
):
    settings.RATE_LIMIT_STATEMENT_FILE_USER = (2, 3600)
    settings.RATE_LIMIT_STATEMENT_FILE_ORGANIZATION = (3, 3600)
    owner = make_api_client(signed_in_as=campaign.organizer)
    treasurer_client = make_api_client(signed_in_as=treasurer)
    unreadable = b"not a statement"

    answers = [upload(treasurer_client, campaign, paybill, unreadable).status_code for _ in range(3)]
    answers += [upload(owner, campaign, paybill, unreadable).status_code for _ in range(2)]

    assert answers == [422, 422, 429, 422, 429]  # the treasurer's own 2; the organization's 3rd is the owner's
    refused = upload(owner, campaign, paybill, unreadable)
    assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
    assert "Retry-After" in refused.headers


def test_a_stranger_uses_up_none_of_an_organizations_statement_files(
    make_api_client, treasurer_client, campaign, paybill, settings
):
    settings.RATE_LIMIT_STATEMENT_FILE_ORGANIZATION = (1, 3600)
    stranger = make_api_client(signed_in_as=UserFactory.create())

    assert [upload(stranger, campaign, paybill, b"x").status_code for _ in range(3)] == [404, 404, 404]
    assert upload(treasurer_client, campaign, paybill, b"x").status_code == 422


def test_a_statement_over_20_mb_is_refused_before_it_is_read(treasurer_client, campaign, paybill):
    response = upload(treasurer_client, campaign, paybill, b"x" * (STATEMENT_MAX_BYTES + 1))

    assert (response.status_code, response.json()["code"]) == (422, "file_too_large")


def test_a_cash_point_has_no_statement_to_import(treasurer_client, campaign):
    cash = campaign.organization.collection_accounts.create(kind="cash", location="The church office")

    response = upload(treasurer_client, campaign, cash, statement_csv([], shortcode=TEST_PAYBILL))

    assert response.status_code == 422
    assert "account_id" in response.json()["field_errors"]


def test_the_preview_reads_the_ledger_in_the_same_queries_whatever_the_statement_size(
    treasurer_client, campaign, paybill, pledge, django_assert_num_queries
):
    codes = [pledge.code, "TITHE", typo(pledge.code)]
    small = upload(
        treasurer_client, campaign, paybill, statement_generate(rows=10, account_numbers=codes, shortcode=TEST_PAYBILL)
    )
    large = upload(
        treasurer_client,
        campaign,
        paybill,
        statement_generate(rows=400, account_numbers=codes, shortcode=TEST_PAYBILL, receipt_prefix="T26"),
    )

    # session, user, membership, the import; then receipts, prompts awaiting theirs, pledges, keywords, near misses
    with django_assert_num_queries(9):
        treasurer_client.get(path(campaign, f"/{small.json()['id']}"))
    with django_assert_num_queries(9):
        treasurer_client.get(path(campaign, f"/{large.json()['id']}"))


def test_the_payer_of_old_money_found_on_a_statement_gets_no_receipt(
    treasurer_client, campaign, paybill, pledge, django_capture_on_commit_callbacks
):
    lines = [
        Line("SLK0000011", LONG_AGO, 500, account_number=pledge.code),
        Line("SLK0000012", RECENT, 600, account_number=pledge.code),
    ]
    preview = upload(treasurer_client, campaign, paybill, statement_csv(lines, shortcode=TEST_PAYBILL)).json()

    with django_capture_on_commit_callbacks(execute=True):
        treasurer_client.post(path(campaign, f"/{preview['id']}/confirm"), {}, content_type="application/json")

    told = set(NotificationLog.objects.filter(payment__isnull=False).values_list("payment__mpesa_receipt", flat=True))
    assert told == {"SLK0000012"}


def test_confirming_takes_the_same_queries_whatever_the_statement_size(treasurer_client, campaign, paybill):
    pledges = [make_pledge(campaign, amount=100_000, phone=f"07110002{n:02d}") for n in range(3)]
    codes = [*(pledge.code for pledge in pledges), "TITHE", typo(pledges[0].code), "BUILDING"]
    small, large = (
        upload(
            treasurer_client,
            campaign,
            paybill,
            statement_generate(rows=rows, account_numbers=codes, shortcode=TEST_PAYBILL, receipt_prefix=prefix),
        ).json()
        for rows, prefix in ((10, "T10"), (50, "T50"))
    )
    ContentType.objects.get_for_model(StatementImport)  # the audit entry's type, read once per process

    def confirm_queries(preview):
        with CaptureQueriesContext(connection) as captured:
            response = treasurer_client.post(
                path(campaign, f"/{preview['id']}/confirm"), {}, content_type="application/json"
            )
        assert response.status_code == 200, response.content
        return [query["sql"].split()[0] for query in captured]

    # Who asks, the import locked, its rows read afresh, the payments, their pledges and the campaign
    # written in batches, each row kept as its payment's evidence, the import's links and audit entry, which
    # champions brought them (their running totals): as many for 50 rows as for 10. Only the
    # INSERTs may be split further, where the database takes few parameters in one statement (SQLite's 999).
    small_queries, large_queries = confirm_queries(small), confirm_queries(large)
    assert len(small_queries) == 32
    assert [kind for kind in large_queries if kind != "INSERT"] == [kind for kind in small_queries if kind != "INSERT"]
    assert large_queries.count("INSERT") <= small_queries.count("INSERT") + 2
    assert Payment.objects.filter(pledge_link__isnull=False).count() > 30


# Bank statements ------------------------------------------------------------------------------

TODAY = timezone.localdate()
LAST_WEEK = TODAY - timedelta(days=7)
COLUMNS = {
    "date_column": "Transaction Date",
    "amount_column": "Credit",
    "debit_column": "Debit",
    "reference_column": "Transaction Reference",
    "description_column": "Narrative",
}


@pytest.fixture
def bank(campaign):
    """The church's bank account, which its campaign also takes payments into."""
    account = campaign.organization.collection_accounts.create(
        kind="bank", bank_name="KCB", account_name="St. Mark's", account_number="1100223344"
    )
    link_account(campaign, account)
    return account


def bank_upload(client, campaign, account, data: bytes, columns=COLUMNS, name="kcb.csv"):
    return client.post(
        path(campaign),
        {"account_id": account.pk, "file": SimpleUploadedFile(name, data, content_type="text/csv"), **columns},
        content_type=MULTIPART_CONTENT,
    )


def bank_columns(client, campaign, account, data: bytes):
    return client.post(
        path(campaign, "/bank-columns"),
        {"account_id": account.pk, "file": SimpleUploadedFile("kcb.csv", data, content_type="text/csv")},
        content_type=MULTIPART_CONTENT,
    )


def a_bank_statement(pledge, *, extra=()):
    """One row of each kind, as the bank lists them."""
    spaced = f"{pledge.code[:3]}-{pledge.code[3:]}"
    return bank_statement_csv(
        [
            BankLine(TODAY, 4000, "FT0001", f"MPESA C2B {pledge.code} JOHN DOE 254712"),
            BankLine(TODAY, 1000, spaced, "CASH DEPOSIT"),
            BankLine(LAST_WEEK, 1500, "FT0003", "SUNDAY TITHE"),
            BankLine(LAST_WEEK, 700, "FT0004", f"MPESA C2B {typo(pledge.code)} MARY"),
            BankLine(TODAY, 650, "FT0005", "RTGS FROM UNKNOWN"),
            BankLine(TODAY, -2500, "CHQ0006", "CHEQUE TO BUILDER"),
            *extra,
        ]
    )


def recorded_by_hand(client, pledge, amount: int, reference: str, on=TODAY):
    """A treasurer's entry of a bank transfer to the pledge, before the statement came."""
    response = client.post(
        f"/api/pledges/{pledge.pk}/payments",
        {"method": "bank", "amount": amount, "reference": reference, "received_on": on.isoformat()},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content


def test_a_bank_statements_columns_are_suggested_then_remembered(treasurer_client, campaign, bank, pledge):
    data = a_bank_statement(pledge)

    first = bank_columns(treasurer_client, campaign, bank, data)

    assert first.status_code == 200, first.content
    assert first.json() == {
        "header": [
            "Transaction Date",
            "Value Date",
            "Narrative",
            "Transaction Reference",
            "Debit",
            "Credit",
            "Running Balance",
        ],
        "columns": {
            "date": "Transaction Date",
            "amount": "Credit",
            "debit": "Debit",
            "reference": "Transaction Reference",
            "description": "Narrative",
        },
        "remembered": False,
    }
    assert (
        bank_upload(treasurer_client, campaign, bank, data, {**COLUMNS, "date_column": "Value Date"}).status_code == 201
    )
    again = bank_columns(treasurer_client, campaign, bank, data).json()
    assert (again["columns"]["date"], again["remembered"]) == ("Value Date", True)
    without_columns = bank_upload(treasurer_client, campaign, bank, data, columns={})
    assert without_columns.status_code == 201, without_columns.content
    other_bank = b"Date,Details,Ref No,Amount\n02/11/2026,Deposit,R1,100.00\n"
    offered = bank_columns(treasurer_client, campaign, bank, other_bank).json()
    assert (offered["columns"]["amount"], offered["remembered"]) == ("Amount", False)


def test_a_bank_preview_sorts_every_row_and_writes_nothing(treasurer_client, campaign, bank, pledge):
    recorded_by_hand(treasurer_client, pledge, 900, "FT0007")
    data = a_bank_statement(pledge, extra=[BankLine(TODAY, 900, "ft 0007", "TRANSFER")])
    payments_before = Payment.objects.count()

    response = bank_upload(treasurer_client, campaign, bank, data)

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["account_kind"] == "bank"
    assert body["figures"] == {
        "matched": {"rows": 2, "total": 5000},
        "recorded": {"rows": 1, "total": 900},
        "keyword": {"rows": 1, "total": 1500},
        "unmatched": {"rows": 2, "total": 1350},
        "ignored": {"rows": 1, "total": 2500},
    }
    rows = {row["receipt"]: row for row in body["rows"]}
    assert rows["FT0001"]["pledge_code"] == pledge.code
    assert rows["FT0001"]["details"].startswith("MPESA C2B")
    assert rows["FT0004"]["near_codes"] == [pledge.code]
    assert Payment.objects.count() == payments_before
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 900


def test_a_bank_row_with_a_mistyped_code_of_letters_only_is_offered_that_code(treasurer_client, campaign, bank):
    # About one code in eight has no digit; its typo must be offered like any other.
    payloads = (f"ABCDE{letter}" for letter in "ABCDEFGHJKMNPQRSTUVWXYZ")
    letters_only = next(code for code in (p + codes.check_character(p) for p in payloads) if code.isalpha())
    pledge = make_pledge(campaign, amount=10_000)
    Pledge.objects.filter(pk=pledge.pk).update(code=letters_only)
    data = bank_statement_csv([BankLine(TODAY, 700, "FT0001", f"MPESA C2B {typo(letters_only)} MARY")])

    rows = bank_upload(treasurer_client, campaign, bank, data).json()["rows"]

    assert rows[0]["near_codes"] == [letters_only]


def test_confirming_a_bank_statement_credits_once_by_day_amount_and_reference(
    treasurer_client, treasurer, campaign, bank, pledge
):
    preview = bank_upload(treasurer_client, campaign, bank, a_bank_statement(pledge)).json()

    confirmed = treasurer_client.post(path(campaign, f"/{preview['id']}/confirm"), {}, content_type="application/json")

    assert confirmed.status_code == 200, confirmed.content
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 5000
    credited = Payment.objects.filter(provider="bank", collection_account=bank)
    assert sorted(credited.values_list("amount", flat=True)) == [650, 700, 1000, 4000]
    assert {payment.recorded_by for payment in credited} == {treasurer}
    unmatched = treasurer_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments").json()
    assert sorted(payment["amount"] for payment in unmatched) == [650, 700]

    # The same statement again: every recorded row is recorded already; an overlapping one: only its new rows,
    # two equal rows being two payments.
    again = bank_upload(treasurer_client, campaign, bank, a_bank_statement(pledge)).json()
    assert again["figures"]["recorded"] == {"rows": 4, "total": 6350}
    new_rows = [BankLine(TODAY, 300, "FT0009", f"PLEDGE {pledge.code}")] * 2
    overlapping = bank_upload(treasurer_client, campaign, bank, a_bank_statement(pledge, extra=new_rows)).json()
    assert overlapping["figures"]["matched"] == {"rows": 2, "total": 600}
    treasurer_client.post(path(campaign, f"/{overlapping['id']}/confirm"), {}, content_type="application/json")
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 5600


def test_undoing_a_bank_import_restores_the_totals_and_lets_the_rows_be_imported_again(
    treasurer_client, campaign, bank, pledge
):
    before = totals(campaign)
    preview = bank_upload(treasurer_client, campaign, bank, a_bank_statement(pledge)).json()
    treasurer_client.post(path(campaign, f"/{preview['id']}/confirm"), {}, content_type="application/json")

    undone = treasurer_client.post(
        path(campaign, f"/{preview['id']}/undo"), {"reason": "Wrong month"}, content_type="application/json"
    )

    assert undone.status_code == 200, undone.content
    assert totals(campaign) == before
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 0
    again = bank_upload(treasurer_client, campaign, bank, a_bank_statement(pledge)).json()
    assert again["figures"]["matched"] == {"rows": 2, "total": 5000}


@pytest.mark.parametrize(
    ("data", "columns", "field", "message"),
    [
        (b"", COLUMNS, "file", "The file is empty."),
        (b"Date,Details,Amount\n02/11/2026,Deposit,100\n", COLUMNS, "file", "No header row with the columns"),
        (
            bank_statement_csv([BankLine(TODAY, 100, "R1", '=HYPERLINK("http://evil.example")')]),
            COLUMNS,
            "file",
            "Line 7: A cell holds a formula",
        ),
        (bank_statement_csv([BankLine(TODAY, 100, "R1")]), {}, "columns", "Choose the columns holding the date"),
        (
            bank_statement_csv([BankLine(TODAY, 100, "R1")]),
            {"date_column": "Transaction Date", "amount_column": "Credit"},
            "columns",
            "Choose the column holding the reference or the description",
        ),
    ],
)
def test_a_bad_bank_file_or_choice_gets_a_clear_message_and_changes_nothing(
    treasurer_client, campaign, bank, data, columns, field, message
):
    response = bank_upload(treasurer_client, campaign, bank, data, columns)

    assert response.status_code == 422, response.content
    assert response.json()["field_errors"][field].startswith(message)
    assert not StatementImport.objects.exists()
    assert not BankStatementColumns.objects.exists()


def test_a_bank_statement_over_20_mb_is_refused_before_it_is_read(treasurer_client, campaign, bank):
    big = b"x" * (STATEMENT_MAX_BYTES + 1)

    assert bank_upload(treasurer_client, campaign, bank, big).json()["code"] == "file_too_large"
    assert bank_columns(treasurer_client, campaign, bank, big).json()["code"] == "file_too_large"


def test_an_m_pesa_statements_columns_are_not_asked_for(treasurer_client, campaign, paybill):
    response = bank_columns(treasurer_client, campaign, paybill, statement_csv([], shortcode=TEST_PAYBILL))

    assert response.status_code == 422
    assert "account_id" in response.json()["field_errors"]


def test_a_bank_preview_reads_the_ledger_in_the_same_queries_whatever_its_size(
    treasurer_client, campaign, bank, pledge, django_assert_num_queries
):
    def statement(rows):
        lines = [
            BankLine(TODAY, 100 + index, f"FT{index}", f"MPESA {pledge.code if index % 2 else typo(pledge.code)}")
            for index in range(rows)
        ]
        return bank_statement_csv(lines)

    small = bank_upload(treasurer_client, campaign, bank, statement(10)).json()
    large = bank_upload(treasurer_client, campaign, bank, statement(400)).json()

    # session, user, membership, the import; then bank payments, pledges, keywords, near misses
    with django_assert_num_queries(8):
        treasurer_client.get(path(campaign, f"/{small['id']}"))
    with django_assert_num_queries(8):
        treasurer_client.get(path(campaign, f"/{large['id']}"))
