"""A pledger paying their pledge: finding it by code, an STK Push, confirming a payment made elsewhere."""

import re
from datetime import date

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from common import ratelimit
from common.errors import FieldValidationError, NotFoundError, ServiceError
from organizations.roles import Permission
from payments.models import Payment
from payments.services import (
    payment_record_manual,
    payment_stk_push_limit_enforce,
)
from pledges import codes
from pledges.models import (
    Pledge,
)
from pledges.selectors import (
    pledge_managed_get,
)
from pledges.services.core import PromptChannel, _clean, _mpesa_prompt_channel


def pledge_get_by_code(*, code: str, client_ip: str) -> Pledge:
    """The pledge whose code this is (any case, spaces ignored), for its pledger; 404 otherwise.

    The code is the pledger's capability: lookups are limited per client address
    (``RATE_LIMIT_PLEDGE_LOOKUP``) so codes cannot be guessed by trying them all.
    """
    ratelimit.enforce(scope="pledge-lookup", identifiers=[client_ip], limit=settings.RATE_LIMIT_PLEDGE_LOOKUP)
    pledge = Pledge.objects.select_related("campaign").filter(code=codes.normalize(code)).first()
    if pledge is None:
        raise NotFoundError(_("Pledge not found."), code="not_found")
    return pledge


def pledge_stk_push_start(
    *,
    code: str,
    phone: str,
    amount: int | None,
    idempotency_key: str,
    viewer: User | None,
    client_ip: str,
) -> Payment:
    """Send an M-Pesa PIN prompt for the pledge with this code: the amount due (``Pledge.amount_due``),
    or any other ``amount`` up to what is left; to the pledge's phone unless ``phone`` is given. The prompt shows the
    code as the account, and the payment is matched to the pledge when it succeeds.

    At most ``RATE_LIMIT_PLEDGE_STK_PUSH`` prompts per pledge and per phone, so nobody can
    flood a phone with prompts, within the limits of every prompt (``payment_stk_push_limit_enforce``).
    """
    pledge, phone = _pledge_for_prompt(code=code, phone=phone, client_ip=client_ip)
    return _pledge_prompt(pledge, phone, amount=amount, idempotency_key=idempotency_key, viewer=viewer)


def _pledge_for_prompt(*, code: str, phone: str, client_ip: str) -> tuple[Pledge, str]:
    """The pledge of ``code`` and the phone to prompt (``phone``, else the pledge's), once the limits on
    prompts allow one more: per pledge and per phone, whichever network prompts it."""
    pledge = pledge_get_by_code(code=code, client_ip=client_ip)
    phone = _clean(phone) or pledge.phone
    # The last nine digits name a Kenyan number however it is written.
    phone_digits = re.sub(r"\D", "", phone)[-9:]
    ratelimit.enforce(
        scope="pledge-stk-push", identifiers=[pledge.code, phone_digits], limit=settings.RATE_LIMIT_PLEDGE_STK_PUSH
    )
    payment_stk_push_limit_enforce(phone=phone, client_ip=client_ip)
    return pledge, phone


def _pledge_of_phone(*, pledge_id: int, phone: str) -> Pledge:
    """A live or cancelled pledge naming the number the mobile network gave: its owner's to pay."""
    pledge = (
        Pledge.objects.select_related("campaign")
        .filter(pk=pledge_id, phone=validators.normalize_kenyan_phone(phone))
        .first()
    )
    if pledge is None:
        raise NotFoundError(_("Pledge not found."), code="not_found")
    return pledge


def pledge_stk_push_by_phone(*, pledge_id: int, phone: str, amount: int, idempotency_key: str) -> Payment:
    """Send the PIN prompt for ``amount`` of a pledge of the number the mobile network gave
    (the USSD menu's 'Pay a pledge'), to that number. Any live pledge naming the number is its
    owner's to pay; the USSD app limits the prompts per number."""
    pledge = _pledge_of_phone(pledge_id=pledge_id, phone=phone)
    return _pledge_prompt(pledge, phone, amount=amount, idempotency_key=idempotency_key, viewer=None)


def _pledge_prompt(
    pledge: Pledge,
    phone: str,
    *,
    amount: int | None,
    idempotency_key: str,
    viewer: User | None,
    channel: PromptChannel = _mpesa_prompt_channel,
) -> Payment:
    """Prompt ``phone`` for ``amount`` of a live pledge (default: the amount due), up to what is left,
    with the pledge code as the account reference. ``channel`` gives the prompt and the campaign's
    account it goes to: M-Pesa's PIN prompt, or Airtel Money's push (``pledges.airtel``), which
    refuses first when the campaign has no account for it."""
    account, start = channel(pledge.campaign)
    if not pledge.is_live:
        raise ServiceError(_("This pledge was cancelled by the organizer."), code="pledge_cancelled")
    remaining = pledge.remaining_amount
    if remaining == 0:
        raise ServiceError(_("This pledge is already fully paid. Thank you!"), code="pledge_paid")
    amount = pledge.amount_due() if amount is None else amount
    if not 1 <= amount <= remaining:
        raise FieldValidationError(
            _("Please correct the errors below"),
            field_errors={
                "amount": _("Please enter an amount from Ksh 1 to Ksh %(remaining)s.") % {"remaining": f"{remaining:,}"}
            },
        )
    return start(
        purpose=Payment.Purpose.PLEDGE_PAYMENT,
        amount=amount,
        phone=phone,
        user=viewer,
        campaign=pledge.campaign,
        payer_email=pledge.email,
        idempotency_key=idempotency_key,
        account_reference=pledge.code,
        collection_account=account,
    )


def _ensure_live(pledge: Pledge) -> None:
    if not pledge.is_live:
        raise ServiceError(_("This pledge is cancelled. Restore it first."), code="pledge_cancelled")


def pledge_confirm(
    *,
    pledge_id: int,
    user: User,
    method: str = Payment.Provider.BANK,
    received_on: date | None = None,
    reference: str = "",
) -> Pledge:
    """'Confirm payment': the rest of the pledge's amount was paid outside our paybill. It is
    entered in the ledger as a payment by ``method`` (cash, bank, or M-Pesa to the organization's
    own number with its receipt code as ``reference``) received on ``received_on`` (default today),
    recorded by ``user``, so paid always adds up to the payments. Only the campaign's organizer or
    an admin may; confirming a fully paid pledge changes nothing.
    """
    with transaction.atomic():
        pledge = pledge_managed_get(
            pledge_id=pledge_id,
            user=user,
            permission=Permission.MANAGE_PLEDGES,
            denied=_("Only the campaign's owners and treasurers, or an admin, can confirm payments."),
            for_update=True,
        )
        _ensure_live(pledge)
        if pledge.remaining_amount == 0:
            return pledge
        payment_record_manual(
            recorded_by=user,
            provider=method,
            purpose=Payment.Purpose.PLEDGE_PAYMENT,
            amount=pledge.remaining_amount,
            campaign=pledge.campaign,
            payer_phone=pledge.phone,
            payer_email=pledge.email,
            note=_("Confirmed by the organizer"),
            reference=reference,
            received_on=received_on,
            account_reference=pledge.code,
        )
        pledge.refresh_from_db()
    return pledge
