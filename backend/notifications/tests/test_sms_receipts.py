"""The SMS receipt of a pledge's payments: the code the payer holds (their M-Pesa SMS's), in plain
words, and one receipt for the payments one credit counted (a statement's rows), not one each."""

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from accounts.tests.factories import UserFactory
from campaigns.tests.conftest import campaign, organizer, visitor_client
from campaigns.tests.factories import CampaignFactory
from collection_accounts.models import CollectionAccount
from collection_accounts.tests.factories import TEST_PAYBILL
from notifications.models import NotificationLog
from organizations.models import Membership
from organizations.roles import Role
from payments.models import Payment, PaymentEvent
from payments.tests.support import settled, wait_for
from payments.tests.test_c2b import pay_bill, registered
from pledges.models import Pledge
from pledges.signals import pledge_paid
from pledges.tests.factories import make_pledge
from simulators.models import SimulatedSms
from simulators.statements import Line, statement_csv
from statements.services import statement_import_confirm, statement_import_upload

__all__ = ["campaign", "organizer", "registered", "visitor_client"]

PAYER = "+254708374149"  # the simulator approves PIN prompts to this number


def texts_to_payer_with(words: str) -> list[str]:
    """The SMS in the simulator's outbox to the payer that contain ``words``, once there are any."""
    return wait_for(
        lambda: list(SimulatedSms.objects.filter(to=PAYER, message__contains=words).values_list("message", flat=True))
    )


@pytest.mark.django_db(transaction=True)
def test_the_receipt_names_the_m_pesa_code_of_a_paybill_payment_and_of_a_pin_prompt(
    sms_gateway, registered, visitor_client, campaign
):
    created = visitor_client.post(
        "/api/pledges",
        {
            "campaign_id": campaign.pk,
            "amount": 10_000,
            "name": "Mwangi Kariuki",
            "phone": "0708374149",
            "email": "mwangi@example.com",
        },
    )
    assert created.status_code == 201, created.content
    code = created.json()["code"]

    receipt = pay_bill(registered, BillRefNumber=code, Amount=4000, MSISDN=PAYER[1:])
    [by_paybill] = texts_to_payer_with("received")
    assert by_paybill == (
        f"Thank you! Ksh 4,000 received by M-Pesa {receipt} for pledge {code} to {campaign.title}. "
        "Ksh 6,000 left of Ksh 10,000."
    )

    prompted = visitor_client.post(f"/api/pledges/{code}/stk-push", {"idempotency_key": "receipt-code-0001"})
    assert prompted.status_code == 201, prompted.content
    payment = settled(prompted.json()["reference"])
    assert payment.mpesa_receipt
    [by_prompt] = texts_to_payer_with(payment.mpesa_receipt)
    assert by_prompt.startswith(f"Thank you! Ksh 6,000 received by M-Pesa {payment.mpesa_receipt} for pledge")
    assert payment.reference not in by_prompt  # Harambee's own reference means nothing to the payer


@pytest.mark.django_db
def test_a_statement_crediting_five_rows_of_one_pledge_sends_its_pledger_one_sms(django_capture_on_commit_callbacks):
    campaign = CampaignFactory.create(paybill=TEST_PAYBILL, title="Church Roof")
    paybill = CollectionAccount.objects.get(organization=campaign.organization, paybill_number=TEST_PAYBILL)
    treasurer = UserFactory.create()
    Membership.objects.create(organization=campaign.organization, user=treasurer, role=Role.TREASURER)
    pledge = make_pledge(campaign, amount=10_000)
    other = make_pledge(campaign, amount=3_000, name="Otieno Ouma", phone="0722000333")
    day = timezone.now().replace(microsecond=0) - timedelta(hours=3)
    rows = [Line(f"SLK000010{n}", day + timedelta(minutes=n), 1_000, account_number=pledge.code) for n in range(5)]
    rows.append(Line("SLK0000110", day, 500, account_number=other.code))
    previewed = statement_import_upload(
        user=treasurer,
        organization_id=paybill.organization_id,
        account_id=paybill.pk,
        file=SimpleUploadedFile("statement.csv", statement_csv(rows, shortcode=TEST_PAYBILL)),
    )

    with django_capture_on_commit_callbacks(execute=True):
        statement_import_confirm(user=treasurer, organization_id=paybill.organization_id, import_id=previewed.pk)

    [receipt] = NotificationLog.objects.filter(recipient=pledge.phone, template="sms/payment_received")
    assert receipt.body == (
        f"Thank you! 5 payments, Ksh 5,000 in all, received for pledge {pledge.code} to Church Roof. "
        "Ksh 5,000 left of Ksh 10,000."
    )
    assert set(receipt.receipted_payments.all()) == set(Payment.objects.filter(pledge_link__pledge=pledge))
    [its] = NotificationLog.objects.filter(recipient=other.phone, template="sms/payment_received")
    assert "Ksh 500 received by M-Pesa SLK0000110" in its.body


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "waits"), [(PaymentEvent.Kind.PULL, True), (PaymentEvent.Kind.C2B_CONFIRMATION, False)]
)
def test_the_receipt_of_a_payment_a_pull_recovered_waits_for_the_pull_s_other_payments(settings, kind, waits):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    from django_tasks import default_task_backend

    pledge = make_pledge(CampaignFactory.create(), amount=10_000)
    payment = Payment.objects.create(
        provider=Payment.Provider.MPESA_C2B,
        purpose=Payment.Purpose.PLEDGE_PAYMENT,
        amount=1_000,
        status=Payment.Status.SUCCEEDED,
        mpesa_receipt="SLK0000201",
    )
    PaymentEvent.objects.create(provider=payment.provider, kind=kind, body={}, payment=payment, outcome="credited")

    pledge_paid.send(sender=Pledge, pledge=pledge, payment=payment, fully_paid=False)

    results = default_task_backend.results  # type: ignore[attr-defined]
    [receipt] = [result for result in results if result.task.name == "notify_pledge_payment"]
    assert (receipt.task.run_after is not None) == waits
