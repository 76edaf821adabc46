"""Sending a year's statements: a background job with progress, each giver once even when retried."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from accounts.tests.factories import UserFactory
from campaigns.tests.factories import CampaignFactory
from giving import services
from giving.models import StatementDelivery, StatementRun, StatementRunStatus
from giving.selectors import organization_givers
from notifications.models import NotificationLog
from organizations.models import Membership
from organizations.roles import Role
from payments.models import Payment
from pledges.models import Donation

pytestmark = pytest.mark.django_db


def givers_of(campaign, count: int) -> None:
    """``count`` people who each gave once this year: by e-mail address, phone number, or neither."""
    now = timezone.now()
    payments = Payment.objects.bulk_create(
        Payment(
            provider=Payment.Provider.MPESA_STK,
            purpose=Payment.Purpose.DONATION,
            amount=100 + n,
            status=Payment.Status.SUCCEEDED,
            campaign=campaign,
            organization=campaign.organization,
            mpesa_receipt=f"RK{n:08d}",
            counted_at=now,
        )
        for n in range(count)
    )
    Donation.objects.bulk_create(
        Donation(
            campaign=campaign,
            payment=payment,
            amount=payment.amount,
            name=f"Giver {n}",
            email=f"giver{n}@example.com" if n % 3 != 1 else "",
            phone=f"+2547{n:08d}" if n % 3 != 0 else "",
            counted_at=now,
        )
        for n, payment in enumerate(payments)
    )


def a_treasurer(campaign):
    treasurer = UserFactory.create()
    Membership.objects.create(organization=campaign.organization, user=treasurer, role=Role.TREASURER)
    return treasurer


def test_a_thousand_givers_each_get_their_statement_once_with_progress_to_the_end(
    django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr("notifications.outbox.sms_send", lambda **message: "ATXid_1")  # the gateway takes each
    campaign = CampaignFactory.create()
    givers_of(campaign, 1_000)
    year = timezone.localdate().year
    treasurer = a_treasurer(campaign)

    with django_capture_on_commit_callbacks(execute=True):
        run = services.statement_run_start(user=treasurer, organization_id=campaign.organization_id, year=year)

    run.refresh_from_db()
    assert (run.status, run.giver_count, run.processed_count) == (StatementRunStatus.DONE, 1_000, 1_000)
    assert StatementDelivery.objects.filter(run=run).count() == 1_000
    assert (run.emailed_count, run.texted_count) == (667, 666)
    emails = NotificationLog.objects.filter(template="email/giving_statement")
    assert emails.count() == 667 == emails.values("recipient").distinct().count()
    assert NotificationLog.objects.filter(template="sms/giving_statement").values("recipient").distinct().count() == 666
    assert len(mail.outbox) == 667
    assert mail.outbox[0].attachments[0][2] == "application/pdf"
    # Sent: the log keeps the attachment's name, not the statement itself.
    assert emails.earliest("pk").attachments == [
        {"filename": f"statement-{year}.pdf", "mimetype": "application/pdf", "content": ""}
    ]


def test_a_retried_job_sends_nobody_a_second_statement(monkeypatch):
    campaign = CampaignFactory.create()
    givers_of(campaign, 60)
    year = timezone.localdate().year
    run = StatementRun.objects.create(organization=campaign.organization, year=year)
    deliver = services._deliver
    delivered: list[str] = []

    def crash_after_40(**kwargs):
        if len(delivered) == 40:
            raise RuntimeError("worker lost")
        delivered.append(kwargs["giver"].key)
        return deliver(**kwargs)

    monkeypatch.setattr(services, "_deliver", crash_after_40)
    with pytest.raises(RuntimeError):
        services.statement_run_process(run_id=run.pk)
    run.refresh_from_db()
    assert (run.status, run.processed_count) == (StatementRunStatus.RUNNING, 25)  # progress saved as it went
    monkeypatch.setattr(services, "_deliver", deliver)

    services.statement_run_process(run_id=run.pk)
    StatementRun.objects.filter(pk=run.pk).update(status=StatementRunStatus.RUNNING)
    services.statement_run_process(run_id=run.pk)  # a late duplicate of the job, before the first finished

    run.refresh_from_db()
    assert (run.status, run.processed_count) == (StatementRunStatus.DONE, 60)
    assert StatementDelivery.objects.filter(run=run).count() == 60
    logs = NotificationLog.objects.filter(template="email/giving_statement")
    assert logs.count() == logs.values("recipient").distinct().count() == 40


def test_the_same_giver_twice_in_a_run_is_refused_by_the_database():
    campaign = CampaignFactory.create()
    givers_of(campaign, 1)
    run = StatementRun.objects.create(organization=campaign.organization, year=timezone.localdate().year)
    [giver] = organization_givers(organization=campaign.organization, year=run.year)

    first = services._deliver(run=run, organization=campaign.organization, giver=giver)
    second = services._deliver(run=run, organization=campaign.organization, giver=giver)

    assert first is not None and second is None
    assert NotificationLog.objects.filter(template="email/giving_statement").count() == 1


def test_a_giver_is_a_person_by_phone_else_email_in_any_case():
    campaign = CampaignFactory.create()
    givers_of(campaign, 3)
    Donation.objects.filter(name="Giver 1").update(phone="", email="GIVER0@example.com")

    givers = organization_givers(organization=campaign.organization, year=timezone.localdate().year)

    assert sorted(giver.key for giver in givers) == ["email:giver0@example.com", "phone:+254700000002"]
    assert next(giver for giver in givers if giver.key.startswith("email")).total == 100 + 101


def test_a_statement_link_opens_that_givers_statement_and_expires(api_client, settings):
    campaign = CampaignFactory.create()
    givers_of(campaign, 2)
    year = timezone.localdate().year
    [first, _second] = organization_givers(organization=campaign.organization, year=year)
    link = services.statement_link(organization_id=campaign.organization_id, year=year, digest=first.digest)
    path = link.removeprefix(settings.SITE_URL)

    response = api_client.get(path)

    assert (response.status_code, response["Content-Type"]) == (200, "application/pdf")
    assert api_client.get(path[:-2] + "00").status_code == 404
    later = timezone.now() + services.LINK_MAX_AGE + timedelta(minutes=1)
    with time_machine.travel(later):
        assert api_client.get(path).status_code == 404


@pytest.mark.parametrize("language", ["en", "sw"])
def test_the_statement_sms_fits_one_message_with_its_link_whole(settings, language):
    from notifications.sms_length import sms_length

    settings.SITE_URL = "https://harambee.co.ke"
    campaign = CampaignFactory.create()
    campaign.organization.name = "Presbyterian Church of East Africa, Kasarani Parish, Nairobi"
    campaign.organization.save()
    givers_of(campaign, 3)
    Donation.objects.update(language=language)
    run = StatementRun.objects.create(organization=campaign.organization, year=timezone.localdate().year)
    [giver] = [
        giver for giver in organization_givers(organization=campaign.organization, year=run.year) if giver.phone
    ][:1]

    services._deliver(run=run, organization=campaign.organization, giver=giver)

    sms = NotificationLog.objects.get(template="sms/giving_statement")
    link = services.statement_link(organization_id=campaign.organization_id, year=run.year, digest=giver.digest)
    assert link.rsplit(".", 2)[0] in sms.body  # made again: the same up to its time and MAC
    assert sms_length(sms.body).remaining >= 0
