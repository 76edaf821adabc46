"""Cards: an organization's card payments settle to its own bank account (a Paystack subaccount)."""

import re

from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from common.errors import ServiceError
from organizations.models import ChangeRequest, ChangeRequestStatus
from payments import selectors
from payments.providers import ProviderError, paystack
from payments.providers.paystack import PaystackClient
from payments.services.connections import _account_payload, _account_words, _requested_account, _submit
from payments.services.core import _invalid, _provider_unavailable, logger

# Cards: an organization's card payments settle to its own bank account -------------------------------

# Harambee keeps no share of a church's card payments (Paystack's own fee is the church's: see
# PaystackClient.initialize).
PLATFORM_CARD_SHARE_PERCENT = 0
BANK_CODE = re.compile(r"^[A-Za-z0-9]{1,32}$")


# Setting up cards and the Ratiba switch are payment details too: under the two-person rule like the
# credentials and Connect (registered in ``PaymentsConfig.ready``), checked when asked and again when
# applied. Paystack is asked before the approval's transaction, as Daraja is for Connect: a refusal
# keeps it pending.
CARD_SUBACCOUNT_SET = "cards.subaccount_set"
MPESA_RATIBA_SET = "mpesa.ratiba_set"

AccountChange = CollectionAccount | ChangeRequest


def _settlement_bank_clean(settlement_bank: str) -> str:
    bank = settlement_bank.strip()
    if not BANK_CODE.match(bank):
        raise _invalid("settlement_bank", _("Enter your bank's code as Paystack lists it (letters and digits)."))
    return bank


def card_subaccount_set(*, user: User, organization_id: int, account_id: int, settlement_bank: str) -> AccountChange:
    """Ask that card payments to the organization's campaigns settle from now on to this bank account,
    under the two-person rule: answers the pending ``ChangeRequest``, or the account once set up (a
    Paystack subaccount made for its number at the bank whose Paystack code is ``settlement_bank``,
    replacing any earlier one, named in every card checkout of its donations). Owners and
    treasurers; audited. Paystack checks the account, outside any transaction
    (``_card_subaccount_call``): a refusal says why, and changes nothing."""
    account = selectors.card_account_for_manager(user=user, organization_id=organization_id, account_id=account_id)
    request = _submit(
        user=user,
        account=account,
        kind=CARD_SUBACCOUNT_SET,
        payload={**_account_payload(account), "settlement_bank": _settlement_bank_clean(settlement_bank)},
    )
    if request.status == ChangeRequestStatus.PENDING:
        return request
    return CollectionAccount.objects.get(pk=account.pk)


def _card_bank_account(request: ChangeRequest, *, lock: bool) -> CollectionAccount:
    account = _requested_account(request, lock=lock)  # refused if its number changed since
    if account.kind != CollectionAccountKind.BANK:
        raise ServiceError(_("Card payments settle to a bank account: choose one."), code="not_bank_account")
    return account


def _card_subaccount_call(request: ChangeRequest) -> dict[str, object]:
    """Ask Paystack for a subaccount settling to the bank account, before the approval's transaction."""
    account = _card_bank_account(request, lock=False)
    bank = _settlement_bank_clean(str(request.payload["settlement_bank"]))
    try:
        subaccount = PaystackClient.from_settings().subaccount_create(
            business_name=request.organization.name,
            settlement_bank=bank,
            account_number=account.account_number,
            percentage_charge=PLATFORM_CARD_SHARE_PERCENT,
        )
    except paystack.PaystackRefused as exc:
        raise ServiceError(
            _("Paystack did not accept this bank account (%(reason)s). Check the bank code and the account number.")
            % {"reason": exc.message},
            code="card_account_refused",
        ) from exc
    except ProviderError as exc:
        logger.warning("Paystack subaccount for collection account %s failed: %s", account.pk, exc)
        raise _provider_unavailable() from exc
    return {"subaccount_code": subaccount.subaccount_code}


def _card_subaccount_apply(request: ChangeRequest) -> None:
    """Record the subaccount ``_card_subaccount_call`` made, once the account is checked again, locked."""
    account = _card_bank_account(request, lock=True)
    bank = _settlement_bank_clean(str(request.payload["settlement_bank"]))
    before = {
        "card_subaccount_code": account.card_subaccount_code,
        "card_settlement_bank": account.card_settlement_bank,
    }
    account.card_subaccount_code = str(request.payload["answer"]["subaccount_code"])
    account.card_settlement_bank = bank
    account.save(update_fields=["card_subaccount_code", "card_settlement_bank", "updated_at"])
    audit_record(
        actor=request.decided_by,
        action=AuditAction.COLLECTION_ACCOUNT_CHANGED,
        target=request.organization,
        before={"id": account.pk, **before},
        after={"id": account.pk, "card_subaccount_code": account.card_subaccount_code, "card_settlement_bank": bank},
    )


def _card_subaccount_describe(request: ChangeRequest) -> str:
    return _("Take card payments into %(account)s (bank code %(bank)s at Paystack).") % {
        "account": _account_words(request.payload),
        "bank": request.payload["settlement_bank"],
    }
