"""M-Pesa Org Portal statements as the portal exports them (CSV, its column names and preamble):
of what the simulated paybills and tills received, for the demo and the end-to-end tests, and
generated at any size for tests and the benchmark (``statement_generate``). Also bank statements in
the shape Kenyan banks export them (``bank_statement_csv``: a preamble, then Credit and Debit
columns), for tests and the demo of a bank account's import."""

import csv
import io
import random
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from simulators.models import SimulatedC2BTransaction

COLUMNS = (
    "Receipt No.",
    "Completion Time",
    "Initiation Time",
    "Details",
    "Transaction Status",
    "Paid In",
    "Withdrawn",
    "Balance",
    "Balance Confirmed",
    "Reason Type",
    "Other Party Info",
    "Linked Transaction ID",
    "A/C No.",
)


@dataclass(frozen=True)
class Line:
    """One transaction of a statement: money paid in (``amount`` > 0) or withdrawn (< 0)."""

    receipt: str
    at: datetime
    amount: int
    account_number: str = ""
    payer: str = "254712***126 - JOHN DOE"
    status: str = "Completed"
    reason_type: str = "Pay Bill Online"
    linked_receipt: str = ""


def statement_csv(lines: Iterable[Line], *, shortcode: str, organization_name: str = "St. Mark's Kiambu") -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["Account Holder:", organization_name])
    writer.writerow(["Short Code:", shortcode])
    writer.writerow(["Account:", "Utility Account"])
    writer.writerow([])
    writer.writerow(COLUMNS)
    balance = 0
    for line in lines:
        balance += line.amount
        stamp = timezone.localtime(line.at).strftime("%Y-%m-%d %H:%M:%S")
        details = (
            f"Pay Bill from {line.payer} Acc. {line.account_number}"
            if line.amount > 0
            else f"Business Payment to {line.payer}"
        )
        writer.writerow(
            [
                line.receipt,
                stamp,
                stamp,
                details,
                line.status,
                f"{line.amount:,}.00" if line.amount > 0 else "",
                f"-{-line.amount:,}.00" if line.amount < 0 else "",
                f"{balance:,}.00",
                "true",
                line.reason_type,
                line.payer,
                line.linked_receipt,
                line.account_number,
            ]
        )
    return out.getvalue().encode()


def statement_generate(
    *,
    rows: int,
    account_numbers: list[str],
    shortcode: str,
    seed: int = 25,
    receipt_prefix: str = "T25",
    start: datetime | None = None,
) -> bytes:
    """A statement of ``rows`` payments into ``shortcode``, each to one of ``account_numbers`` (pledge
    codes, keywords, typos), with a withdrawal every 50 rows; the receipts are ``receipt_prefix`` and the
    row's number, so two statements with the same seed and prefix overlap where their rows do."""
    chooser = random.Random(seed)  # noqa: S311 (made-up payments, the same ones for the same seed)
    start = start or timezone.now() - timedelta(days=30)
    lines = []
    for index in range(rows):
        at = start + timedelta(minutes=5 * index)
        receipt = f"{receipt_prefix}{index:07d}"
        if index % 50 == 49:
            lines.append(
                Line(receipt=receipt, at=at, amount=-chooser.randint(1_000, 20_000), reason_type="Business Payment")
            )
        else:
            lines.append(
                Line(
                    receipt=receipt,
                    at=at,
                    amount=chooser.randint(50, 5_000),
                    account_number=chooser.choice(account_numbers),
                )
            )
    return statement_csv(lines, shortcode=shortcode)


BANK_COLUMNS = (
    "Transaction Date",
    "Value Date",
    "Narrative",
    "Transaction Reference",
    "Debit",
    "Credit",
    "Running Balance",
)


@dataclass(frozen=True)
class BankLine:
    """One transaction of a bank statement: money in (``amount`` > 0) or out (< 0)."""

    on: date
    amount: int
    reference: str = ""
    description: str = ""


def bank_statement_csv(
    lines: Iterable[BankLine], *, account_number: str = "1100223344", account_name: str = "St. Mark's Kiambu"
) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["Account Name:", account_name])
    writer.writerow(["Account Number:", account_number])
    writer.writerow(["Currency:", "KES"])
    writer.writerow([])
    writer.writerow(BANK_COLUMNS)
    writer.writerow(["", "", "Opening balance", "", "", "", "0.00"])
    balance = 0
    for line in lines:
        balance += line.amount
        day = line.on.strftime("%d/%m/%Y")
        writer.writerow(
            [
                day,
                day,
                line.description,
                line.reference,
                f"{-line.amount:,}.00" if line.amount < 0 else "",
                f"{line.amount:,}.00" if line.amount > 0 else "",
                f"{balance:,}.00",
            ]
        )
    return out.getvalue().encode()


def bank_statement_generate(
    *, rows: int, account_numbers: list[str], seed: int = 25, reference_prefix: str = "FT", start: date | None = None
) -> bytes:
    """A bank statement of ``rows`` transactions, 200 a day from ``start`` (30 days ago): deposits naming one
    of ``account_numbers`` (pledge codes, keywords, typos) in their narration, with a cheque paid out every
    50 rows; references are ``reference_prefix`` and the row's number, so two statements with the same
    seed overlap where their rows do."""
    chooser = random.Random(seed)  # noqa: S311 (made-up payments, the same ones for the same seed)
    start = start or timezone.localdate() - timedelta(days=30)
    lines = []
    for index in range(rows):
        on = start + timedelta(days=index // 200)
        reference = f"{reference_prefix}{index:07d}"
        if index % 50 == 49:
            lines.append(BankLine(on, -chooser.randint(1_000, 20_000), reference, "CHEQUE PAID"))
        else:
            account = chooser.choice(account_numbers)
            lines.append(BankLine(on, chooser.randint(50, 5_000), reference, f"MPESA C2B {account} MEMBER {index}"))
    return bank_statement_csv(lines)


@require_GET
def statement_export(request: HttpRequest, shortcode: str) -> HttpResponse:
    """The Org Portal's export: every payment the simulator received for ``shortcode``."""
    received = SimulatedC2BTransaction.objects.filter(shortcode=shortcode)
    lines = [
        Line(
            receipt=transaction.trans_id,
            at=transaction.paid_at,
            amount=transaction.amount,
            account_number=transaction.bill_ref_number,
            payer=f"{transaction.msisdn} - M-PESA CUSTOMER",
        )
        for transaction in received
    ]
    answer = HttpResponse(statement_csv(lines, shortcode=shortcode), content_type="text/csv")
    answer["Content-Disposition"] = f'attachment; filename="statement-{shortcode}.csv"'
    return answer
