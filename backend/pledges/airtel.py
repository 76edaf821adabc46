"""Paying a pledge, or giving, from an Airtel line: the Airtel Money USSD push to the organization's
Airtel Money account (``payments.airtel``). The pledge code travels as the push's reference and the
payment is matched to the pledge by it when it succeeds, exactly as an M-Pesa PIN prompt's
account reference is (``services._pledge_payments_match``). The limits are M-Pesa's: the same
per-pledge, per-phone and per-address counters, so switching network buys no extra prompts."""

import re

from django.conf import settings
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from campaigns.selectors import campaign_airtel_account
from common import ratelimit
from common.errors import FieldValidationError, NotFoundError, ServiceError
from payments.airtel import payment_airtel_push_start
from payments.models import Payment
from payments.services import payment_stk_push_limit_enforce
from pledges.models import Pledge
from pledges.services import pledge_get_by_code


def _pledge_airtel_push(
    *, pledge: Pledge, phone: str, amount: int | None, idempotency_key: str, viewer: User | None
) -> Payment:
    account = campaign_airtel_account(campaign=pledge.campaign)
    if account is None:
        raise ServiceError(_("This campaign takes no Airtel Money payments."), code="airtel_unavailable")
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
    return payment_airtel_push_start(
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


def pledge_airtel_push_start(
    *, code: str, phone: str, amount: int | None, idempotency_key: str, viewer: User | None, client_ip: str
) -> Payment:
    """'Pay with Airtel Money': the USSD push for the amount due (or ``amount``, up to what is left) to
    ``phone`` (default: the pledge's), with the pledge code as reference."""
    pledge = pledge_get_by_code(code=code, client_ip=client_ip)
    phone = (phone or "").strip() or pledge.phone
    phone_digits = re.sub(r"\D", "", phone)[-9:]
    ratelimit.enforce(
        scope="pledge-stk-push", identifiers=[pledge.code, phone_digits], limit=settings.RATE_LIMIT_PLEDGE_STK_PUSH
    )
    payment_stk_push_limit_enforce(phone=phone, client_ip=client_ip)
    return _pledge_airtel_push(
        pledge=pledge, phone=phone, amount=amount, idempotency_key=idempotency_key, viewer=viewer
    )


def pledge_airtel_push_by_phone(*, pledge_id: int, phone: str, amount: int, idempotency_key: str) -> Payment:
    """The USSD menu's 'Pay a pledge' for a caller on Airtel: the push goes to the number the gateway gave."""
    pledge = (
        Pledge.objects.select_related("campaign")
        .filter(pk=pledge_id, phone=validators.normalize_kenyan_phone(phone))
        .first()
    )
    if pledge is None:
        raise NotFoundError(_("Pledge not found."), code="not_found")
    return _pledge_airtel_push(pledge=pledge, phone=phone, amount=amount, idempotency_key=idempotency_key, viewer=None)
