"""Adding, changing and removing an organization's collection accounts (owners and treasurers)."""

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from collection_accounts.models import DETAIL_FIELDS, AccountKeyword, CollectionAccount, CollectionAccountKind
from collection_accounts.selectors import account_keywords_of
from collection_accounts.validators import (
    account_details_clean,
    account_details_errors,
    keyword_normalize,
    keywords_errors,
)
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError, ServiceError
from organizations.models import Membership, Organization
from organizations.roles import Permission
from organizations.selectors import membership_of

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


@transaction.atomic
def collection_account_create(
    *, user: User, organization_id: int, kind: str, is_default: bool = False, **details: str | None
) -> CollectionAccount:
    """A new account of the organization (owners, treasurers). Its first account is its default. Audited."""
    organization = _manager_membership(user=user, organization_id=organization_id).organization
    cleaned = _checked(kind=kind, details=details, exclude_id=None)
    account = CollectionAccount(organization=organization, kind=kind, **cleaned)
    if is_default or not CollectionAccount.objects.filter(organization=organization).exists():
        _default_set(account)
    _save(account)
    audit_record(
        actor=user, action=AuditAction.COLLECTION_ACCOUNT_CHANGED, target=organization, after=_snapshot(account)
    )
    return account


def collection_account_find_or_create(
    *, user: User, organization_id: int, kind: str, **details: str | None
) -> CollectionAccount:
    """The organization's account of ``kind`` with exactly these details, else a new one
    (``collection_account_create``): a wizard launched twice, or the same bank details given again,
    make one account."""
    cleaned = account_details_clean(kind=kind, details=details)
    same = {field: value for field, value in cleaned.items() if field != "label"}
    existing = CollectionAccount.objects.filter(organization_id=organization_id, kind=kind, **same).first()
    return existing or collection_account_create(
        user=user, organization_id=organization_id, kind=kind, is_default=False, **cleaned
    )


@transaction.atomic
def collection_account_update(
    *, user: User, organization_id: int, account_id: int, is_default: bool | None = None, **details: str | None
) -> CollectionAccount:
    """Change an account's details (its kind stays); ``None`` leaves a field as it is. A paybill or
        till whose number changes is no longer connected to M-Pesa; a bank account whose number or bank
    changes takes no card payments until they are set up again. Audited."""
    organization = _manager_membership(user=user, organization_id=organization_id).organization
    account = _account_get(organization=organization, account_id=account_id)
    before = _snapshot(account)
    merged = {field: getattr(account, field) for field in ("label", *DETAIL_FIELDS)}
    merged.update({field: value for field, value in details.items() if value is not None})
    cleaned = _checked(kind=account.kind, details=merged, exclude_id=account.pk)
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
    if is_default:
        _default_set(account)
    _save(account)
    audit_record(
        actor=user,
        action=AuditAction.COLLECTION_ACCOUNT_CHANGED,
        target=organization,
        before=before,
        after=_snapshot(account),
    )
    return account


@transaction.atomic
def collection_account_remove(*, user: User, organization_id: int, account_id: int) -> None:
    """Remove an account; when it was the default, the oldest remaining one becomes the default. Audited."""
    organization = _manager_membership(user=user, organization_id=organization_id).organization
    account = _account_get(organization=organization, account_id=account_id)
    before = _snapshot(account)
    try:
        with transaction.atomic():
            account.delete()
    except ProtectedError:
        raise ServiceError(
            _("Campaigns take payments into this account: choose other accounts for them first."),
            code="account_in_use",
        ) from None
    if account.is_default:
        successor = CollectionAccount.objects.filter(organization=organization).order_by("created_at", "id").first()
        if successor is not None:
            successor.is_default = True
            successor.save(update_fields=["is_default", "updated_at"])
    audit_record(actor=user, action=AuditAction.COLLECTION_ACCOUNT_CHANGED, target=organization, before=before)


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
