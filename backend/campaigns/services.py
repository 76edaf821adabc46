"""Writes to campaigns: editing, likes and status changes.

Creating campaigns belongs to the wizards (``campaigns.wizard``). The money counters of a campaign
(``pledged_total``, ``raised_total``, ``donor_count``) are changed only by the pledges and
donations services; nothing here saves them, so an edit never overwrites a concurrent payment.
"""

from collections.abc import Callable
from datetime import date
from functools import partial

from django.db import transaction
from django.db.models import F
from django.forms.models import model_to_dict
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from campaigns import signals, validators
from campaigns.caching import campaign_changed
from campaigns.models import (
    Campaign,
    CampaignCollectionAccount,
    CampaignLike,
    CampaignStatus,
    CampaignType,
    Draft,
    MediaType,
    WizardFeedback,
)
from collection_accounts.models import CollectionAccount
from collection_accounts.selectors import collection_accounts_of
from collection_accounts.services import account_name
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError, ServiceError
from organizations.approvals import change_kind, register_change_kind
from organizations.models import ChangeRequest, ChangeRequestStatus
from organizations.roles import Permission, role_allows
from organizations.services import change_request_submit


def media_type_for(*, image_url: str, youtube_id: str) -> str:
    """What a cover shows: the YouTube video when there is one, else the image or video at ``image_url``."""
    if youtube_id:
        return MediaType.YOUTUBE
    return MediaType.VIDEO if validators.is_video_url(image_url) else MediaType.IMAGE


@transaction.atomic
def campaign_update(
    *,
    campaign: Campaign,
    user: User,
    title: str | None = None,
    description: str | None = None,
    goal: int | None = None,
    category: str | None = None,
    story: str | None = None,
    image_url: str | None = None,
    youtube_url: str | None = None,
    largest_pledge: int | None = None,
    unsigned_pledges_count_after_payment: bool | None = None,
    instalments_past_end: bool | None = None,
    end_date: date | None = None,
    may_be_featured: bool | None = None,
) -> Campaign:
    """Edit a campaign's texts, goal, category, cover, pledge rules, end date and its owners' consent
    to be featured among the success stories; ``None`` leaves a field as it is.

    Only the organization's owners and admins may edit (else PermissionDeniedError, 403). Title, description,
    goal, category and story are required (spec section 5, 'Edit campaign form'); the goal is whole
    KES of at least 1. A blank image URL or YouTube link removes it; the cover shows the YouTube
    video when there is one. The end date moves either way but never into the past (an ended
    campaign extended reopens), and not once the campaign is closed; the move is audited and the
    reminders tied to it re-planned (``signals.campaign_end_date_changed``). The id, status,
    organizer and money counters never change here.
    """
    if not campaign.can_be_edited_by(user):
        raise PermissionDeniedError(
            _("Only the campaign's owners, or an admin, can edit this campaign."), code="not_organizer"
        )
    errors: dict[str, str] = {}
    changes: dict[str, object] = {}

    def check(field: str, value: str | None, rule: Callable[[str], str | None]) -> None:
        if value is None:
            return
        changes[field] = value = value.strip()
        if message := rule(value):
            errors[field] = message

    check("title", title, validators.check_title)
    check("description", description, validators.check_description)
    check("story", story, validators.check_story)
    if goal is not None:
        changes["goal"] = goal
        if message := validators.check_goal(goal):
            errors["goal"] = message
    if category is not None:
        changes["category"] = category
        if message := validators.check_category(category):
            errors["category"] = message
    if image_url is not None:
        changes["image_url"] = image_url.strip()
        if message := validators.check_media_url(image_url):
            errors["image_url"] = message
    if youtube_url is not None:
        changes["youtube_id"] = validators.youtube_id_from_url(youtube_url) or ""
        if message := validators.check_youtube_url(youtube_url):
            errors["youtube_url"] = message

    if largest_pledge is not None:
        changes["pledge_ceiling"] = largest_pledge
        if message := validators.check_largest_pledge(largest_pledge):
            errors["largest_pledge"] = message
    if unsigned_pledges_count_after_payment is not None:
        changes["unsigned_pledges_count_after_payment"] = unsigned_pledges_count_after_payment
    if instalments_past_end is not None:
        changes["instalments_past_end"] = instalments_past_end
    if may_be_featured is not None:
        changes["may_be_featured"] = may_be_featured
    previous_end_date = campaign.end_date
    if end_date is not None and end_date != previous_end_date:
        changes["end_date"] = end_date
        if campaign.status == CampaignStatus.CLOSED:
            errors["end_date"] = _("A closed campaign's end date cannot change.")
        elif message := validators.check_end_date(end_date):
            errors["end_date"] = message

    if errors:
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)

    before = {field: getattr(campaign, field) for field in changes}
    for field, value in changes.items():
        setattr(campaign, field, value)
    campaign.media_type = media_type_for(image_url=campaign.image_url, youtube_id=campaign.youtube_id)
    campaign.save(update_fields=[*changes, "media_type", "updated_at"])
    if "end_date" in changes:
        _end_date_moved(campaign=campaign, user=user, previous=previous_end_date)
        del before["end_date"]  # audited on its own, whoever moved it
    if user.is_admin and not role_allows(campaign.role_of(user), Permission.EDIT_CAMPAIGNS):
        campaign_audit_admin_edit(campaign=campaign, admin=user, before=before)
    return campaign


def _end_date_moved(*, campaign: Campaign, user: User, previous: date) -> None:
    audit_record(
        actor=user,
        action=AuditAction.CAMPAIGN_END_DATE_CHANGED,
        target=campaign,
        before={"end_date": previous},
        after={"end_date": campaign.end_date},
    )
    transaction.on_commit(
        partial(
            signals.campaign_end_date_changed.send,
            sender=Campaign,
            campaign=campaign,
            previous_end_date=previous,
        )
    )


def campaign_audit_admin_edit(*, campaign: Campaign, admin: User, before: dict[str, object]) -> None:
    """Log the fields an admin changed on someone else's campaign (``before``: their old values)."""
    after = model_to_dict(campaign, fields=list(before))
    changed = [field for field in before if after[field] != before[field]]
    if changed:
        audit_record(
            actor=admin,
            action=AuditAction.CAMPAIGN_EDITED,
            target=campaign,
            before={field: before[field] for field in changed},
            after={field: after[field] for field in changed},
        )


def campaign_like(*, campaign: Campaign, user: User) -> None:
    """Like a campaign; liking it again changes nothing."""
    CampaignLike.objects.get_or_create(campaign=campaign, user=user)


def campaign_unlike(*, campaign: Campaign, user: User) -> None:
    """Take a like back; without a like this changes nothing."""
    CampaignLike.objects.filter(campaign=campaign, user=user).delete()


@transaction.atomic
def campaign_status_change(*, campaign: Campaign, status: str, changed_by: User | None, reason: str = "") -> Campaign:
    """Set a campaign's status. ``changed_by`` must be an admin; ``None`` means the system itself.

    Any status may follow any other (an admin may also reopen a campaign). Suspending one, with the
    ``reason`` its organizer is shown, and lifting a suspension are for an admin alone: the system
    (an activation payment, say) never moves a campaign into or out of ``SUSPENDED``.
    """
    if changed_by is not None and not changed_by.is_admin:
        raise PermissionDeniedError(_("Only admins can change a campaign's status."), code="not_admin")
    if status not in CampaignStatus.values:
        raise FieldValidationError(
            _("Please correct the errors below"), field_errors={"status": _("Please choose a valid status")}
        )
    if CampaignStatus.SUSPENDED in (status, campaign.status) and changed_by is None:
        raise PermissionDeniedError(_("Only an admin can suspend a campaign or lift its suspension."), code="suspended")
    reason = reason.strip()
    if status == CampaignStatus.SUSPENDED and not reason:
        raise FieldValidationError(
            _("Please correct the errors below"),
            field_errors={"reason": _("Please say why the campaign is suspended: its organizer sees it.")},
        )
    return _status_set(campaign=campaign, status=status, actor=changed_by, reason=reason)


def _status_set(*, campaign: Campaign, status: str, actor: User | None, reason: str = "") -> Campaign:
    previous, previous_reason = campaign.status, campaign.suspension_reason
    campaign.status = status
    campaign.suspension_reason = reason if status == CampaignStatus.SUSPENDED else ""
    campaign.save(update_fields=["status", "suspension_reason", "updated_at"])
    before, after = {"status": previous}, {"status": status}
    if CampaignStatus.SUSPENDED in (previous, status):
        before["suspension_reason"], after["suspension_reason"] = previous_reason, campaign.suspension_reason
    if after != before:
        audit_record(
            actor=actor, action=AuditAction.CAMPAIGN_STATUS_CHANGED, target=campaign, before=before, after=after
        )
    return campaign


def campaign_activate(*, campaign: Campaign, activated_by: User | None = None) -> Campaign:
    """Make a campaign public. Called by the Django admin action and, with ``activated_by=None``,
    by the payments app once the organizer's activation payment is confirmed."""
    return campaign_status_change(campaign=campaign, status=CampaignStatus.ACTIVE, changed_by=activated_by)


@transaction.atomic
def campaign_close_early(*, campaign: Campaign, user: User) -> Campaign:
    """Its owners (or an admin) close an active campaign before its end date, for good: its page
    stays, with its totals, for those paying their pledges; it takes no new pledges or donations
    and leaves Explore. Audited as a status change."""
    if not campaign.can_be_edited_by(user):
        raise PermissionDeniedError(
            _("Only the campaign's owners, or an admin, can close this campaign."), code="not_organizer"
        )
    if campaign.status != CampaignStatus.ACTIVE:
        raise ServiceError(_("Only an active campaign can be closed."), code="campaign_not_active")
    return _status_set(campaign=campaign, status=CampaignStatus.CLOSED, actor=user)


def campaign_close(*, campaign: Campaign, closed_by: User | None = None) -> Campaign:
    """End a campaign: it leaves the public lists and can no longer be shared or pledged to; its
    page stays for its pledgers.

    By an admin, by the system (``None``), or by its own organizer when they delete their account
    (audited as theirs)."""
    if closed_by is not None and closed_by.pk == campaign.organizer_id:
        return _status_set(campaign=campaign, status=CampaignStatus.CLOSED, actor=closed_by)
    return campaign_status_change(campaign=campaign, status=CampaignStatus.CLOSED, changed_by=closed_by)


def campaigns_personal_data_erase(*, user: User) -> None:
    """An account deletion (``privacy``): the user's campaigns close, audited as theirs, and keep
    their pledges; their drafts, likes and wizard feedback are deleted."""
    for campaign in Campaign.objects.filter(organizer=user).exclude(status=CampaignStatus.CLOSED):
        campaign_close(campaign=campaign, closed_by=user)
    for model in (Draft, CampaignLike, WizardFeedback):
        model.objects.filter(user=user).delete()


# Switching a campaign to other accounts of its organization: under the two-person rule --------

CAMPAIGN_ACCOUNTS_CHANGE = "campaign.accounts_change"

CampaignAccountsChange = Campaign | ChangeRequest


def _account_ids_checked(*, campaign: Campaign, account_ids: list[int]) -> list[int]:
    """1 to 3 of the campaign's organization's accounts, each once (the wizard's payment-step rules)."""
    message = None
    if not account_ids:
        message = _("Please provide at least one valid payment method to continue.")
    elif len(account_ids) > validators.MAX_COLLECTION_ACCOUNTS:
        message = _("You can add at most 3 payment methods.")
    elif len(set(account_ids)) != len(account_ids):
        message = _("Each payment method can be used only once.")
    elif collection_accounts_of(organization=campaign.organization_id).filter(pk__in=account_ids).count() != len(
        account_ids
    ):
        message = _("Please choose one of the organization's accounts.")
    if message:
        raise FieldValidationError(_("Please correct the errors below"), field_errors={"account_ids": message})
    return account_ids


def _linked_account_ids(campaign: Campaign) -> list[int]:
    return list(campaign.account_links.order_by("position").values_list("account_id", flat=True))


@transaction.atomic
def campaign_accounts_change(*, campaign: Campaign, user: User, account_ids: list[int]) -> CampaignAccountsChange:
    """Ask to make ``account_ids``, in order, the accounts the campaign's givers pay into (its
    organization's owners and treasurers), under the two-person rule: answers the pending
    ``ChangeRequest``, or the campaign. A legacy fundraiser's bank details stay as set up."""
    if not role_allows(campaign.role_of(user), Permission.MANAGE_PAYMENT_DETAILS):
        raise PermissionDeniedError(
            _("Only the organization's owners and treasurers can change where its money is paid."),
            code="not_owner_or_treasurer",
        )
    if campaign.type == CampaignType.FUNDRAISING:
        raise ServiceError(_("Bank details cannot be changed after setup."), code="legacy_bank_details")
    account_ids = _account_ids_checked(campaign=campaign, account_ids=account_ids)
    was = _linked_account_ids(campaign)
    if account_ids == was:
        return campaign
    kind = CAMPAIGN_ACCOUNTS_CHANGE
    payload: dict[str, object] = {
        "campaign_id": campaign.pk,
        "title": campaign.title,
        "was": was,
        "account_ids": account_ids,
    }
    request = change_request_submit(
        user=user,
        organization=campaign.organization,
        kind=kind,
        payload=payload,
        summary=change_kind(kind).describe(ChangeRequest(kind=kind, payload=payload)),
    )
    return request if request.status == ChangeRequestStatus.PENDING else campaign


def _campaign_accounts_apply(request: ChangeRequest) -> None:
    payload = request.payload
    campaign = Campaign.objects.select_for_update().filter(pk=payload["campaign_id"]).first()
    if campaign is None or campaign.organization_id != request.organization.pk:
        raise NotFoundError(_("Campaign not found."), code="not_found")
    if _linked_account_ids(campaign) != payload["was"]:
        raise ServiceError(
            _("The campaign's accounts were changed since the request was made: please ask again."),
            code="campaign_accounts_changed",
        )
    account_ids = _account_ids_checked(campaign=campaign, account_ids=list(payload["account_ids"]))
    CampaignCollectionAccount.objects.filter(campaign=campaign).delete()
    CampaignCollectionAccount.objects.bulk_create(
        CampaignCollectionAccount(campaign=campaign, account_id=account_id, position=position)
        for position, account_id in enumerate(account_ids)
    )
    audit_record(
        actor=request.decided_by,
        action=AuditAction.COLLECTION_ACCOUNT_CHANGED,
        target=campaign,
        before={"campaign_accounts": payload["was"]},
        after={"campaign_accounts": account_ids},
    )
    campaign_changed(campaign_id=campaign.pk)


def _campaign_accounts_describe(request: ChangeRequest) -> str:
    payload = request.payload
    names = {
        account.pk: account_name(kind=account.kind, details=model_to_dict(account))
        for account in CollectionAccount.objects.filter(pk__in=payload["account_ids"])
    }
    accounts = ", ".join(names.get(int(account_id), _("a removed account")) for account_id in payload["account_ids"])
    return _("Take the payments of the campaign '%(title)s' into %(accounts)s.") % {
        "title": payload["title"],
        "accounts": accounts,
    }


def register_campaign_change_kinds() -> None:
    """Called by ``CampaignsConfig.ready``."""
    register_change_kind(CAMPAIGN_ACCOUNTS_CHANGE, apply=_campaign_accounts_apply, describe=_campaign_accounts_describe)


def campaign_counters_move(
    *, campaign_id: int, pledged: int, pledged_signed_in_or_paid: int, raised: int, donors: int
) -> None:
    """Move a campaign's counters by these amounts (pledges counts them: its pledges and donations),
    inside the caller's transaction. One ``F()`` UPDATE, which takes the campaign row's lock itself:
    concurrent changes queue, none is lost."""
    Campaign.objects.filter(pk=campaign_id).update(
        pledged_total=F("pledged_total") + pledged,
        pledged_signed_in_or_paid_total=F("pledged_signed_in_or_paid_total") + pledged_signed_in_or_paid,
        raised_total=F("raised_total") + raised,
        donor_count=F("donor_count") + donors,
    )
