"""Donations: from the web, a phone and the desk; and erasing a user's personal data."""

from dataclasses import dataclass
from functools import partial
from typing import TypedDict

from django.db import transaction
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from campaigns.models import Campaign
from campaigns.selectors import campaign_card_account, campaign_get, campaign_stk_account
from common.errors import FieldValidationError
from common.languages import current_language
from common.money import format_ksh
from payments.models import Payment
from payments.services import (
    mpesa_receipt_normalize,
    payment_checkout_start,
    payment_instructed_intent_create,
    payment_record_at_desk,
    payment_stk_push_limit_enforce,
    payment_stk_push_start,
    payment_take_as_donation,
    payment_with_receipt_locked,
    standing_orders_phone_erase,
)
from pledges import signals
from pledges.models import (
    DELETED_USER_NAME,
    Donation,
    PledgePayment,
)
from pledges.selectors import (
    donations_made_by,
    pledges_made_by,
)
from pledges.services.core import (
    NAME_MAX_LENGTH,
    _airtel_prompt_channel,
    _clean,
    _ensure_open,
    _giving_contact_limits_enforce,
    _mpesa_prompt_channel,
    _whole_amount,
)
from pledges.services.giving import DONATION_REFUSALS, _campaign_open_for_giving, _desk_details_check
from pledges.services.matching import _donation_count

# Donations ---------------------------------------------------------------------------------


class _GiftIntent(TypedDict):
    """What every way of paying a gift is told of it (``payment_checkout_start``, a prompt's start,
    ``payment_instructed_intent_create``)."""

    purpose: str
    amount: int
    user: User | None
    campaign: Campaign
    idempotency_key: str | None


class _GiverDetails(TypedDict):
    """Who gave a gift, as ``donation_attach_payment`` takes it."""

    name: str
    email: str
    phone: str
    is_anonymous: bool


def donation_create(
    *,
    campaign_id: int,
    amount: float | None,
    name: str | None,
    email: str | None,
    phone: str | None,
    is_anonymous: bool,
    method: str,
    idempotency_key: str,
    return_path: str,
    viewer: User | None,
    client_ip: str,
    challenge_solution: str = "",
) -> Donation:
    """Start paying a donation by M-Pesa (``mpesa``), Airtel Money (``airtel``) or card checkout (``card``). M-Pesa is a PIN
    prompt to the campaign's connected paybill or till; without one, a pending payment whose
    reference the donor gives when paying as the campaign's instructions say. A card payment
    settles to the organization's bank account that takes cards; without one it is refused.

    The amount is whole shillings above 0 ('Please enter a valid donation amount'); unless
    anonymous, name and e-mail are required ('Please fill in your name and email'); M-Pesa
    needs a Kenyan phone, a card an e-mail for the receipt. The donation counts towards the
    campaign's raised total and donors only once its payment succeeds. The same
    ``idempotency_key`` again returns the same donation.
    """
    campaign = _campaign_open_for_giving(
        scope="donation",
        campaign_id=campaign_id,
        viewer=viewer,
        client_ip=client_ip,
        challenge_solution=challenge_solution,
    )
    name, email, phone = validators.normalize_name(name or ""), _clean(email), _clean(phone)
    whole = _whole_amount(amount)
    errors: dict[str, str] = {}
    details: list[str] = []
    if whole is None:
        details.append(_("Please enter a valid donation amount"))
        errors["amount"] = details[-1]
    if not is_anonymous and not (name and email):
        details.append(_("Please fill in your name and email"))
        for field, value in (("name", name), ("email", email)):
            if not value:
                errors[field] = details[-1]
    if len(name) > NAME_MAX_LENGTH:
        errors["name"] = _("Please keep the name under 150 characters.")
    if email and (message := validators.check_email(email)):
        errors["email"] = message
    elif not email and method == "card" and "email" not in errors:
        errors["email"] = _("Please enter your email address to pay by card.")
    if method == "mpesa" and not phone:
        errors["phone"] = _("Please enter your M-Pesa phone number.")
    elif method == "airtel" and not phone:
        errors["phone"] = _("Please enter your Airtel Money phone number.")
    elif phone and (message := validators.check_kenyan_phone(phone)):
        errors["phone"] = message
    if errors:
        raise FieldValidationError(details[0] if details else _("Please correct the errors below"), field_errors=errors)
    assert whole is not None
    _giving_contact_limits_enforce(scope="donation", phone=phone, email=email, viewer=viewer)

    # The provider is asked outside any transaction; its callback may even come before the
    # donation row below exists, which is why that row is counted here when it does.
    intent = _GiftIntent(
        purpose=Payment.Purpose.DONATION, amount=whole, user=viewer, campaign=campaign, idempotency_key=idempotency_key
    )
    if method == "card":
        payment = payment_checkout_start(
            **intent,
            email=email,
            return_path=return_path or f"/campaign/{campaign.pk}",
            collection_account=campaign_card_account(campaign=campaign),
        )
    else:
        channel = _airtel_prompt_channel if method == "airtel" else _mpesa_prompt_channel
        account, start = channel(campaign)
        if account is not None:
            payment_stk_push_limit_enforce(phone=phone, client_ip=client_ip)
            payment = start(**intent, phone=phone, payer_email=email, collection_account=account)
        else:
            # No account takes M-Pesa's PIN prompts: the donor pays as the instructions say, with
            # the payment's reference; the gift counts once that payment is matched.
            payment = payment_instructed_intent_create(**intent, phone=phone, payer_email=email)
    return donation_attach_payment(
        payment=payment,
        campaign=campaign,
        name=name,
        email=email,
        phone=validators.normalize_kenyan_phone(phone) if phone else "",
        is_anonymous=is_anonymous,
    )


def donation_create_by_phone(*, campaign_id: int, amount: int, phone: str, idempotency_key: str) -> Donation:
    """An anonymous M-Pesa donation from a phone whose number the mobile network gave (the USSD
    menu's 'Give now'): the PIN prompt goes to that number. The campaign's rules are the web's,
    and so is the per-phone limit; no per-address limit (one gateway carries every caller)."""
    campaign = campaign_get(campaign_id=campaign_id, user=None)
    _ensure_open(campaign, refusals=DONATION_REFUSALS)
    if _whole_amount(amount) is None:
        message = _("Please enter a valid donation amount")
        raise FieldValidationError(message, field_errors={"amount": message})
    _giving_contact_limits_enforce(scope="donation", phone=phone, email="", viewer=None)
    payment = payment_stk_push_start(
        purpose=Payment.Purpose.DONATION,
        amount=amount,
        phone=phone,
        campaign=campaign,
        idempotency_key=idempotency_key,
        collection_account=campaign_stk_account(campaign=campaign),
    )
    return donation_attach_payment(
        payment=payment,
        campaign=campaign,
        name="",
        email="",
        phone=validators.normalize_kenyan_phone(phone),
        is_anonymous=True,
    )


@dataclass(frozen=True)
class DeskGift:
    """What a gift typed at the desk did: its donation (None when its M-Pesa receipt had already
    paid a pledge) and payment; ``already_credited`` when the receipt was in the books before."""

    donation: Donation | None
    payment: Payment
    already_credited: bool


def donation_record_at_desk(
    *,
    campaign: Campaign,
    method: str,
    amount: int,
    name: str,
    phone: str,
    is_anonymous: bool,
    mpesa_receipt: str,
    recorded_by: User | None,
) -> DeskGift:
    """A gift taken at an event's desk, recorded as a donation (counted at once): cash in an
    envelope (``method`` 'cash'), or M-Pesa paid to the church's number ('mpesa') with its receipt
    code. One receipt, one credit: when the receipt is already in the books (its confirmation came
    first), nothing is credited again; if that money paid nothing yet and went into an account of
    the campaign's organization, it becomes this gift. The amount must be the receipt's. Audited
    as a payment recorded (or assigned) by ``recorded_by`` (None: a desk passcode's volunteer).
    A gift that became a donation here is announced on commit (``desk_gift_recorded``: its
    giver's receipt); one already in the books was announced, or receipted, when it got there."""
    _ensure_open(campaign, refusals=DONATION_REFUSALS)
    name, phone = validators.normalize_name(name), _clean(phone)
    _desk_details_check(campaign=campaign, amount=amount, name=name, phone=phone, is_pledge=False)
    receipt = mpesa_receipt_normalize(mpesa_receipt) if method == "mpesa" else None
    phone = validators.normalize_kenyan_phone(phone) if phone else ""
    details = _GiverDetails(name=name, email="", phone=phone, is_anonymous=is_anonymous)
    with transaction.atomic():
        payment = None
        if (
            receipt is None
            or (payment := payment_with_receipt_locked(organization_id=campaign.organization_id, mpesa_receipt=receipt))
            is None
        ):
            provider = Payment.Provider.MPESA_MANUAL if receipt else Payment.Provider.CASH
            payment = payment_record_at_desk(
                campaign=campaign,
                provider=provider,
                amount=amount,
                mpesa_receipt=receipt,
                recorded_by=recorded_by,
                payer_phone=phone,
            )
            if payment is not None:
                donation = donation_attach_payment(payment=payment, campaign=campaign, **details)
                audit_record(
                    actor=recorded_by,
                    action=AuditAction.PAYMENT_RECORDED,
                    target=payment,
                    after={
                        "provider": provider,
                        "purpose": payment.purpose,
                        "amount": amount,
                        "campaign": campaign.pk,
                        "mpesa_receipt": receipt or "",
                        "receipt_number": payment.receipt_number,
                        "desk": True,
                    },
                )
                _desk_gift_announce(donation)
                return DeskGift(donation=donation, payment=payment, already_credited=False)
            # The receipt's confirmation was being recorded at the same moment: it is in the books now.
            payment = payment_with_receipt_locked(organization_id=campaign.organization_id, mpesa_receipt=receipt or "")
            assert payment is not None
        return _desk_gift_already_in_books(
            payment=payment, campaign=campaign, amount=amount, recorded_by=recorded_by, details=details
        )


def _desk_gift_already_in_books(
    *, payment: Payment, campaign: Campaign, amount: int, recorded_by: User | None, details: _GiverDetails
) -> DeskGift:
    """A desk gift whose M-Pesa receipt the ledger already has (``payment``, locked)."""
    if payment.status != Payment.Status.SUCCEEDED or payment.flagged:
        message = _("This M-Pesa receipt belongs to a payment that has not gone through: ask a treasurer.")
        raise FieldValidationError(message, field_errors={"mpesa_receipt": message})
    if payment.amount != amount:
        message = _("M-Pesa says this receipt was for %(amount)s.") % {"amount": format_ksh(payment.amount)}
        raise FieldValidationError(message, field_errors={"amount": message})
    donation = Donation.objects.filter(payment=payment).first()
    if donation is not None or PledgePayment.objects.filter(payment=payment).exists():
        return DeskGift(donation=donation, payment=payment, already_credited=True)
    payment_take_as_donation(payment=payment, campaign=campaign)
    donation = donation_attach_payment(payment=payment, campaign=campaign, **details)
    audit_record(
        actor=recorded_by,
        action=AuditAction.PAYMENT_ASSIGNED,
        target=payment,
        after={"donation": donation.pk, "campaign": campaign.pk, "mpesa_receipt": payment.mpesa_receipt, "desk": True},
    )
    _desk_gift_announce(donation)
    return DeskGift(donation=donation, payment=payment, already_credited=True)


def _desk_gift_announce(donation: Donation) -> None:
    # On commit: an entry rolled back (a retry that lost the race for its key) announces nothing.
    transaction.on_commit(partial(signals.desk_gift_recorded.send, sender=Donation, donation=donation))


@transaction.atomic
def donation_attach_payment(
    *, payment: Payment, campaign: Campaign, name: str, email: str, phone: str, is_anonymous: bool
) -> Donation:
    """The donation a donation payment pays for (made once per payment), counted at once if the
    payment has already succeeded. ``phone`` is E.164 or blank."""
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    donation, _created = Donation.objects.get_or_create(
        payment=payment,
        defaults={
            "campaign": campaign,
            "language": current_language(),
            "amount": payment.amount,
            "name": name,
            "email": email,
            "phone": phone,
            "is_anonymous": is_anonymous,
        },
    )
    if payment.status == Payment.Status.SUCCEEDED:
        _donation_count(donation)
    donation.payment = payment
    return donation


@transaction.atomic
def pledges_personal_data_erase(*, user: User) -> None:
    """Remove who gave from the user's pledges and donations, and the phone of their standing orders
    (an account deletion, ``privacy``), keeping the amounts, payments and states: the organizers'
    books still add up."""
    anonymous = {"name": DELETED_USER_NAME, "email": "", "phone": "", "is_anonymous": True}
    # Their standing orders (by the pledge code they paid): who approved them.
    codes_paid = pledges_made_by(user=user).values("code")
    standing_orders_phone_erase(account_references=codes_paid)
    pledges_made_by(user=user).update(**anonymous)
    donations_made_by(user=user).update(**anonymous)
