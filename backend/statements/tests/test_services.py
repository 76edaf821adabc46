"""Confirming an import against the rest of the ledger: a receipt another path records while the
import is being confirmed is credited once."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from collection_accounts.tests.factories import TEST_PAYBILL
from payments.models import Payment
from payments.services import c2b
from payments.services import statements as payments_statements
from pledges.models import Pledge
from simulators.statements import Line, statement_csv
from statements import services
from statements.tests.test_api import RECENT, paid_by_c2b

pytestmark = pytest.mark.django_db


def test_a_receipt_a_callback_records_between_the_read_and_the_insert_is_credited_once(
    treasurer, paybill, pledge, monkeypatch
):
    data = statement_csv(
        [Line("SLK0000021", RECENT, 800, account_number=pledge.code), Line("SLK0000022", RECENT, 900, pledge.code)],
        shortcode=TEST_PAYBILL,
    )
    previewed = services.statement_import_upload(
        user=treasurer,
        organization_id=paybill.organization_id,
        account_id=paybill.pk,
        file=SimpleUploadedFile("statement.csv", data),
    )
    read = c2b._payments_reported

    arrived: list[bool] = []

    def read_then_the_callback_arrives(**kwargs):
        recorded = read(**kwargs)
        if not arrived:  # once, as the statement's read ends (the callback reads the ledger too)
            arrived.append(True)
            paid_by_c2b("SLK0000021", 800, pledge.code)
        return recorded

    monkeypatch.setattr(payments_statements, "_payments_reported", read_then_the_callback_arrives)

    confirmed = services.statement_import_confirm(
        user=treasurer, organization_id=paybill.organization_id, import_id=previewed.pk
    )

    assert Payment.objects.filter(mpesa_receipt="SLK0000021").count() == 1
    assert [link.payment.mpesa_receipt for link in confirmed.imported.all()] == ["SLK0000022"]
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 800 + 900
