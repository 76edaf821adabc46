"""The scheduler's clean-up: previews nobody confirmed within 24 hours are deleted with their rows."""

import io
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import timezone

from collection_accounts.tests.factories import TEST_PAYBILL
from payments.models import Payment
from simulators.statements import Line, statement_csv
from statements import services, tasks
from statements.models import StatementImport
from statements.tests.test_api import RECENT

pytestmark = pytest.mark.django_db


def previewed(treasurer, paybill, pledge, receipt, *, hours_ago):
    data = statement_csv([Line(receipt, RECENT, 500, account_number=pledge.code)], shortcode=TEST_PAYBILL)
    statement_import = services.statement_import_upload(
        user=treasurer,
        organization_id=paybill.organization_id,
        account_id=paybill.pk,
        file=SimpleUploadedFile("statement.csv", data),
    )
    StatementImport.objects.filter(pk=statement_import.pk).update(
        created_at=timezone.now() - timedelta(hours=hours_ago)
    )
    return statement_import


def test_previews_left_unconfirmed_for_a_day_are_deleted_and_the_rest_kept(treasurer, paybill, pledge):
    forgotten = previewed(treasurer, paybill, pledge, "SLK0000031", hours_ago=25)
    fresh = previewed(treasurer, paybill, pledge, "SLK0000032", hours_ago=23)
    confirmed = previewed(treasurer, paybill, pledge, "SLK0000033", hours_ago=48)
    services.statement_import_confirm(user=treasurer, organization_id=paybill.organization_id, import_id=confirmed.pk)

    assert tasks.expire_statement_previews.call() == 1

    assert set(StatementImport.objects.values_list("pk", flat=True)) == {fresh.pk, confirmed.pk}
    assert not StatementImport.objects.filter(pk=forgotten.pk).exists()
    assert list(Payment.objects.values_list("mpesa_receipt", flat=True)) == ["SLK0000033"]


def test_the_scheduler_command_says_how_many_previews_it_deleted(treasurer, paybill, pledge):
    previewed(treasurer, paybill, pledge, "SLK0000034", hours_ago=30)
    out = io.StringIO()

    call_command("expire_statement_previews", stdout=out)

    assert out.getvalue().strip() == "1 statement preview(s) deleted."
    assert not StatementImport.objects.exists()
