from datetime import UTC, datetime

import pytest

from payments.models import Payment

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("pk", [7, 999_999, 1_234_567])
def test_the_database_makes_the_receipt_number_issue_receipt_gives(pk):
    at = datetime(2026, 11, 25, 22, 30, tzinfo=UTC)  # already the 26th in Nairobi
    payment = Payment.objects.create(pk=pk, provider=Payment.Provider.CASH, purpose="pledge_payment", amount=100)

    Payment.objects.filter(pk=pk).update(receipt_number=Payment.receipt_number_expression(at=at))
    payment.issue_receipt(at=at)

    assert Payment.objects.get(pk=pk).receipt_number == payment.receipt_number == f"HRB-261126-{pk:06d}"
