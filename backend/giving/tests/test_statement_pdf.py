"""The yearly statement PDF, read back: totals per organization and in all, M-Pesa codes, both
languages, and an approved charity's registration number and signature line."""

import io
from datetime import date

import pypdf
import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from giving.selectors import Statement, StatementLine, StatementSection, statement_for_person
from giving.statement_pdf import statement_pdf
from giving.tests.support import PHONE, giving_world
from organizations.models import Organization

pytestmark = pytest.mark.django_db


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def a_statement(*, charity: bool) -> Statement:
    church = Organization.objects.create(
        name="PCEA Kasarani",
        kind="church",
        registration_number="SOC/12345" if charity else "",
        approved_charity=charity,
        statement_signatory="Rev. J. Kamau, Treasurer" if charity else "",
    )
    school = Organization.objects.create(name="Upendo School", kind="school")
    lines = [
        StatementLine(date(2026, 3, 1), "Church roof", True, "mpesa_stk", "RKT1AB2CD3", "HRB-1", 8_000),
        StatementLine(date(2026, 5, 9), "Church roof", False, "cash", "", "HRB-2", 700),
    ]
    return Statement(
        name="Wanjiku Kamau",
        contact=PHONE,
        year=2026,
        sections=[
            StatementSection(church, lines),
            StatementSection(school, [StatementLine(date(2026, 7, 2), "Library", True, "card", "", "HRB-3", 1_500)]),
        ],
    )


def test_the_statement_gives_each_payment_its_code_and_totals_per_organization_and_in_all():
    text = text_of(statement_pdf(statement=a_statement(charity=False), language="en"))

    assert "Statement of giving 2026" in text
    assert "Wanjiku Kamau" in text
    assert "RKT1AB2CD3" in text
    assert "01/03/2026" in text
    assert "Total to PCEA Kasarani" in text and "Ksh 8,700" in text
    assert "Total to Upendo School" in text and "Ksh 1,500" in text
    assert "Total given in 2026: Ksh 10,200" in text
    assert "M-Pesa" in text and "Cash" in text and "Card" in text
    assert "Signature" not in text


def test_the_statement_is_in_kiswahili_when_asked():
    text = text_of(statement_pdf(statement=a_statement(charity=False), language="sw"))

    assert "Taarifa ya utoaji 2026" in text
    assert "Jumla iliyotolewa 2026: Ksh 10,200" in text
    assert "RKT1AB2CD3" in text
    assert "Statement of giving" not in text


def test_an_approved_charity_gives_its_registration_number_and_a_signature_line():
    text = text_of(statement_pdf(statement=a_statement(charity=True), language="en"))

    assert "Registration number: SOC/12345" in text
    assert "Rev. J. Kamau, Treasurer" in text
    assert "Signature and date" in text


def test_a_persons_statement_holds_only_that_years_counted_payments():
    giver = UserFactory.create()
    giving_world(giver=giver)
    giver.phone = PHONE
    giver.phone_verified_at = giver.created_at
    giver.save()

    statement = statement_for_person(user=giver, year=timezone.localdate().year)
    empty = statement_for_person(user=giver, year=2001)

    assert statement.total == 8_000 + 5_000 + 1_500 + 700
    assert {section.organization.name for section in statement.sections} and len(statement.sections) == 2
    assert empty.sections == []
    assert "No payments in this year." in text_of(statement_pdf(statement=empty, language="en"))
