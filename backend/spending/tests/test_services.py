import pytest

from audit.models import AuditAction, AuditEntry
from campaigns.tests.factories import CampaignFactory
from common.errors import PermissionDeniedError, ServiceError
from organizations.roles import Role
from spending.models import SpendingRecord
from spending.selectors import accountability_figures
from spending.services import spending_approve, spending_reverse
from spending.tests.factories import spent, treasurer_of

pytestmark = pytest.mark.django_db


def test_a_line_counts_only_once_a_second_person_approved_it():
    campaign = CampaignFactory.create()
    treasurer = treasurer_of(campaign)
    line = spent(campaign, amount=12_000, recorder=treasurer, approve=False)

    assert accountability_figures(campaign=campaign).spent == 0
    with pytest.raises(PermissionDeniedError) as refused:
        spending_approve(user=treasurer, record_id=line.pk)
    assert refused.value.code == "two_person_rule"
    assert accountability_figures(campaign=campaign).spent == 0

    spending_approve(user=campaign.organizer, record_id=line.pk)

    assert accountability_figures(campaign=campaign).spent == 12_000
    line.refresh_from_db()
    assert (line.recorded_by, line.approved_by) == (treasurer, campaign.organizer)


@pytest.mark.parametrize("role", [Role.USHER, Role.VIEWER])
def test_ushers_and_viewers_cannot_approve(role):
    campaign = CampaignFactory.create()
    line = spent(campaign, amount=500, approve=False)

    with pytest.raises(PermissionDeniedError):
        spending_approve(user=treasurer_of(campaign, role=role), record_id=line.pk)


def test_a_reversal_is_a_new_entry_and_restores_the_totals():
    campaign = CampaignFactory.create()
    kept = spent(campaign, amount=3_000, category="transport")
    wrong = spent(campaign, amount=9_000, category="labour", payee="John Otieno", payee_kind="person")
    assert accountability_figures(campaign=campaign).spent == 12_000

    reversal = spending_reverse(user=campaign.organizer, record_id=wrong.pk, reason="Paid from the tithe account")

    figures = accountability_figures(campaign=campaign)
    assert figures.spent == 3_000
    assert [(row.key, row.amount) for row in figures.spent_by_category] == [("transport", 3_000)]
    assert reversal.reverses == wrong and SpendingRecord.objects.count() == 3
    wrong.refresh_from_db()
    assert wrong.amount == 9_000  # the original stays as it was
    assert kept.counts
    with pytest.raises(ServiceError):
        spending_reverse(user=campaign.organizer, record_id=wrong.pk, reason="Again")
    with pytest.raises(ServiceError):
        spending_reverse(user=campaign.organizer, record_id=reversal.pk, reason="Undo")


def test_lines_are_never_edited_nor_deleted():
    line = spent(CampaignFactory.create(), amount=100)

    line.amount = 1
    with pytest.raises(ValueError, match="never changed"):
        line.save()
    with pytest.raises(ValueError, match="never deleted"):
        line.delete()


def test_recording_approving_and_reversing_are_audited():
    campaign = CampaignFactory.create()
    line = spent(campaign, amount=700)
    spending_reverse(user=campaign.organizer, record_id=line.pk, reason="Typo")

    actions = set(AuditEntry.objects.filter(object_id=line.pk).values_list("action", flat=True))
    assert {AuditAction.SPENDING_RECORDED, AuditAction.SPENDING_APPROVED, AuditAction.SPENDING_REVERSED} <= actions


def test_a_pending_line_reversed_is_withdrawn_and_cannot_be_approved():
    campaign = CampaignFactory.create()
    line = spent(campaign, amount=700, approve=False)
    spending_reverse(user=campaign.organizer, record_id=line.pk, reason="Entered twice")

    with pytest.raises(ServiceError):
        spending_approve(user=campaign.organizer, record_id=line.pk)
    assert accountability_figures(campaign=campaign).spent == 0


def test_an_account_of_another_organization_is_refused():
    from collection_accounts.tests.factories import CollectionAccountFactory
    from common.errors import FieldValidationError
    from spending.services import spending_record

    campaign = CampaignFactory.create()
    elsewhere = CollectionAccountFactory.create(organization=CampaignFactory.create().organization)

    with pytest.raises(FieldValidationError):
        spending_record(
            user=campaign.organizer,
            campaign_id=campaign.pk,
            spent_on=campaign.start_date,
            payee="Hardware",
            payee_kind="organization",
            category="materials",
            amount=10,
            account_id=elsewhere.pk,
        )


def test_a_progress_update_shows_only_pictures_uploaded_here():
    from common.errors import FieldValidationError
    from spending.services import progress_update_post

    campaign = CampaignFactory.create()

    with pytest.raises(FieldValidationError):
        progress_update_post(
            user=campaign.organizer, campaign_id=campaign.pk, text="Roof!", photo_urls=["https://tracker.example/p.gif"]
        )
    update = progress_update_post(
        user=campaign.organizer,
        campaign_id=campaign.pk,
        text="Roof!",
        photo_urls=["/media/uploads/20261128030000-0123456789abcdef.jpg"],
    )
    assert update.photo_urls == ["/media/uploads/20261128030000-0123456789abcdef.jpg"]
