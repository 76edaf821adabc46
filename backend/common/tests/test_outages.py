"""The database going away mid-request: a 503 in the API's error shape (or a short page), and the
change the request was making left out entirely."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import InterfaceError, OperationalError, connection

from audit.models import AuditEntry
from campaigns.models import Campaign
from payments.models import Payment
from pledges.models import Pledge
from pledges.tests.factories import PledgeFactory

pytestmark = pytest.mark.django_db

UNAVAILABLE = {
    "detail": "Harambee is briefly unavailable. Nothing was saved; please try again in a moment.",
    "code": "service_unavailable",
    "field_errors": {},
}


@contextmanager
def database_lost(when: Callable[[str], bool], error: type[Exception] = OperationalError) -> Iterator[None]:
    """From the first statement ``when`` matches on, every statement fails as on a dropped connection.

    Savepoints and rollbacks still run, standing in for the server, which discards the open
    transaction of a connection it lost.
    """
    lost = False

    def execute(run: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal lost
        lost = lost or when(sql)
        if lost and not sql.startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")):
            raise error("server closed the connection unexpectedly")
        return run(sql, params, many, context)

    with connection.execute_wrapper(execute):
        yield


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_pledge_whose_database_goes_away_halfway_is_a_503_and_not_half_recorded(visitor_client, campaign, error):
    body = {
        "campaign_id": campaign.pk,
        "amount": 5000,
        "name": "Njeri",
        "email": "njeri@example.com",
        "phone": "0711000222",
    }

    # The pledge row is written, then the connection drops before the campaign's total is.
    with database_lost(lambda sql: sql.startswith('UPDATE "campaigns_campaign"'), error):
        response = visitor_client.post("/api/pledges", body)

    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    assert response["Retry-After"] == "30"
    assert not Pledge.objects.exists()
    assert Campaign.objects.get(pk=campaign.pk).pledged_total == 0


def test_a_confirmation_cut_off_at_its_last_write_leaves_no_payment_and_no_audit_entry(organizer_client, campaign):
    pledge = PledgeFactory.create(campaign=campaign)

    with database_lost(lambda sql: sql.startswith('INSERT INTO "audit_auditentry"')):
        response = organizer_client.post("/api/confirm-payment", {"pledgeId": pledge.pk})

    assert (response.status_code, response.json()) == (503, UNAVAILABLE)
    pledge.refresh_from_db()
    assert (pledge.status, pledge.paid_amount) == ("pending", 0)
    assert not Payment.objects.exists()
    assert not AuditEntry.objects.exists()
    assert Campaign.objects.get(pk=campaign.pk).raised_total == 0


def test_a_page_answers_503_with_a_short_explanation_when_the_database_is_gone(client, campaign):
    with database_lost(lambda sql: True):
        response = client.get(f"/campaign/{campaign.pk}")

    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    page = response.content.decode()
    assert "Harambee is briefly unavailable" in page and "Nothing was saved" in page
