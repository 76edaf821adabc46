"""Each sensitive action leaves one audit entry, written by the service that makes the change."""

import pytest
from django.db import transaction
from django.db.models import ProtectedError
from django.test import Client

from accounts.models import User
from audit.models import AuditAction, AuditEntry
from audit.services import audit_record
from campaigns.models import Campaign, CampaignStatus
from campaigns.services import campaign_activate, campaign_close, campaign_update
from payments.models import Payment
from payments.services import payment_record_manual
from pledges.services import pledge_confirm, pledge_payment_assign, pledge_payment_record
from pledges.tests.factories import make_pledge

pytestmark = pytest.mark.django_db


def entries(action):
    return list(AuditEntry.objects.filter(action=action))


def test_an_entry_names_who_did_what_to_which_object_before_and_after(campaign, organizer):
    entry = audit_record(
        actor=organizer,
        action=AuditAction.CAMPAIGN_EDITED,
        target=campaign,
        before={"end_date": campaign.end_date},
        after={"title": "New"},
    )

    entry.refresh_from_db()
    assert (entry.actor, entry.action, entry.object_id, entry.object_repr) == (
        organizer,
        "campaign_edited",
        campaign.pk,
        "Church Roof Repair",
    )
    assert entry.object_type.model_class() is Campaign
    assert entry.before == {"end_date": campaign.end_date.isoformat()}
    assert entry.after == {"title": "New"}


def test_entries_are_never_changed_or_deleted(campaign):
    entry = audit_record(actor=None, action=AuditAction.CAMPAIGN_STATUS_CHANGED, target=campaign)

    entry.object_repr = "forged"
    with pytest.raises(ValueError, match="never changed"):
        entry.save()
    with pytest.raises(ValueError, match="never deleted"):
        entry.delete()
    with pytest.raises(ValueError, match="never changed"):
        AuditEntry.objects.filter(pk=entry.pk).update(object_repr="forged")
    with pytest.raises(ValueError, match="never deleted"):
        AuditEntry.objects.all().delete()
    entry.refresh_from_db()
    assert entry.object_repr == "Church Roof Repair"


def test_an_account_that_acted_cannot_be_deleted(campaign, organizer):
    audit_record(actor=organizer, action=AuditAction.CAMPAIGN_EDITED, target=campaign)

    with pytest.raises(ProtectedError):
        User.objects.filter(pk=organizer.pk).delete()


def test_confirming_a_pledge_is_logged_with_its_state_before_and_after(campaign, organizer):
    pledge = make_pledge(campaign)

    pledge_confirm(pledge_id=pledge.pk, user=organizer)
    pledge_confirm(pledge_id=pledge.pk, user=organizer)  # already confirmed: nothing to log

    [entry] = entries(AuditAction.PLEDGE_CONFIRMED)
    payment = Payment.objects.get()
    assert (entry.actor, entry.object_id) == (organizer, pledge.pk)
    assert entry.before == {"status": "pending", "paid_amount": 0}
    assert entry.after == {"status": "confirmed", "paid_amount": 10_000, "payment": payment.reference}
    # The bank transfer the confirmation enters in the ledger is logged as a recorded payment too.
    assert entries(AuditAction.PAYMENT_RECORDED)[0].object_id == payment.pk


@pytest.mark.parametrize("settle", ["cash", "assign"])
def test_a_pledge_settled_by_a_person_in_another_way_is_logged_as_confirmed(campaign, organizer, settle):
    pledge = make_pledge(campaign, amount=4_000)
    if settle == "cash":
        pledge_payment_record(pledge_id=pledge.pk, user=organizer, amount=4_000, method="cash", note="", reference="")
    else:
        unmatched = payment_record_manual(
            recorded_by=organizer,
            provider=Payment.Provider.CASH,
            purpose=Payment.Purpose.PLEDGE_PAYMENT,
            amount=4_000,
            campaign=campaign,
        )
        pledge_payment_assign(pledge_id=pledge.pk, reference=unmatched.reference, user=organizer)

    [entry] = entries(AuditAction.PLEDGE_CONFIRMED)
    assert (entry.actor, entry.object_id) == (organizer, pledge.pk)
    assert (entry.before["status"], entry.after["status"]) == ("pending", "confirmed")


def test_a_cash_or_bank_payment_recorded_by_hand_is_logged(campaign, organizer):
    payment = payment_record_manual(
        recorded_by=organizer,
        provider=Payment.Provider.BANK,
        purpose=Payment.Purpose.DONATION,
        amount=2_500,
        campaign=campaign,
        bank_reference="FT26112201",
    )

    [entry] = entries(AuditAction.PAYMENT_RECORDED)
    assert (entry.actor, entry.object_id, entry.before) == (organizer, payment.pk, {})
    assert entry.after == {
        "provider": "bank",
        "purpose": "donation",
        "amount": 2_500,
        "campaign": campaign.pk,
        "account_reference": "",
        "bank_reference": "FT26112201",
        "receipt_number": payment.receipt_number,
    }


def test_assigning_an_unmatched_payment_is_logged(campaign, organizer):
    pledge = make_pledge(campaign)
    unmatched = payment_record_manual(
        recorded_by=organizer,
        provider=Payment.Provider.CASH,
        purpose=Payment.Purpose.PLEDGE_PAYMENT,
        amount=4_000,
        campaign=campaign,
    )

    pledge_payment_assign(pledge_id=pledge.pk, reference=unmatched.reference, user=organizer)

    [entry] = entries(AuditAction.PAYMENT_ASSIGNED)
    assert (entry.actor, entry.object_id) == (organizer, unmatched.pk)
    assert entry.before == {"pledge": None, "campaign": campaign.pk, "pledge_paid_amount": 0}
    assert entry.after == {"pledge": pledge.code, "campaign": campaign.pk, "pledge_paid_amount": 4_000}


def test_status_changes_are_logged_with_the_admin_or_none_for_the_system(pending_campaign, site_admin):
    campaign_activate(campaign=pending_campaign)  # the activation fee was paid
    campaign_close(campaign=pending_campaign, closed_by=site_admin)
    campaign_close(campaign=pending_campaign, closed_by=site_admin)  # no change, no entry

    changes = [(e.actor, e.before, e.after) for e in AuditEntry.objects.order_by("id")]
    assert changes == [
        (None, {"status": "pending"}, {"status": "active"}),
        (site_admin, {"status": "active"}, {"status": "closed"}),
    ]


def test_an_admin_editing_someone_elses_campaign_is_logged_with_the_changed_fields(campaign, organizer, site_admin):
    campaign_update(campaign=campaign, user=organizer, title="Roof, phase two")  # the organizer's own edit
    assert not AuditEntry.objects.exists()

    campaign_update(campaign=campaign, user=site_admin, title="Roof repair", goal=campaign.goal, story=campaign.story)

    [entry] = entries(AuditAction.CAMPAIGN_EDITED)
    assert (entry.actor, entry.object_id) == (site_admin, campaign.pk)
    assert (entry.before, entry.after) == ({"title": "Roof, phase two"}, {"title": "Roof repair"})


def test_an_edit_in_the_django_admin_is_logged(campaign, site_admin):
    browser = Client()
    browser.force_login(site_admin)
    form = browser.get(f"/admin/campaigns/campaign/{campaign.pk}/change/").context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    data = {key: "" if value is None else value for key, value in data.items()} | {"goal": 250_000}

    response = browser.post(f"/admin/campaigns/campaign/{campaign.pk}/change/", data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    [entry] = entries(AuditAction.CAMPAIGN_EDITED)
    assert (entry.actor, entry.before, entry.after) == (site_admin, {"goal": 100_000}, {"goal": 250_000})


def test_an_entry_is_rolled_back_with_the_change_it_records(pending_campaign, site_admin):
    with pytest.raises(RuntimeError), transaction.atomic():  # noqa: PT012 the failure comes after the change
        campaign_activate(campaign=pending_campaign, activated_by=site_admin)
        raise RuntimeError("the request failed after the change")

    pending_campaign.refresh_from_db()
    assert pending_campaign.status == CampaignStatus.PENDING
    assert not AuditEntry.objects.exists()
