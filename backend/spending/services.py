"""Writes of spending: recording a line, approving another's (the two-person rule), reversing one,
and posting a progress update. Each is one transaction, audited, and renews the campaign's cached
public view (its page shows the figures)."""

from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from campaigns.caching import campaign_changed
from campaigns.models import Campaign
from campaigns.selectors import campaign_get
from campaigns.uploads import STORED_PICTURE
from collection_accounts.models import CollectionAccount
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError, ServiceError
from organizations.roles import Permission, role_allows
from spending import signals
from spending.models import ProgressUpdate, SpendingRecord, SpendingStatus

PHOTOS_MAX = 6


def _audit_state(record: SpendingRecord) -> dict[str, Any]:
    return {
        "amount": record.amount,
        "payee": record.payee,
        "category": record.category,
        "spent_on": record.spent_on,
        "status": record.status,
        "reverses": record.reverses_id,
    }


def spending_team_check(*, campaign: Campaign, user: User) -> None:
    """PermissionDeniedError unless ``user`` is an owner or treasurer of the campaign's organization.
    Not an admin: spending is the church's own word, given and checked by two of its own people."""
    if not user.is_active or not role_allows(campaign.role_of(user), Permission.RECORD_SPENDING):
        raise PermissionDeniedError(
            _("Only the campaign's owners and treasurers can record and approve its spending."), code="not_treasurer"
        )


def _campaign_for_team(*, campaign_id: int, user: User) -> Campaign:
    campaign = campaign_get(campaign_id=campaign_id, user=user)
    spending_team_check(campaign=campaign, user=user)
    return campaign


def _locked_line(*, record_id: int, user: User) -> SpendingRecord:
    record = SpendingRecord.objects.select_for_update().select_related("campaign").filter(pk=record_id).first()
    if record is None or not record.campaign.is_visible_to(user):
        raise NotFoundError(_("Spending line not found."), code="not_found")
    spending_team_check(campaign=record.campaign, user=user)
    return record


def spending_record(
    *,
    user: User,
    campaign_id: int,
    spent_on: date,
    payee: str,
    payee_kind: str,
    category: str,
    amount: int,
    account_id: int | None = None,
    note: str = "",
    publish_receipt: bool = False,
    receipt: tuple[str, str] | None = None,
) -> SpendingRecord:
    """Record what the church paid from the campaign's money: waiting for a second owner or treasurer
    (``spending_approve``) before it counts. ``receipt``: the stored receipt (``receipts.receipt_store``)."""
    campaign = _campaign_for_team(campaign_id=campaign_id, user=user)
    if spent_on > timezone.localdate():
        message = _("The date cannot be in the future.")
        raise FieldValidationError(message, code="future_date", field_errors={"spent_on": message})
    if not payee.strip():
        message = _("Please say who was paid.")
        raise FieldValidationError(message, code="required", field_errors={"payee": message})
    account = None
    if account_id is not None:
        account = CollectionAccount.objects.filter(pk=account_id, organization_id=campaign.organization_id).first()
        if account is None:
            message = _("Please choose one of the organization's accounts.")
            raise FieldValidationError(message, code="invalid_account", field_errors={"account_id": message})
    with transaction.atomic():
        record = SpendingRecord.objects.create(
            campaign=campaign,
            spent_on=spent_on,
            payee=payee.strip(),
            payee_kind=payee_kind,
            category=category,
            amount=amount,
            collection_account=account,
            receipt_name=receipt[0] if receipt else "",
            receipt_type=receipt[1] if receipt else "",
            publish_receipt=publish_receipt and receipt is not None,
            note=note.strip(),
            recorded_by=user,
        )
        audit_record(actor=user, action=AuditAction.SPENDING_RECORDED, target=record, after=_audit_state(record))
    return record


def spending_approve(*, user: User, record_id: int) -> SpendingRecord:
    """Approve a pending line recorded by someone else: from now on it counts."""
    with transaction.atomic():
        record = _locked_line(record_id=record_id, user=user)
        if record.reverses_id is not None or record.status != SpendingStatus.PENDING:
            raise ServiceError(_("This line is not waiting for approval."), code="not_pending")
        if hasattr(record, "reversal"):
            raise ServiceError(_("This line was withdrawn."), code="reversed")
        if record.recorded_by_id == user.pk:
            raise PermissionDeniedError(
                _("A second owner or treasurer must approve it: not the one who recorded it."), code="two_person_rule"
            )
        before = _audit_state(record)
        record.status, record.approved_by, record.approved_at = SpendingStatus.APPROVED, user, timezone.now()
        record.save(update_fields=["status", "approved_by", "approved_at"])
        audit_record(
            actor=user, action=AuditAction.SPENDING_APPROVED, target=record, before=before, after=_audit_state(record)
        )
        campaign_changed(campaign_id=record.campaign_id)
    return record


def spending_reverse(*, user: User, record_id: int, reason: str) -> SpendingRecord:
    """Correct a line by a reversing entry (the original stays): an approved line stops counting, a
    pending one is withdrawn. Answers the reversing entry."""
    if not reason.strip():
        message = _("Please say why it is reversed.")
        raise FieldValidationError(message, code="required", field_errors={"reason": message})
    with transaction.atomic():
        original = _locked_line(record_id=record_id, user=user)
        if original.reverses_id is not None:
            raise ServiceError(_("A reversing entry cannot itself be reversed."), code="is_reversal")
        if SpendingRecord.objects.filter(reverses=original).exists():
            raise ServiceError(_("This line was already reversed."), code="already_reversed")
        reversal = SpendingRecord.objects.create(
            campaign_id=original.campaign_id,
            spent_on=timezone.localdate(),
            payee=original.payee,
            payee_kind=original.payee_kind,
            category=original.category,
            amount=original.amount,
            collection_account_id=original.collection_account_id,
            note=reason.strip(),
            recorded_by=user,
            status=SpendingStatus.APPROVED,
            reverses=original,
        )
        audit_record(
            actor=user,
            action=AuditAction.SPENDING_REVERSED,
            target=original,
            before=_audit_state(original),
            after={"reversal": reversal.pk, "reason": reason.strip()},
        )
        campaign_changed(campaign_id=original.campaign_id)
    return reversal


def progress_update_post(*, user: User, campaign_id: int, text: str, photo_urls: list[str]) -> ProgressUpdate:
    """Post news to the campaign page; the givers who opted in hear of it (``signals``)."""
    campaign = _campaign_for_team(campaign_id=campaign_id, user=user)
    if not text.strip():
        message = _("Please write the update.")
        raise FieldValidationError(message, code="required", field_errors={"text": message})
    if len(photo_urls) > PHOTOS_MAX:
        message = _("At most 6 photos.")
        raise FieldValidationError(message, code="too_many", field_errors={"photo_urls": message})
    if any(STORED_PICTURE.match(url) is None for url in photo_urls):
        # Only pictures uploaded here (POST /api/media): no other site's image on the campaign page.
        message = _("Please upload the photos here.")
        raise FieldValidationError(message, code="invalid_photo", field_errors={"photo_urls": message})
    with transaction.atomic():
        update = ProgressUpdate.objects.create(
            campaign=campaign, text=text.strip(), photo_urls=photo_urls, posted_by=user
        )
        audit_record(
            actor=user, action=AuditAction.PROGRESS_UPDATE_POSTED, target=update, after={"text": update.text[:200]}
        )
        campaign_changed(campaign_id=campaign.pk)
        transaction.on_commit(lambda: signals.progress_update_posted.send(sender=ProgressUpdate, update=update))
    return update
