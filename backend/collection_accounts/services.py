"""Adding, changing and removing an organization's collection accounts (owners and treasurers)."""

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from collection_accounts.models import DETAIL_FIELDS, AccountKeyword, CollectionAccount, CollectionAccountKind
from collection_accounts.selectors import account_keywords_of, collection_account_matching
from collection_accounts.validators import (
    account_details_clean,
    account_details_errors,
    keyword_normalize,
    keywords_errors,
)
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError, ServiceError
from organizations.approvals import change_kind, register_change_kind
from organizations.models import ChangeRequest, ChangeRequestStatus, Membership, Organization
from organizations.roles import Permission
from organizations.selectors import guarded_member_count, membership_of
from organizations.services import change_request_submit

AUDITED_FIELDS = ("kind", "label", *DETAIL_FIELDS, "is_default")


def _manager_membership(*, user: User, organization_id: int) -> Membership:
    """``user``'s membership if they may change payment details: 404 for outsiders, 403 for members
    who may not."""
    membership = membership_of(user=user, organization_id=organization_id)
    if not membership.allows(Permission.MANAGE_PAYMENT_DETAILS):
        raise PermissionDeniedError(
            _("Only the organization's owners and treasurers can change where its money is paid."),
            code="not_owner_or_treasurer",
        )
    return membership


def _account_get(*, organization: Organization, account_id: int) -> CollectionAccount:
    account = (
        CollectionAccount.objects.select_for_update().filter(organization=organization, pk=account_id).first()
        if 1 <= account_id < 2**63
        else None
    )
    if account is None:
        raise NotFoundError(_("Account not found."), code="not_found")
    return account


def _snapshot(account: CollectionAccount) -> dict[str, Any]:
    return {"id": account.pk, **{field: getattr(account, field) for field in AUDITED_FIELDS}}


def collection_account_details_check(
    *, kind: str, details: dict[str, str | None], exclude_id: int | None = None
) -> tuple[dict[str, str], dict[str, str]]:
    """The cleaned details of an account of ``kind`` and the message for each problem (none: valid),
    including a paybill or till another account (not ``exclude_id``) already has."""
    cleaned = account_details_clean(kind=kind, details=details)
    errors = account_details_errors(kind=kind, details=cleaned)
    taken = CollectionAccount.objects.all() if exclude_id is None else CollectionAccount.objects.exclude(pk=exclude_id)
    unique_numbers = {
        CollectionAccountKind.PAYBILL: ("paybill_number", _("This paybill is already registered on Harambee.")),
        CollectionAccountKind.TILL: ("till_number", _("This till is already registered on Harambee.")),
        CollectionAccountKind.AIRTEL_MONEY: (
            "merchant_msisdn",
            _("This Airtel Money merchant number is already registered on Harambee."),
        ),
    }
    if kind in unique_numbers:
        field, message = unique_numbers[CollectionAccountKind(kind)]
        if field not in errors and taken.filter(kind=kind, **{field: cleaned[field]}).exists():
            errors[field] = message
    return cleaned, errors


def _checked(*, kind: str, details: dict[str, str | None], exclude_id: int | None) -> dict[str, str]:
    """``collection_account_details_check``, raising FieldValidationError with every problem at once."""
    cleaned, errors = collection_account_details_check(kind=kind, details=details, exclude_id=exclude_id)
    if errors:
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    return cleaned


def _default_set(account: CollectionAccount) -> None:
    """Make ``account`` its organization's only default."""
    CollectionAccount.objects.filter(organization_id=account.organization_id, is_default=True).exclude(
        pk=account.pk
    ).update(is_default=False)
    account.is_default = True


def _save(account: CollectionAccount) -> None:
    try:
        with transaction.atomic():
            account.save()
    except IntegrityError:
        # The same paybill or till added at the same moment by someone else.
        raise FieldValidationError(
            _("Please correct the errors below"),
            field_errors={"kind": _("This account is already registered on Harambee.")},
        ) from None


# The two-person rule guards every change of where the money is paid (registered in
# ``CollectionAccountsConfig.ready``): with two or more owners and treasurers, another of them
# approves it; the change is made, and audited, when it applies.
ACCOUNT_ADD = "collection_account.add"
ACCOUNT_CHANGE = "collection_account.change"
ACCOUNT_REMOVE = "collection_account.remove"

AccountChange = CollectionAccount | ChangeRequest


def account_name(*, kind: str, details: dict[str, Any]) -> str:
    """An account in a few words, for a request's description: 'M-Pesa paybill 600100 (Building fund)'."""
    account = CollectionAccount(kind=kind, **{field: details.get(field, "") for field in ("label", *DETAIL_FIELDS)})
    name = f"{account.get_kind_display()} {account.number}"
    return f"{name} ({account.label})" if account.label else name


def _details_of(account: CollectionAccount) -> dict[str, str]:
    return {field: getattr(account, field) for field in ("label", *DETAIL_FIELDS)}


def _submit(*, user: User, organization: Organization, kind: str, payload: dict[str, Any]) -> ChangeRequest:
    summary = change_kind(kind).describe(ChangeRequest(kind=kind, payload=payload))
    return change_request_submit(user=user, organization=organization, kind=kind, payload=payload, summary=summary)


def collection_account_needs_approval(*, organization_id: int) -> bool:
    """Whether a new account of the organization waits for a second owner's or treasurer's approval."""
    return guarded_member_count(organization=Organization(pk=organization_id)) >= 2


@transaction.atomic
def collection_account_create(
    *, user: User, organization_id: int, kind: str, is_default: bool = False, **details: str | None
) -> AccountChange:
    """Ask to add an account to the organization (owners, treasurers), under the two-person rule:
    answers the pending ``ChangeRequest``, or the account when it applied at once. Its first account
    is its default."""
    organization = _manager_membership(user=user, organization_id=organization_id).organization
    cleaned = _checked(kind=kind, details=details, exclude_id=None)
    request = _submit(
        user=user,
        organization=organization,
        kind=ACCOUNT_ADD,
        payload={"kind": kind, "details": cleaned, "is_default": is_default},
    )
    if request.status == ChangeRequestStatus.PENDING:
        return request
    return CollectionAccount.objects.filter(organization=organization).latest("pk")


# A church's paybill takes its tithes and offerings too, under these account numbers. They start as
# its keywords with its first account: such payments are then kept as the church's own money, not for
# any campaign ("Not for Harambee"), instead of waiting among the unmatched from the first Sunday on.
# The treasurer may change the list; an organization that already has keywords keeps its own.
FIRST_ACCOUNT_KEYWORDS = ("TITHE", "OFFERING", "SADAKA")


def _account_add_apply(request: ChangeRequest) -> None:
    payload = request.payload
    kind = str(payload["kind"])
    account = CollectionAccount(
        organization=request.organization,
        kind=kind,
        # Checked again: another organization may have registered the paybill or till meanwhile.
        **_checked(kind=kind, details=payload["details"], exclude_id=None),
    )
    first = not CollectionAccount.objects.filter(organization=request.organization).exists()
    if payload["is_default"] or first:
        _default_set(account)
    _save(account)
    if first and not AccountKeyword.objects.filter(organization=request.organization).exists():
        AccountKeyword.objects.bulk_create(
            [AccountKeyword(organization=request.organization, keyword=keyword) for keyword in FIRST_ACCOUNT_KEYWORDS]
        )
    audit_record(
        actor=request.decided_by,
        action=AuditAction.COLLECTION_ACCOUNT_CHANGED,
        target=request.organization,
        after=_snapshot(account),
    )


def _account_add_describe(request: ChangeRequest) -> str:
    name = account_name(kind=str(request.payload["kind"]), details=request.payload["details"])
    if request.payload["is_default"]:
        return _("Add %(account)s as the default collection account.") % {"account": name}
    return _("Add %(account)s as a collection account.") % {"account": name}


def collection_account_find_or_create(
    *, user: User, organization_id: int, kind: str, **details: str | None
) -> AccountChange:
    """The organization's account of ``kind`` with exactly these details, else a new one asked for
    (``collection_account_create``): a wizard launched twice, or the same bank details given again,
    make one account."""
    cleaned = account_details_clean(kind=kind, details=details)
    existing = collection_account_matching(organization_id=organization_id, kind=kind, details=cleaned)
    return existing or collection_account_create(
        user=user, organization_id=organization_id, kind=kind, is_default=False, **cleaned
    )


@transaction.atomic
def collection_account_update(
    *, user: User, organization_id: int, account_id: int, is_default: bool | None = None, **details: str | None
) -> AccountChange:
    """Ask to change an account's details (its kind stays) or make it the default, under the
    two-person rule; ``None`` leaves a field as it is. Answers the pending ``ChangeRequest``, or the
    account (as it is now: unchanged when nothing differs)."""
    organization = _manager_membership(user=user, organization_id=organization_id).organization
    account = _account_get(organization=organization, account_id=account_id)
    merged: dict[str, str | None] = {**_details_of(account)}
    merged.update({field: value for field, value in details.items() if value is not None})
    cleaned = _checked(kind=account.kind, details=merged, exclude_id=account.pk)
    make_default = bool(is_default) and not account.is_default
    if cleaned == _details_of(account) and not make_default:
        return account
    request = _submit(
        user=user,
        organization=organization,
        kind=ACCOUNT_CHANGE,
        payload={
            "account_id": account.pk,
            "kind": account.kind,
            "was": _details_of(account),
            "details": cleaned,
            "is_default": make_default,
        },
    )
    if request.status == ChangeRequestStatus.PENDING:
        return request
    account.refresh_from_db()
    return account


def _requested_account(request: ChangeRequest) -> CollectionAccount:
    """The account a change or removal was asked for, as it was then; refused if it changed since."""
    account = _account_get(organization=request.organization, account_id=int(request.payload["account_id"]))
    if _details_of(account) != request.payload["was"]:
        raise ServiceError(
            _("This account was changed since the request was made: please ask again."), code="account_changed"
        )
    return account


def _account_change_apply(request: ChangeRequest) -> None:
    """A paybill or till whose number changes is no longer connected to M-Pesa; a bank account whose
    number or bank changes takes no card payments until they are set up again."""
    account = _requested_account(request)
    before = _snapshot(account)
    cleaned = _checked(kind=account.kind, details=request.payload["details"], exclude_id=account.pk)
    if account.mpesa_shortcode and any(
        cleaned[field] != getattr(account, field) for field in ("paybill_number", "till_number", "store_number")
    ):
        account.mpesa_connected_at = None
    if account.card_subaccount_code and any(
        cleaned[field] != getattr(account, field) for field in ("account_number", "bank_name")
    ):
        # The subaccount settles to the old bank account: card payments stop until set up again.
        account.card_subaccount_code = account.card_settlement_bank = ""
    for field, value in cleaned.items():
        setattr(account, field, value)
    if request.payload["is_default"]:
        _default_set(account)
    _save(account)
    audit_record(
        actor=request.decided_by,
        action=AuditAction.COLLECTION_ACCOUNT_CHANGED,
        target=request.organization,
        before=before,
        after=_snapshot(account),
    )


def _account_change_describe(request: ChangeRequest) -> str:
    payload = request.payload
    was = account_name(kind=str(payload["kind"]), details=payload["was"])
    now = account_name(kind=str(payload["kind"]), details=payload["details"])
    if was == now:
        return _("Make %(account)s the default collection account.") % {"account": was}
    if payload["is_default"]:
        return _("Change the collection account %(was)s to %(now)s and make it the default.") % {
            "was": was,
            "now": now,
        }
    return _("Change the collection account %(was)s to %(now)s.") % {"was": was, "now": now}


def _account_in_use_error() -> ServiceError:
    return ServiceError(
        _("Campaigns take payments into this account: choose other accounts for them first."),
        code="account_in_use",
    )


@transaction.atomic
def collection_account_remove(*, user: User, organization_id: int, account_id: int) -> ChangeRequest | None:
    """Ask to remove an account, under the two-person rule: answers the pending ``ChangeRequest``,
    or None once removed. An account campaigns use is refused at once."""
    organization = _manager_membership(user=user, organization_id=organization_id).organization
    account = _account_get(organization=organization, account_id=account_id)
    if account.campaign_links.exists():
        raise _account_in_use_error()
    request = _submit(
        user=user,
        organization=organization,
        kind=ACCOUNT_REMOVE,
        payload={"account_id": account.pk, "kind": account.kind, "was": _details_of(account)},
    )
    return request if request.status == ChangeRequestStatus.PENDING else None


def _account_remove_apply(request: ChangeRequest) -> None:
    """When the default goes, the oldest remaining account becomes the default."""
    account = _requested_account(request)
    before = _snapshot(account)
    try:
        with transaction.atomic():
            account.delete()
    except ProtectedError:
        raise _account_in_use_error() from None
    if account.is_default:
        successor = (
            CollectionAccount.objects.filter(organization=request.organization).order_by("created_at", "id").first()
        )
        if successor is not None:
            successor.is_default = True
            successor.save(update_fields=["is_default", "updated_at"])
    audit_record(
        actor=request.decided_by,
        action=AuditAction.COLLECTION_ACCOUNT_CHANGED,
        target=request.organization,
        before=before,
    )


def _account_remove_describe(request: ChangeRequest) -> str:
    name = account_name(kind=str(request.payload["kind"]), details=request.payload["was"])
    return _("Remove the collection account %(account)s.") % {"account": name}


def register_collection_account_change_kinds() -> None:
    """Called by ``CollectionAccountsConfig.ready``."""
    register_change_kind(ACCOUNT_ADD, apply=_account_add_apply, describe=_account_add_describe)
    register_change_kind(ACCOUNT_CHANGE, apply=_account_change_apply, describe=_account_change_describe)
    register_change_kind(ACCOUNT_REMOVE, apply=_account_remove_apply, describe=_account_remove_describe)


@transaction.atomic
def account_keywords_set(*, user: User, organization_id: int, keywords: list[str]) -> list[str]:
    """Replace the organization's account keywords (owners and treasurers): paybill payments with one
    of them as the account number are kept, never listed as unmatched. Audited."""
    organization = _manager_membership(user=user, organization_id=organization_id).organization
    wanted = sorted({keyword_normalize(keyword) for keyword in keywords} - {""})
    if errors := keywords_errors(wanted):
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    before = account_keywords_of(organization=organization)
    if wanted == before:
        return before
    AccountKeyword.objects.filter(organization=organization).exclude(keyword__in=wanted).delete()
    AccountKeyword.objects.bulk_create(
        [AccountKeyword(organization=organization, keyword=keyword) for keyword in wanted if keyword not in before]
    )
    audit_record(
        actor=user,
        action=AuditAction.COLLECTION_ACCOUNT_CHANGED,
        target=organization,
        before={"keywords": before},
        after={"keywords": wanted},
    )
    return wanted


def collection_account_mpesa_connected_mark(*, account_id: int, at: datetime) -> None:
    """Note when an account was first connected to M-Pesa's API (payments connects it); a later
    connection keeps the first moment. Inside the caller's transaction."""
    CollectionAccount.objects.filter(pk=account_id, mpesa_connected_at__isnull=True).update(mpesa_connected_at=at)


def collection_account_airtel_connected_mark(*, account_id: int, at: datetime) -> None:
    """Note when an account's Airtel Money credentials were last set (payments sets them). Inside the
    caller's transaction."""
    CollectionAccount.objects.filter(pk=account_id).update(airtel_connected_at=at)
