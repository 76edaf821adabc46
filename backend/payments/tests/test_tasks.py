"""Receipts go out in the payer's language."""

import pytest
from django.core import mail
from django.utils import timezone, translation

from accounts.tests.factories import UserFactory
from campaigns.tests.factories import CampaignFactory
from payments.models import Payment
from payments.tasks import send_payment_receipt
from pledges.tests.factories import paid_donation

pytestmark = pytest.mark.django_db


def receipt_subject(payment) -> str:
    mail.outbox.clear()
    send_payment_receipt.call(payment_id=payment.pk)
    [email] = mail.outbox
    return str(email.subject)


@pytest.mark.parametrize(("language", "subject"), [("sw", "Risiti yako ya Harambee"), ("en", "Your Harambee receipt")])
def test_a_donor_s_receipt_is_in_the_language_they_gave_in(language, subject):
    with translation.override(language):
        donation = paid_donation(CampaignFactory.create(), name="Amani Njeri", email="amani@example.com")
    donation.payment.payer_email = "amani@example.com"
    donation.payment.save(update_fields=["payer_email"])

    assert receipt_subject(donation.payment).startswith(subject)


def test_any_other_receipt_is_in_the_payer_s_profile_language():
    organizer = UserFactory.create(language="sw")
    payment = Payment.objects.create(
        provider=Payment.Provider.MPESA_STK,
        purpose=Payment.Purpose.CAMPAIGN_ACTIVATION,
        amount=1_000,
        user=organizer,
        campaign=CampaignFactory.create(organizer=organizer),
    )
    payment.issue_receipt(at=timezone.now())
    payment.save()

    assert receipt_subject(payment).startswith("Risiti yako ya Harambee")
