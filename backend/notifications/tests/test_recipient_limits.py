"""Messages to a number or address whose owner did not ask for them: 3 an hour, 10 a day, and no
sender-chosen name in an SMS to a number that never paid towards the pledge."""

import pytest

from campaigns.tests.factories import CampaignFactory
from notifications.messages import pledge_payment_notify
from notifications.models import NotificationLog
from notifications.reminders import pledge_reminder_send
from payments.models import Payment
from pledges.models import Pledge, PledgePayment
from simulators.models import SimulatedSms

pytestmark = pytest.mark.django_db(transaction=True)

STRANGER = "+254708374149"


def pledge_naming(client, campaign, *, phone="0708374149", email="stranger@example.com", address="127.0.18.80"):
    body = {
        "campaign_id": campaign.pk,
        "amount": 500,
        "name": "Anyone At All",
        "email": email,
        "phone": phone,
        "is_anonymous": False,
    }
    answer = client.post("/api/pledges", body, REMOTE_ADDR=address)
    assert answer.status_code == 201
    return Pledge.objects.get(code=answer.json()["code"])


def test_8_pledges_naming_one_phone_from_8_addresses_send_it_at_most_3_messages(sms_gateway, make_api_client):
    campaign = CampaignFactory.create()

    for n in range(8):
        pledge_naming(make_api_client(), campaign, email=f"giver{n}@example.com", address=f"127.0.18.{81 + n}")

    assert SimulatedSms.objects.filter(to=STRANGER).count() == 3
    statuses = NotificationLog.objects.filter(recipient=STRANGER).values_list("status", flat=True)
    assert sorted(statuses) == ["limited"] * 5 + ["sent"] * 3


def test_the_limit_is_per_recipient_and_counts_e_mails_too(sms_gateway, make_api_client, settings):
    settings.RATE_LIMIT_UNASKED_MESSAGES_HOUR = (1, 3600)
    campaign = CampaignFactory.create()

    pledge_naming(make_api_client(), campaign)
    pledge_naming(make_api_client(), campaign)
    pledge_naming(make_api_client(), campaign, phone="0711000222", email="someone.else@example.com")

    sent = NotificationLog.objects.filter(status="sent", template__endswith="pledge_recorded")
    assert sorted(sent.values_list("recipient", flat=True)) == sorted(
        ["+254711000222", "+254708374149", "someone.else@example.com", "stranger@example.com"]
    )


def test_a_confirmation_sms_carries_no_sender_chosen_name(sms_gateway, make_api_client):
    pledge_naming(make_api_client(), CampaignFactory.create())

    message = SimulatedSms.objects.get(to=STRANGER).message
    assert "Anyone" not in message
    assert message.startswith("Thank you! You pledged Ksh 500")


def mpesa_payment_from(pledge, phone):
    """The pledge paid in full by M-Pesa from ``phone``."""
    payment = Payment.objects.create(
        provider=Payment.Provider.MPESA_STK,
        purpose=Payment.Purpose.PLEDGE_PAYMENT,
        amount=pledge.amount,
        status=Payment.Status.SUCCEEDED,
        payer_phone=phone,
        campaign=pledge.campaign,
    )
    PledgePayment.objects.create(pledge=pledge, payment=payment)
    pledge.paid_amount = pledge.amount
    pledge.save(update_fields=["paid_amount"])
    return payment


def test_a_number_that_paid_towards_the_pledge_is_not_limited_and_sees_the_name(sms_gateway, make_api_client, settings):
    settings.RATE_LIMIT_UNASKED_MESSAGES_HOUR = (1, 3600)
    settings.REMINDER_QUIET_HOURS = None
    pledge = pledge_naming(make_api_client(), CampaignFactory.create())
    payment = mpesa_payment_from(pledge, STRANGER)
    SimulatedSms.objects.all().delete()

    assert pledge_reminder_send(pledge_id=pledge.pk, reminder_id=None)
    pledge_payment_notify(pledge_id=pledge.pk, payment_id=payment.pk)

    messages = list(SimulatedSms.objects.filter(to=STRANGER).order_by("id").values_list("message", flat=True))
    assert messages[0].startswith("Reminder:")
    assert any(message.startswith("Thank you Anyone At All! Your pledge") for message in messages)


def test_a_thank_you_to_a_number_that_never_paid_carries_no_name(sms_gateway, make_api_client):
    pledge = pledge_naming(make_api_client(), CampaignFactory.create())
    payment = mpesa_payment_from(pledge, "+254711000222")

    pledge_payment_notify(pledge_id=pledge.pk, payment_id=payment.pk)

    thanks = SimulatedSms.objects.get(to=STRANGER, message__contains="fully paid").message
    assert thanks.startswith("Thank you! Your pledge")


def team_changes_and_cash_payments(client, pledge, *, rounds):
    """What an owner can do to a pledge by hand, again and again: each texts the pledge's number."""
    steps: list[tuple[str, dict[str, object]]] = [
        ("correction", {"reason": "Typed it wrong"}),
        ("payments", {"amount": 1, "method": "cash"}),
        ("cancellation", {"reason": "Not theirs", "payments_to": "gift"}),
        ("restoration", {"reason": "Theirs after all"}),
    ]
    for round_ in range(rounds):
        for step, body in steps:
            extra = {"amount": 600 + round_} if step == "correction" else {}
            answer = client.post(f"/api/pledges/{pledge.pk}/{step}", {**body, **extra}, content_type="application/json")
            assert answer.status_code in (200, 201), answer.content


def test_what_an_owner_does_by_hand_texts_a_number_never_confirmed_within_its_limits(
    sms_gateway, make_api_client, settings
):
    settings.RATE_LIMIT_PLEDGE_CHANGES = (1_000, 3600)
    campaign = CampaignFactory.create()
    pledge = pledge_naming(make_api_client(), campaign)
    owner = make_api_client(signed_in_as=campaign.organizer)

    team_changes_and_cash_payments(owner, pledge, rounds=3)

    assert SimulatedSms.objects.filter(to=STRANGER).count() == 3  # the confirmation and 2 of the 12 changes
    limited = NotificationLog.objects.filter(recipient=STRANGER, status="limited")
    assert set(limited.values_list("template", flat=True)) == {"sms/pledge_changed", "sms/payment_received"}


def test_a_number_confirmed_as_the_pledgers_hears_of_every_change_made_by_hand(sms_gateway, make_api_client, settings):
    settings.RATE_LIMIT_PLEDGE_CHANGES = (1_000, 3600)
    campaign = CampaignFactory.create()
    pledge = pledge_naming(make_api_client(), campaign)
    Pledge.objects.filter(pk=pledge.pk).update(phone_verified=True)  # as the network gives it on USSD
    owner = make_api_client(signed_in_as=campaign.organizer)

    team_changes_and_cash_payments(owner, pledge, rounds=2)

    assert not NotificationLog.objects.filter(recipient=STRANGER, status="limited").exists()
