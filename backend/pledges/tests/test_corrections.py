"""Correctable books, through HTTP: correcting a pledge's amount, cancelling and restoring it,
recording M-Pesa payments to the organization's own number, reversing entries, and the pledge
ceiling. Each is for the campaign's organizer or an admin only (see the authorization matrix),
needs a reason where it corrects something, is audited and tells the pledger once."""

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditAction, AuditEntry
from campaigns.models import Campaign
from notifications.models import NotificationLog
from payments.models import Payment, PaymentReversal
from pledges.models import Donation, Pledge
from pledges.tests.factories import make_pledge
from pledges.tests.test_management import pay_bill

pytestmark = pytest.mark.django_db


# Messages go out once the change is committed: the tests that read them commit for real.
committing = pytest.mark.django_db(transaction=True)


def figures(campaign):
    campaign = Campaign.objects.get(pk=campaign.pk)
    return {
        "pledged": campaign.pledged_total,
        "raised": campaign.raised_total,
        "donors": campaign.donor_count,
    }


def audit(action):
    return list(AuditEntry.objects.filter(action=action))


def sms_to(pledge):
    return list(
        NotificationLog.objects.filter(pledge=pledge, template="sms/pledge_changed").values_list("body", flat=True)
    )


def record(client, pledge, amount, method="cash", reference="", **extra):
    return client.post(
        f"/api/pledges/{pledge.pk}/payments", {"amount": amount, "method": method, "reference": reference, **extra}
    )


def reverse(client, payment, reason="Entered twice by mistake"):
    return client.post(f"/api/payments/{payment.reference}/reversal", {"reason": reason})


# Corrections of the amount --------------------------------------------------------------------


@committing
def test_a_mistyped_amount_is_corrected_with_a_reason_audited_and_the_pledger_told(
    organizer_client, organizer, campaign
):
    pledge = make_pledge(campaign, amount=50_000)

    response = organizer_client.post(
        f"/api/pledges/{pledge.pk}/correction", {"amount": 5_000, "reason": "Typed 50,000 for 5,000"}
    )

    assert response.status_code == 200, response.content
    assert (response.json()["amount"], response.json()["status"]) == (5_000, "pending")
    assert figures(campaign)["pledged"] == 5_000
    [entry] = audit(AuditAction.PLEDGE_CORRECTED)
    assert (entry.actor, entry.object_id) == (organizer, pledge.pk)
    assert entry.before == {"amount": 50_000, "status": "pending"}
    assert entry.after == {"amount": 5_000, "status": "pending", "reason": "Typed 50,000 for 5,000"}
    [sms] = sms_to(pledge)
    assert f"Your pledge {pledge.code}" in sms and "Ksh 5,000" in sms


def test_a_correction_never_goes_below_what_is_paid_and_needs_a_reason(organizer_client, campaign):
    pledge = make_pledge(campaign, amount=10_000)
    record(organizer_client, pledge, 4_000)

    below = organizer_client.post(f"/api/pledges/{pledge.pk}/correction", {"amount": 3_999, "reason": "Less"})
    no_reason = organizer_client.post(f"/api/pledges/{pledge.pk}/correction", {"amount": 6_000, "reason": " "})

    assert below.status_code == 422
    assert below.json()["field_errors"] == {
        "amount": "The amount cannot be less than what is already paid (Ksh 4,000)."
    }
    assert no_reason.json()["field_errors"] == {"reason": "Please give the reason."}
    assert Pledge.objects.get(pk=pledge.pk).amount == 10_000
    assert not audit(AuditAction.PLEDGE_CORRECTED)


def test_the_status_follows_the_amount_both_ways(organizer_client, campaign):
    pledge = make_pledge(campaign, amount=10_000)
    record(organizer_client, pledge, 6_000)

    down = organizer_client.post(f"/api/pledges/{pledge.pk}/correction", {"amount": 6_000, "reason": "Agreed"})
    up = organizer_client.post(f"/api/pledges/{pledge.pk}/correction", {"amount": 8_000, "reason": "Raised"})

    assert down.json()["status"] == "confirmed"
    assert (up.json()["status"], up.json()["remaining_amount"], up.json()["confirmed_at"]) == (
        "partly_paid",
        2_000,
        None,
    )


# Cancelling and restoring ------------------------------------------------------------------------


@committing
def test_a_cancelled_pledge_leaves_the_totals_the_summary_the_public_list_and_the_reminders(
    organizer_client, visitor_client, organizer, campaign
):
    kept, cancelled = make_pledge(campaign, amount=3_000), make_pledge(campaign, amount=50_000, name="Joke Pledger")

    response = organizer_client.post(f"/api/pledges/{cancelled.pk}/cancellation", {"reason": "Not a real pledge"})

    assert response.status_code == 200, response.content
    assert response.json()["cancelled_at"] is not None
    assert response.json()["cancel_reason"] == "Not a real pledge"
    assert figures(campaign)["pledged"] == 3_000
    summary = organizer_client.get(f"/api/campaigns/{campaign.pk}/pledge-summary").json()
    assert (summary["count"], summary["pledged_sum"], summary["cancelled_count"]) == (1, 3_000, 1)
    public = visitor_client.get("/api/pledges", {"campaign_id": campaign.pk}).json()
    assert [pledge["id"] for pledge in public] == [kept.pk]
    assert visitor_client.get(f"/api/campaigns/{campaign.pk}").json()["pledged_total"] == 3_000
    remind = organizer_client.post(f"/api/pledges/{cancelled.pk}/remind")
    assert remind.json()["code"] == "pledge_cancelled"
    [entry] = audit(AuditAction.PLEDGE_CANCELLED)
    assert (entry.actor, entry.after["reason"]) == (organizer, "Not a real pledge")
    assert sms_to(cancelled) == [f"Your pledge {cancelled.code} to {campaign.title} was cancelled by the organizer."]


@committing
def test_a_restored_pledge_counts_again(organizer_client, campaign):
    pledge = make_pledge(campaign, amount=7_000)
    organizer_client.post(f"/api/pledges/{pledge.pk}/cancellation", {"reason": "Duplicate"})

    response = organizer_client.post(f"/api/pledges/{pledge.pk}/restoration", {"reason": "Was not a duplicate"})
    again = organizer_client.post(f"/api/pledges/{pledge.pk}/restoration", {"reason": "Twice"})

    assert (response.status_code, response.json()["cancelled_at"]) == (200, None)
    assert figures(campaign)["pledged"] == 7_000
    assert again.json()["code"] == "pledge_live"
    assert [entry.after["reason"] for entry in audit(AuditAction.PLEDGE_RESTORED)] == ["Was not a duplicate"]
    assert len(sms_to(pledge)) == 2


def test_a_pledge_with_payments_is_cancelled_only_once_they_have_somewhere_to_go(organizer_client, campaign):
    pledge = make_pledge(campaign, amount=10_000)
    record(organizer_client, pledge, 2_000)

    response = organizer_client.post(f"/api/pledges/{pledge.pk}/cancellation", {"reason": "Wrong campaign"})

    assert response.status_code == 422
    assert response.json()["field_errors"] == {
        "payments_to": "This pledge has payments: move them to another pledge or keep them as a gift."
    }
    assert Pledge.objects.get(pk=pledge.pk).is_live


def test_payments_kept_as_a_gift_become_donations_and_the_money_stays_counted(organizer_client, campaign):
    pledge = make_pledge(campaign, amount=10_000)
    record(organizer_client, pledge, 2_000)
    before = figures(campaign)

    response = organizer_client.post(
        f"/api/pledges/{pledge.pk}/cancellation", {"reason": "Gave instead", "payments_to": "gift"}
    )

    assert response.json()["paid_amount"] == 0
    [gift] = Donation.objects.filter(campaign=campaign)
    assert (gift.amount, gift.name, gift.counted_at is not None) == (2_000, pledge.name, True)
    assert figures(campaign) == {"pledged": 0, "raised": before["raised"], "donors": before["donors"]}
    assert organizer_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments").json() == []


def test_payments_moved_to_another_pledge_count_there(organizer_client, campaign):
    wrong, right = make_pledge(campaign, amount=10_000), make_pledge(campaign, amount=2_000, name="Otieno Odhiambo")
    record(organizer_client, wrong, 2_000)

    response = organizer_client.post(
        f"/api/pledges/{wrong.pk}/cancellation",
        {"reason": "Recorded on the wrong pledge", "payments_to": "pledge", "to_pledge_id": right.pk},
    )

    assert response.status_code == 200, response.content
    right.refresh_from_db()
    assert (right.paid_amount, right.status) == (2_000, "confirmed")
    assert figures(campaign) == {"pledged": 2_000, "raised": 2_000, "donors": 1}
    assert organizer_client.get(f"/api/pledges/{right.pk}/payments").json()[0]["amount"] == 2_000


# Recording money honestly --------------------------------------------------------------------------


def test_an_mpesa_payment_to_the_organizations_number_needs_its_receipt_code_once(organizer_client, campaign):
    pledge = make_pledge(campaign, amount=10_000)

    missing = record(organizer_client, pledge, 4_000, method="mpesa_manual")
    first = record(organizer_client, pledge, 4_000, method="mpesa_manual", reference="slk4h7r2qx")
    again = record(organizer_client, pledge, 4_000, method="mpesa_manual", reference="SLK4H7R2QX")

    assert missing.json()["field_errors"] == {
        "reference": "Please enter the M-Pesa receipt code: 10 letters and digits, e.g. SLK4H7R2QX."
    }
    assert (first.status_code, first.json()["paid_amount"], first.json()["status"]) == (201, 4_000, "partly_paid")
    assert again.json()["field_errors"] == {"reference": "This M-Pesa receipt has already been recorded."}
    assert Payment.objects.get(mpesa_receipt="SLK4H7R2QX").provider == "mpesa_manual"


def test_a_paybill_callback_with_a_receipt_already_entered_by_hand_credits_nothing(organizer_client, campaign):
    pledge = make_pledge(campaign, amount=10_000)
    record(organizer_client, pledge, 4_000, method="mpesa_manual", reference="SLK4H7R2QX")

    pay_bill(pledge.code, 4_000, "SLK4H7R2QX")

    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 4_000
    assert figures(campaign)["raised"] == 4_000


def test_a_backdated_entry_counts_on_the_day_it_was_received_and_never_in_the_future(organizer_client, campaign):
    pledge = make_pledge(campaign, amount=10_000)
    last_week = timezone.localdate() - timedelta(days=7)

    future = record(organizer_client, pledge, 1_000, received_on=str(timezone.localdate() + timedelta(days=1)))
    past = record(organizer_client, pledge, 1_000, received_on=str(last_week))

    assert future.json()["field_errors"] == {"received_on": "The date received cannot be in the future."}
    assert past.status_code == 201
    [payment] = Payment.objects.filter(campaign=campaign)
    assert timezone.localdate(payment.counted_at) == last_week


def test_confirm_payment_asks_how_and_when_and_the_spec_body_still_records_a_bank_payment(organizer_client, campaign):
    spec, by_mpesa = make_pledge(campaign, amount=3_000), make_pledge(campaign, amount=5_000)

    spec_answer = organizer_client.post(
        "/api/confirm-payment", {"pledgeId": spec.pk, "campaignOrganizerEmail": "x@example.com"}
    )
    mpesa_answer = organizer_client.post(
        "/api/confirm-payment",
        {"pledgeId": by_mpesa.pk, "method": "mpesa_manual", "reference": "SLK0000001", "received_on": None},
    )

    assert spec_answer.json()["detail"] == "Payment confirmed successfully!"
    assert mpesa_answer.json()["pledge"]["status"] == "confirmed"
    assert Payment.objects.get(account_reference=spec.code).provider == "bank"
    assert Payment.objects.get(account_reference=by_mpesa.code).mpesa_receipt == "SLK0000001"


@committing
def test_the_receipt_states_what_was_recorded(organizer_client, campaign):
    pledge = make_pledge(campaign, amount=10_000)

    record(organizer_client, pledge, 4_000, method="mpesa_manual", reference="SLK4H7R2QX")

    receipt = NotificationLog.objects.get(template="email/receipt")
    assert "M-Pesa to the organization's number (SLK4H7R2QX)" in receipt.body
    sms = NotificationLog.objects.get(template="sms/payment_received")
    assert "Ksh 4,000 received by M-Pesa SLK4H7R2QX for pledge" in sms.body


# Reversing entries ------------------------------------------------------------------------------------


@committing
def test_reversing_a_payment_takes_a_confirmed_pledge_back_to_partly_paid_and_is_in_its_history(
    organizer_client, visitor_client, organizer, campaign
):
    pledge = make_pledge(campaign, amount=10_000)
    record(organizer_client, pledge, 4_000)
    record(organizer_client, pledge, 6_000, method="bank", reference="FT-REV-1")
    mistaken = Payment.objects.get(provider_reference="FT-REV-1")

    response = reverse(organizer_client, mistaken, reason="The transfer bounced")

    assert response.status_code == 200, response.content
    pledge.refresh_from_db()
    assert (pledge.status, pledge.paid_amount, pledge.confirmed_at) == ("partly_paid", 4_000, None)
    assert figures(campaign) == {"pledged": 10_000, "raised": 4_000, "donors": 1}
    assert visitor_client.get(f"/api/campaigns/{campaign.pk}").json()["raised_total"] == 4_000
    mistaken.refresh_from_db()
    assert (mistaken.status, mistaken.amount, mistaken.counted_at) == ("succeeded", 6_000, None)
    assert PaymentReversal.objects.get(payment=mistaken).reversed_by == organizer
    [entry] = audit(AuditAction.PAYMENT_REVERSED)
    assert (entry.actor, entry.after["reason"]) == (organizer, "The transfer bounced")
    payments = organizer_client.get(f"/api/pledges/{pledge.pk}/payments").json()
    assert [(row["amount"], row["reversal_reason"], row["reversible"]) for row in payments] == [
        (6_000, "The transfer bounced", False),
        (4_000, None, True),
    ]
    history = organizer_client.get(f"/api/pledges/{pledge.pk}/history").json()
    assert history[0]["action"] == "payment_reversed"
    assert history[0]["reason"] == "The transfer bounced"
    assert {row["action"] for row in history} == {"payment_reversed", "payment_recorded", "pledge_confirmed"}
    assert sms_to(pledge)[-1].startswith(f"A payment recorded for your pledge {pledge.code}")


def test_a_payment_is_reversed_once_with_a_reason_and_only_when_entered_by_hand(organizer_client, campaign):
    pledge = make_pledge(campaign, amount=10_000)
    record(organizer_client, pledge, 1_000)
    cash = Payment.objects.get(campaign=campaign)
    paybill = pay_bill(pledge.code, 500, "SLK9999999")

    no_reason = reverse(organizer_client, cash, reason="")
    first = reverse(organizer_client, cash)
    second = reverse(organizer_client, cash)
    provider_paid = reverse(organizer_client, paybill)

    assert no_reason.json()["field_errors"] == {"reason": "Please give the reason for the reversal."}
    assert first.status_code == 200
    assert (second.status_code, second.json()["code"]) == (400, "already_reversed")
    assert (provider_paid.status_code, provider_paid.json()["code"]) == (400, "not_manual")
    assert Pledge.objects.get(pk=pledge.pk).paid_amount == 500


def test_reversing_a_gift_takes_the_donation_off_the_campaign(organizer_client, visitor_client, campaign):
    pledge = make_pledge(campaign, amount=10_000)
    record(organizer_client, pledge, 2_000)
    organizer_client.post(f"/api/pledges/{pledge.pk}/cancellation", {"reason": "Gift", "payments_to": "gift"})

    reverse(organizer_client, Payment.objects.get(campaign=campaign))

    assert figures(campaign) == {"pledged": 0, "raised": 0, "donors": 0}
    assert visitor_client.get("/api/donations", {"campaign_id": campaign.pk}).json() == []


# Ceilings and the public pledged figure -------------------------------------------------------------


def test_a_pledge_above_the_campaigns_largest_pledge_is_refused_with_a_clear_message(visitor_client, campaign):
    body = {"campaign_id": campaign.pk, "name": "Joker", "email": "j@example.com", "phone": "0711000222"}

    refused = visitor_client.post("/api/pledges", {**body, "amount": campaign.goal + 1})
    accepted = visitor_client.post("/api/pledges", {**body, "amount": campaign.goal})

    assert refused.status_code == 422
    assert refused.json()["field_errors"] == {"amount": "The largest single pledge to this campaign is Ksh 100,000."}
    assert accepted.status_code == 201
    assert figures(campaign)["pledged"] == campaign.goal


def test_the_organizer_sets_the_largest_pledge_and_corrections_respect_it(organizer_client, visitor_client, campaign):
    pledge = make_pledge(campaign, amount=1_000)

    organizer_client.patch(f"/api/campaigns/{campaign.pk}", {"largest_pledge": 5_000})
    too_big = organizer_client.post(f"/api/pledges/{pledge.pk}/correction", {"amount": 5_001, "reason": "More"})
    invalid = organizer_client.patch(f"/api/campaigns/{campaign.pk}", {"largest_pledge": 0})

    assert visitor_client.get(f"/api/campaigns/{campaign.pk}").json()["largest_pledge"] == 5_000
    assert too_big.json()["field_errors"] == {"amount": "The largest single pledge to this campaign is Ksh 5,000."}
    assert invalid.json()["field_errors"] == {
        "largest_pledge": "The largest pledge must be a whole amount from Ksh 1 to Ksh 1,000,000,000."
    }


def test_pledges_made_without_signing_in_count_publicly_after_their_first_payment_when_the_campaign_says_so(
    organizer_client, visitor_client, member_client, campaign
):
    organizer_client.patch(f"/api/campaigns/{campaign.pk}", {"unsigned_pledges_count_after_payment": True})
    unsigned = make_pledge(campaign, amount=40_000)
    member_client.post(
        "/api/pledges",
        {
            "campaign_id": campaign.pk,
            "amount": 1_000,
            "name": "Member",
            "email": "m@example.com",
            "phone": "0711000333",
        },
    )

    def public():
        page = visitor_client.get(f"/api/campaigns/{campaign.pk}").json()
        [card] = [card for card in visitor_client.get("/api/campaigns").json() if card["id"] == campaign.pk]
        assert card["pledged_total"] == page["pledged_total"]
        assert card["progress_percent"] == page["progress_percent"]
        return page["pledged_total"], page["progress_percent"]

    assert public() == (1_000, 1)
    assert organizer_client.get(f"/api/campaigns/{campaign.pk}/pledge-summary").json()["pledged_sum"] == 41_000
    record(organizer_client, unsigned, 100)
    assert public() == (41_000, 41)


def test_corrections_cancellations_and_restorations_of_one_pledge_are_limited(organizer_client, campaign, settings):
    settings.RATE_LIMIT_PLEDGE_CHANGES = (3, 86400)
    pledge, other = make_pledge(campaign, amount=7_000), make_pledge(campaign, amount=8_000)
    path = f"/api/pledges/{pledge.pk}"

    answers = [
        organizer_client.post(f"{path}/correction", {"amount": 6_000, "reason": "Typo"}).status_code,
        organizer_client.post(f"{path}/cancellation", {"reason": "Duplicate"}).status_code,
        organizer_client.post(f"{path}/restoration", {"reason": "Was not"}).status_code,
    ]
    refused = organizer_client.post(f"{path}/correction", {"amount": 5_000, "reason": "Again"})

    assert answers == [200, 200, 200]
    assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
    assert Pledge.objects.get(pk=pledge.pk).amount == 6_000
    assert organizer_client.post(f"/api/pledges/{other.pk}/correction", {"amount": 1, "reason": "x"}).status_code == 200
