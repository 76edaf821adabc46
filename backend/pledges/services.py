"""Writes of pledges and donations, and how payments reach them.

Reconciliation: every succeeded payment passes through ``payment_record_succeeded`` (the
``payment_succeeded`` receiver) inside the transaction that credits it, with the payment row
locked. A pledge payment whose account reference is a pledge code (paybill payments people make
themselves, STK Pushes started from a pledge, cash and bank payments the organizer records) is
counted towards that pledge; any other stays unmatched until an organizer assigns it. A donation
is counted once its payment succeeds. ``PledgePayment.payment`` being unique and
``Donation.counted_at`` being set under the payment's lock make each count happen exactly once,
however often a provider repeats its callback.

Campaign counters change only here, with ``F()`` updates in those same transactions (an UPDATE
takes the campaign row's lock itself, so concurrent credits queue on it and none is lost).
"""

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, F, OuterRef, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from accounts import validators
from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from campaigns.caching import campaign_changed
from campaigns.models import Campaign, CampaignStatus
from campaigns.selectors import campaign_card_account, campaign_get, campaign_managed_get, campaign_stk_account
from collection_accounts.selectors import account_keywords_of
from collection_accounts.validators import keyword_normalize
from common import challenges, ratelimit
from common.errors import FieldValidationError, NotFoundError, ServiceError
from common.languages import current_language
from common.money import AMOUNT_MAX, format_ksh
from organizations.roles import Permission
from payments.models import MpesaStandingOrder, Payment, PaymentReversal
from payments.providers.daraja import StandingOrderTerms
from payments.services import (
    BULK_BATCH_SIZE,
    mpesa_receipt_normalize,
    payment_checkout_start,
    payment_instructed_intent_create,
    payment_record_at_desk,
    payment_record_manual,
    payment_stk_push_limit_enforce,
    payment_stk_push_start,
    payment_take_as_donation,
    payment_with_receipt_locked,
    standing_order_record,
    standing_order_send,
)
from pledges import account_references, codes, instalments, signals
from pledges.models import (
    DELETED_USER_NAME,
    CampaignFigures,
    Donation,
    InstalmentPlan,
    Pledge,
    PledgeChannel,
    PledgePayment,
)
from pledges.selectors import (
    donations_made_by,
    pledge_managed_get,
    pledge_standing_order_account,
    pledges_claimable_by,
    pledges_made_by,
    unmatched_payments,
)

NAME_MAX_LENGTH = 150
CODE_ATTEMPTS = 5
REASON_MAX_LENGTH = 500


def _ensure_open(campaign: Campaign, *, refusals: Mapping[str, str | Promise]) -> None:
    """Pledges and donations go only to active campaigns, up to and including their end date."""
    if campaign.status != CampaignStatus.ACTIVE:
        key = "closed" if campaign.status == CampaignStatus.CLOSED else "not_active"
        raise ServiceError(str(refusals[key]), code=f"campaign_{key}")
    if campaign.end_date < timezone.localdate():
        message = str(refusals["ended"]) % {"date": date_format(campaign.end_date, "j F Y")}
        raise ServiceError(message, code="campaign_ended")


def _whole_amount(value: float | None) -> int | None:
    """``value`` as whole shillings from 1 to AMOUNT_MAX, or None when it is not one."""
    if value is None or isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        return None
    amount = int(value)  # an int as it is: float() of one with hundreds of digits (an SMS's) overflows
    return amount if 1 <= amount <= AMOUNT_MAX else None


def _clean(value: str | None) -> str:
    return (value or "").strip()


def _counters_move(*, campaign_id: int, change: CampaignFigures) -> None:
    """Move a campaign's counters by ``change``, inside the caller's transaction. One ``F()``
    UPDATE, which takes the campaign row's lock itself: concurrent changes queue, none is lost."""
    if change == CampaignFigures():
        return
    Campaign.objects.filter(pk=campaign_id).update(
        pledged_total=F("pledged_total") + change.pledged,
        pledged_signed_in_or_paid_total=F("pledged_signed_in_or_paid_total") + change.pledged_signed_in_or_paid,
        raised_total=F("raised_total") + change.raised,
        donor_count=F("donor_count") + change.donors,
    )


def _ceiling_error(campaign: Campaign, amount: int) -> str | None:
    """The refusal of a pledge above the campaign's largest single pledge, if it is one."""
    if amount <= campaign.largest_pledge:
        return None
    return _("The largest single pledge to this campaign is %(amount)s.") % {
        "amount": format_ksh(campaign.largest_pledge)
    }


def _reason_clean(reason: str) -> str:
    """A correction's reason: required, at most REASON_MAX_LENGTH characters."""
    reason = reason.strip()
    if not reason:
        raise FieldValidationError(
            _("Please correct the errors below"), field_errors={"reason": _("Please give the reason.")}
        )
    if len(reason) > REASON_MAX_LENGTH:
        raise FieldValidationError(
            _("Please correct the errors below"),
            field_errors={"reason": _("Please keep the reason under 500 characters.")},
        )
    return reason


def _status_settle(pledge: Pledge, *, by: User | None) -> bool:
    """Set a pledge's status from its amount and payments (who settled it, when it becomes
    confirmed; nobody once it no longer is). True if it has just become fully paid."""
    was_confirmed = pledge.is_confirmed
    pledge.status = pledge.derived_status()
    if pledge.is_confirmed and not was_confirmed:
        pledge.confirmed_at = timezone.now()
        pledge.confirmed_by = by
    elif not pledge.is_confirmed:
        pledge.confirmed_at, pledge.confirmed_by = None, None
    return pledge.is_confirmed and not was_confirmed


def _hand_change_count(pledge: Pledge) -> None:
    """Count one more correction, cancellation or restoration of ``pledge``, refusing it (429) past
    ``RATE_LIMIT_PLEDGE_CHANGES``: each texts the pledger, whose number an organizer must not be
    able to text without end by changing a pledge back and forth."""
    ratelimit.enforce(
        scope="pledge-changes",
        identifiers=[str(pledge.pk)],
        limit=settings.RATE_LIMIT_PLEDGE_CHANGES,
        message=_("This pledge was changed many times today. Please wait before changing it again."),
    )


def _changed(pledge: Pledge, change: str) -> None:
    """Tell the pledger (after commit) that their pledge was changed by hand (see ``signals``)."""
    transaction.on_commit(partial(signals.pledge_changed.send, sender=Pledge, pledge=pledge, change=change))


def _giving_contact_limits_enforce(*, scope: str, phone: str, email: str, viewer: User | None) -> None:
    """Behind the generous per-address limit: pledges or donations naming one phone number or e-mail
    address (``RATE_LIMIT_GIVING_CONTACT``), or made by one signed-in account (``…_ACCOUNT``)."""
    limits = [
        ratelimit.Limit(
            f"{scope}-phone",
            validators.normalize_kenyan_phone(phone) if phone else "",
            settings.RATE_LIMIT_GIVING_CONTACT,
        ),
        ratelimit.Limit(f"{scope}-email", email, settings.RATE_LIMIT_GIVING_CONTACT),
    ]
    if viewer is not None:
        limits.append(ratelimit.Limit(f"{scope}-account", f"user:{viewer.pk}", settings.RATE_LIMIT_GIVING_ACCOUNT))
    ratelimit.enforce_all(
        limits=limits, message=_("Too many in a short time with these details. Please wait a while and try again.")
    )


# Pledges -----------------------------------------------------------------------------------


PLEDGE_REFUSALS = {
    "not_active": _lazy("This campaign is not active yet, so it is not accepting pledges."),
    "closed": _lazy("This campaign is closed and no longer accepts pledges."),
    "ended": _lazy("This campaign ended on %(date)s and no longer accepts pledges."),
}
DONATION_REFUSALS = {
    "not_active": _lazy("This campaign is not active yet, so it is not accepting donations."),
    "closed": _lazy("This campaign is closed and no longer accepts donations."),
    "ended": _lazy("This campaign ended on %(date)s and no longer accepts donations."),
}
WHOLE_AMOUNT_MESSAGE = _lazy("Please enter a whole amount from Ksh 1 to Ksh 1,000,000,000.")


def pledge_create(
    *,
    campaign_id: int,
    amount: float | None,
    name: str | None,
    email: str | None,
    phone: str | None,
    is_anonymous: bool,
    viewer: User | None,
    client_ip: str,
    challenge_solution: str = "",
    plan: instalments.PlanTerms | None = None,
) -> Pledge:
    """Record a pledge to an active campaign and add it to the campaign's pledged total, with the
    instalment ``plan`` its pledger chose, if any (its rules: ``_plan_errors``).

    Name, e-mail, phone and amount are required ('Please fill in all required fields'); the
    phone is Kenyan (kept in E.164) and the amount whole shillings of at least 1, at most the
    campaign's largest single pledge (``Campaign.largest_pledge``). Campaigns
    the viewer cannot see are 404; pending, closed or ended ones refuse with a message (400).
    Limited per client address (``RATE_LIMIT_PLEDGE``, past which ``challenge_solution`` lets it
    through: common/challenges.py), per phone, e-mail and account (``_giving_contact_limits_enforce``).
    """
    challenges.address_limit_enforce(
        scope="pledge", address=client_ip, limit=settings.RATE_LIMIT_PLEDGE, solution=challenge_solution
    )
    campaign = campaign_get(campaign_id=campaign_id, user=viewer)
    _ensure_open(campaign, refusals=PLEDGE_REFUSALS)
    name, email, phone = validators.normalize_name(name or ""), _clean(email), _clean(phone)
    whole = _whole_amount(amount)
    missing = {
        field: message
        for field, value, message in (
            ("name", name, _("Name is required")),
            ("email", email, _("Email is required")),
            ("phone", phone, _("Phone number is required")),
            ("amount", amount, _("Amount is required")),
        )
        if value in ("", None)
    }
    errors = dict(missing)
    if name and len(name) > NAME_MAX_LENGTH:
        errors["name"] = _("Please keep the name under 150 characters.")
    if email and (message := validators.check_email(email)):
        errors["email"] = message
    if phone and (message := validators.check_kenyan_phone(phone)):
        errors["phone"] = message
    if amount is not None and (message := pledge_amount_refusal(campaign=campaign, amount=amount)):
        errors["amount"] = message
    if plan is not None and whole is not None and "amount" not in errors:
        errors.update(_plan_errors(pledge=Pledge(campaign=campaign, amount=whole), terms=plan, backdating=False))
    if errors:
        detail = _("Please fill in all required fields") if missing else _("Please correct the errors below")
        raise FieldValidationError(detail, field_errors=errors)
    assert whole is not None
    _giving_contact_limits_enforce(scope="pledge", phone=phone, email=email, viewer=viewer)
    return _pledge_record(
        campaign=campaign,
        user=viewer,
        name=name,
        email=email,
        phone=validators.normalize_kenyan_phone(phone),
        amount=whole,
        is_anonymous=is_anonymous,
        channel=PledgeChannel.WEB,
        plan=plan,
    )


def pledge_create_by_phone(
    *,
    campaign_id: int,
    amount: int,
    phone: str,
    is_anonymous: bool,
    channel: PledgeChannel,
    plan: instalments.PlanByCount | None = None,
) -> Pledge:
    """Record a pledge made from a phone whose number the mobile network gave (``channel``: the USSD
    menu or a PLEDGE text to the shortcode): no name or e-mail, the number marked verified
    (``Pledge.phone_verified``), with the number of instalments the pledger chose, if any
    (``phone_plan_terms``). The campaign's
    rules are the web form's (open, visible to anyone, the largest single pledge) and so is the
    per-phone limit; there is no per-address limit, since one gateway carries every caller (the
    USSD app limits each number itself)."""
    campaign = campaign_get(campaign_id=campaign_id, user=None)
    _ensure_open(campaign, refusals=PLEDGE_REFUSALS)
    if message := validators.check_kenyan_phone(phone):
        raise FieldValidationError(message, field_errors={"phone": message})
    if message := pledge_amount_refusal(campaign=campaign, amount=amount):
        raise FieldValidationError(message, field_errors={"amount": message})
    terms = None
    if plan is not None:
        if message := phone_plan_refusal(campaign=campaign, amount=amount, plan=plan):
            raise FieldValidationError(message, field_errors={"plan": message})
        terms = phone_plan_terms(amount=amount, plan=plan)
    _giving_contact_limits_enforce(scope="pledge", phone=phone, email="", viewer=None)
    return _pledge_record(
        campaign=campaign,
        user=None,
        name="",
        email="",
        phone=validators.normalize_kenyan_phone(phone),
        phone_verified=True,
        amount=amount,
        is_anonymous=is_anonymous,
        channel=channel,
        plan=terms,
    )


def phone_plan_most_instalments(*, campaign: Campaign, amount: int, frequency: instalments.Frequency) -> int:
    """The most weekly or monthly instalments a pledge of ``amount`` made by phone today may be paid
    in: the last falls due by the campaign's latest plan end (``instalments.most_instalments``)."""
    latest = instalments.latest_last_due_on(end_date=campaign.end_date, past_end_allowed=campaign.instalments_past_end)
    return instalments.most_instalments(
        total=amount, frequency=frequency, today=timezone.localdate(), latest_last_due_on=latest
    )


def phone_plan_refusal(*, campaign: Campaign, amount: int, plan: instalments.PlanByCount) -> str | None:
    """Why a pledge of ``amount`` by phone cannot be paid in ``plan``'s instalments, or None when it can."""
    most = phone_plan_most_instalments(campaign=campaign, amount=amount, frequency=plan.frequency)
    if most < 2:
        if plan.frequency == instalments.Frequency.WEEKLY:
            return _("The campaign ends too soon for weekly instalments.")
        return _("The campaign ends too soon for monthly instalments.")
    if not 2 <= plan.count <= most:
        if plan.frequency == instalments.Frequency.WEEKLY:
            return _("Please choose from 2 to %(most)s weekly instalments.") % {"most": most}
        return _("Please choose from 2 to %(most)s monthly instalments.") % {"most": most}
    return None


def phone_plan_terms(*, amount: int, plan: instalments.PlanByCount) -> instalments.PlanTerms:
    """The plan of ``plan.count`` instalments of a pledge of ``amount`` made by phone today."""
    return instalments.terms_by_count(
        total=amount, count=plan.count, frequency=plan.frequency, today=timezone.localdate()
    )


def _desk_details_check(*, campaign: Campaign, amount: int, name: str, phone: str, is_pledge: bool) -> None:
    """The checks of an entry typed at an event's desk: a whole amount (for a pledge at most the
    campaign's largest single pledge), an optional name, a Kenyan phone (a pledge's is required)."""
    errors: dict[str, str] = {}
    if is_pledge and (message := pledge_amount_refusal(campaign=campaign, amount=amount)):
        errors["amount"] = message
    elif _whole_amount(amount) is None:
        errors["amount"] = str(WHOLE_AMOUNT_MESSAGE)
    if len(name) > NAME_MAX_LENGTH:
        errors["name"] = _("Please keep the name under 150 characters.")
    if is_pledge and not phone:
        errors["phone"] = _("Phone number is required")
    elif phone and (message := validators.check_kenyan_phone(phone)):
        errors["phone"] = message
    if errors:
        raise FieldValidationError(next(iter(errors.values())), field_errors=errors)


def pledge_create_at_desk(
    *,
    campaign: Campaign,
    amount: int,
    name: str,
    phone: str,
    is_anonymous: bool,
    plan: instalments.PlanTerms | None = None,
) -> Pledge:
    """A pledge card typed at an event's desk by its usher (the desk app checked who may): the web
    form's ledger, rules and per-phone limit, with the name optional and no e-mail, and the
    instalment ``plan`` the card carries, if any (the web's rules, ``_plan_errors``: the first
    instalment today or later; saved with the pledge). The pledger is the card's, not the usher:
    it belongs to no account, and gets the usual SMS with its code and how to pay
    (``pledge_created``). No per-address limit: one hall's Wi-Fi carries every desk."""
    _ensure_open(campaign, refusals=PLEDGE_REFUSALS)
    name, phone = validators.normalize_name(name), _clean(phone)
    _desk_details_check(campaign=campaign, amount=amount, name=name, phone=phone, is_pledge=True)
    if plan is not None and (
        errors := _plan_errors(pledge=Pledge(campaign=campaign, amount=amount), terms=plan, backdating=False)
    ):
        # The desk shows one message beside the refused entry: the first.
        raise FieldValidationError(next(iter(errors.values())), field_errors=errors)
    _giving_contact_limits_enforce(scope="pledge", phone=phone, email="", viewer=None)
    return _pledge_record(
        campaign=campaign,
        user=None,
        name=name,
        email="",
        phone=validators.normalize_kenyan_phone(phone),
        amount=amount,
        is_anonymous=is_anonymous,
        channel=PledgeChannel.DESK,
        plan=plan,
    )


@transaction.atomic
def pledges_claim(*, user: User, pledge_codes: list[str]) -> list[Pledge]:
    """Make the pledges with these codes the user's own (``Pledge.user``): each must have been made by
    phone from the number the user proved with a one-time code (``pledges_claimable_by``), else
    nothing changes. A claimed pledge is then theirs as if made signed in: listed in their account,
    in their data download and anonymised with it, and counted among the campaign's pledges made
    signed in or paid. Its amount, code, name (none), visibility and payments stay as they were."""
    wanted = {codes.normalize(code) for code in pledge_codes}
    if not wanted:
        message = _("Choose at least one pledge.")
        raise FieldValidationError(message, field_errors={"codes": message})
    claimable = pledges_claimable_by(user=user).filter(code__in=wanted)
    pledges = list(claimable.select_for_update().order_by("created_at", "id"))
    if len(pledges) != len(wanted):
        raise NotFoundError(
            _("Some of these pledges were not made from your verified phone number, or are already claimed."),
            code="not_claimable",
        )
    for pledge in pledges:
        before = pledge.campaign_figures()
        pledge.user = user
        pledge.save(update_fields=["user"])
        _counters_move(campaign_id=pledge.campaign_id, change=pledge.campaign_figures() - before)
        audit_record(actor=user, action=AuditAction.PLEDGE_CLAIMED, target=pledge, after={"user": user.pk})
    return pledges


def pledge_amount_refusal(*, campaign: Campaign, amount: float) -> str | None:
    """Why ``amount`` cannot be pledged to ``campaign`` (not whole shillings from 1 to
    AMOUNT_MAX, or above its largest single pledge), or None when it can."""
    whole = _whole_amount(amount)
    if whole is None:
        return str(WHOLE_AMOUNT_MESSAGE)
    return _ceiling_error(campaign, whole)


def _pledge_record(*, campaign: Campaign, plan: instalments.PlanTerms | None = None, **fields: Any) -> Pledge:
    """Save a checked pledge with a fresh code and its instalment ``plan``, if any, and count it on
    its campaign; ``pledge_created`` is announced on commit."""
    for attempt in range(CODE_ATTEMPTS):
        try:
            with transaction.atomic():
                pledge = Pledge.objects.create(campaign=campaign, language=current_language(), **fields)
                _counters_move(campaign_id=campaign.pk, change=pledge.campaign_figures())
                if plan is not None:
                    InstalmentPlan.objects.create(
                        pledge=pledge,
                        instalment=plan.instalment,
                        frequency=plan.frequency,
                        first_due_on=plan.first_due_on,
                    )
        except IntegrityError:
            # Two pledges drew the same code: draw again (one chance in hundreds of millions).
            if attempt == CODE_ATTEMPTS - 1:
                raise
            continue
        pledge.campaign = campaign
        transaction.on_commit(partial(signals.pledge_created.send, sender=Pledge, pledge=pledge))
        return pledge
    raise AssertionError("unreachable")


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
    pledge = pledge_get_by_code(code=code, client_ip=client_ip)
    phone = _clean(phone) or pledge.phone
    # The last nine digits name a Kenyan number however it is written.
    phone_digits = re.sub(r"\D", "", phone)[-9:]
    ratelimit.enforce(
        scope="pledge-stk-push", identifiers=[pledge.code, phone_digits], limit=settings.RATE_LIMIT_PLEDGE_STK_PUSH
    )
    payment_stk_push_limit_enforce(phone=phone, client_ip=client_ip)
    return _pledge_stk_push(pledge=pledge, phone=phone, amount=amount, idempotency_key=idempotency_key, viewer=viewer)


def pledge_stk_push_by_phone(*, pledge_id: int, phone: str, amount: int, idempotency_key: str) -> Payment:
    """Send the PIN prompt for ``amount`` of a pledge of the number the mobile network gave
    (the USSD menu's 'Pay a pledge'), to that number. Any live pledge naming the number is its
    owner's to pay; the USSD app limits the prompts per number."""
    pledge = (
        Pledge.objects.select_related("campaign")
        .filter(pk=pledge_id, phone=validators.normalize_kenyan_phone(phone))
        .first()
    )
    if pledge is None:
        raise NotFoundError(_("Pledge not found."), code="not_found")
    return _pledge_stk_push(pledge=pledge, phone=phone, amount=amount, idempotency_key=idempotency_key, viewer=None)


def _pledge_stk_push(
    *, pledge: Pledge, phone: str, amount: int | None, idempotency_key: str, viewer: User | None
) -> Payment:
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
    return payment_stk_push_start(
        purpose=Payment.Purpose.PLEDGE_PAYMENT,
        amount=amount,
        phone=phone,
        user=viewer,
        campaign=pledge.campaign,
        payer_email=pledge.email,
        idempotency_key=idempotency_key,
        account_reference=pledge.code,
        collection_account=campaign_stk_account(campaign=pledge.campaign),
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


def pledge_payment_record(
    *,
    pledge_id: int,
    user: User,
    amount: int,
    method: str,
    note: str,
    reference: str,
    received_on: date | None = None,
) -> Pledge:
    """Record a payment the organizer received for a pledge (cash, bank, or M-Pesa to the
    organization's own number with its receipt code): entered in the ledger with who recorded it
    and the day it was received, then counted towards the pledge like any other payment."""
    with transaction.atomic():
        pledge = pledge_managed_get(
            pledge_id=pledge_id, user=user, permission=Permission.MANAGE_PLEDGES, for_update=True
        )
        _ensure_live(pledge)
        payment_record_manual(
            recorded_by=user,
            provider=method,
            purpose=Payment.Purpose.PLEDGE_PAYMENT,
            amount=amount,
            campaign=pledge.campaign,
            payer_phone=pledge.phone,
            payer_email=pledge.email,
            note=note,
            reference=reference,
            received_on=received_on,
            account_reference=pledge.code,
        )
        pledge.refresh_from_db()
    return pledge


@transaction.atomic
def pledge_payment_assign(*, pledge_id: int, reference: str, user: User) -> Pledge:
    """Count an unmatched payment (e.g. a paybill payment with a mistyped account number)
    towards a pledge. The campaign's team may assign the payments listed for it (attributed to it,
    or paid into its accounts and placed nowhere); an admin also those nobody could place."""
    pledge = pledge_managed_get(pledge_id=pledge_id, user=user, permission=Permission.MANAGE_PLEDGES)
    _ensure_live(pledge)
    # The payment first, then the pledge: the order every credit locks them in.
    payment = Payment.objects.select_for_update().filter(reference=reference.strip().upper()).first()
    assignable = (
        payment is not None
        and payment.purpose == Payment.Purpose.PLEDGE_PAYMENT
        and payment.status == Payment.Status.SUCCEEDED
        and not PaymentReversal.objects.filter(payment=payment).exists()
        and (
            payment.campaign_id == pledge.campaign_id
            or (
                payment.campaign_id is None
                and (
                    user.is_admin
                    or pledge.campaign.account_links.filter(account=payment.collection_account_id).exists()
                )
            )
        )
    )
    if not assignable:
        raise NotFoundError(_("Payment not found."), code="payment_not_found")
    assert payment is not None
    if PledgePayment.objects.filter(payment=payment).exists() or Donation.objects.filter(payment=payment).exists():
        raise ServiceError(_("This payment is already counted towards a pledge."), code="already_assigned")
    pledge = Pledge.objects.select_for_update().get(pk=pledge.pk)
    _ensure_live(pledge)
    before = {"pledge": None, "campaign": payment.campaign_id, "pledge_paid_amount": pledge.paid_amount}
    _pledge_credit(pledge=pledge, payment=payment, assigned_by=user)
    audit_record(
        actor=user,
        action=AuditAction.PAYMENT_ASSIGNED,
        target=payment,
        before=before,
        after={"pledge": pledge.code, "campaign": payment.campaign_id, "pledge_paid_amount": pledge.paid_amount},
    )
    return pledge


@transaction.atomic
def unmatched_payments_set_aside(*, campaign_id: int, user: User, references: list[str]) -> int:
    """'Not for a campaign': take unmatched payments of the campaign's list (e.g. a church's own
    collections on its paybill) off it for good; they stay in the ledger. Owners, treasurers and
    admins. Answers how many were set aside; references not in the list are left alone. Audited."""
    campaign = campaign_managed_get(campaign_id=campaign_id, user=user, permission=Permission.MANAGE_PLEDGES)
    wanted = {reference.strip().upper() for reference in references}
    payments = list(
        unmatched_payments(campaign=campaign, user=user).filter(reference__in=wanted).select_for_update(of=("self",))
    )
    for payment in payments:
        payment.set_aside = Payment.SetAside.NOT_FOR_A_CAMPAIGN
        payment.save(update_fields=["set_aside"])
        audit_record(
            actor=user,
            action=AuditAction.PAYMENT_SET_ASIDE,
            target=payment,
            before={"set_aside": ""},
            after={
                "set_aside": payment.set_aside,
                "campaign": campaign.pk,
                "account_reference": payment.account_reference,
            },
        )
    return len(payments)


def _pledge_credit(*, pledge: Pledge, payment: Payment, assigned_by: User | None) -> None:
    """Count a succeeded payment towards a locked live pledge, inside the caller's transaction."""
    _pledges_credit(credits=[(pledge, [payment])], assigned_by=assigned_by)


def _pledges_payments_write(pledges: list[Pledge], *, confirmed_before: dict[int, tuple[Any, Any]]) -> None:
    """Write the paid amounts and statuses of pledges whose payments changed. Many pledges share a status
    and few change who confirmed them: one UPDATE per status, and the confirmations of only those whose
    confirmation changed (a row-by-row update of every field takes as long as all the rest of a large
    statement's import)."""
    Pledge.objects.bulk_update(pledges, ["paid_amount"], batch_size=BULK_BATCH_SIZE)
    by_status: defaultdict[str, list[int]] = defaultdict(list)
    for pledge in pledges:
        by_status[pledge.status].append(pledge.pk)
    for status, pledge_ids in sorted(by_status.items()):
        Pledge.objects.filter(pk__in=pledge_ids).update(status=status)
    Pledge.objects.bulk_update(
        [pledge for pledge in pledges if (pledge.confirmed_at, pledge.confirmed_by_id) != confirmed_before[pledge.pk]],
        ["confirmed_at", "confirmed_by"],
        batch_size=BULK_BATCH_SIZE,
    )


def _campaigns_move(change: Mapping[int, CampaignFigures]) -> None:
    """Move each campaign's counters once, in one order (so two transactions never deadlock on them), and
    renew its cached view (as saving a pledge or donation would have: a bulk update sends no signal)."""
    for campaign_id in sorted(change):
        _counters_move(campaign_id=campaign_id, change=change[campaign_id])
        campaign_changed(campaign_id=campaign_id)


def _pledges_credit(*, credits: list[tuple[Pledge, list[Payment]]], assigned_by: User | None) -> None:
    """Count succeeded payments towards locked live pledges, each pledge's in order, inside the caller's
    transaction; a pledge and a campaign are written once however many payments they take."""
    links, payments, paid = [], [], []
    now = timezone.now()
    change: defaultdict[int, CampaignFigures] = defaultdict(CampaignFigures)
    confirmed_before = {pledge.pk: (pledge.confirmed_at, pledge.confirmed_by_id) for pledge, _payments in credits}
    for pledge, its_payments in credits:
        figures = pledge.campaign_figures()
        for payment in its_payments:
            links.append(PledgePayment(pledge=pledge, payment=payment, assigned_by=assigned_by))
            before = {"status": pledge.status, "paid_amount": pledge.paid_amount}
            pledge.paid_amount += payment.amount
            fully_paid = _status_settle(pledge, by=assigned_by or payment.recorded_by)
            if fully_paid and pledge.confirmed_by is not None:
                # A person settled it (confirmed it, recorded a payment, or assigned one); M-Pesa paying
                # it in full is the ledger's own record.
                audit_record(
                    actor=pledge.confirmed_by,
                    action=AuditAction.PLEDGE_CONFIRMED,
                    target=pledge,
                    before=before,
                    after={"status": pledge.status, "paid_amount": pledge.paid_amount, "payment": payment.reference},
                )
            # The ledger learns which campaign the money was for, when it counted (the day it was
            # received, for an entry made later), and where its receipt goes.
            payment.campaign_id = pledge.campaign_id
            payment.counted_at = payment.received_at or now
            payment.payer_email = payment.payer_email or pledge.email
            payments.append(payment)
            paid.append((pledge, payment, fully_paid))
        # A pledger counts as a donor from their first payment on.
        change[pledge.campaign_id] += pledge.campaign_figures() - figures
    PledgePayment.objects.bulk_create(links, batch_size=BULK_BATCH_SIZE)
    _pledges_payments_write([pledge for pledge, _payments in credits], confirmed_before=confirmed_before)
    # The same values as above, set by the database in one UPDATE (row by row would take longer than all
    # the rest of a large statement's import).
    link = PledgePayment.objects.filter(payment=OuterRef("pk")).values("pledge")
    Payment.objects.filter(pk__in=[payment.pk for payment in payments]).update(
        campaign=Subquery(link.values("pledge__campaign_id")[:1]),
        counted_at=Coalesce(F("received_at"), Value(now)),
        payer_email=Case(
            When(payer_email="", then=Subquery(link.values("pledge__email")[:1])), default=F("payer_email")
        ),
    )
    _campaigns_move(change)

    def tell() -> None:
        for pledge, payment, fully_paid in paid:
            signals.pledge_paid.send(sender=Pledge, pledge=pledge, payment=payment, fully_paid=fully_paid)

    transaction.on_commit(tell)


def _pledge_payments_match(payments: list[Payment]) -> None:
    """Match succeeded pledge payments (locked) by their account references, in a number of queries that
    does not grow with theirs: a live pledge's code credits it; a cancelled pledge's lists the payment
    for that pledge's campaign; an organization's keyword (tithes, offerings) sets it aside; anything
    else stays unmatched."""
    linked = set(PledgePayment.objects.filter(payment__in=payments).values_list("payment_id", flat=True))
    by_organization: defaultdict[int | None, list[Payment]] = defaultdict(list)
    for payment in payments:
        if payment.pk not in linked:
            # Money paid into an organization's own account pays only the codes that organization issued.
            account = payment.collection_account
            by_organization[account.organization_id if account else None].append(payment)
    for organization_id, its_payments in by_organization.items():
        _organization_payments_match(organization_id, its_payments)


def _organization_payments_match(organization_id: int | None, payments: list[Payment]) -> None:
    pledges = Pledge.objects.all()
    if organization_id is not None:
        pledges = pledges.filter(campaign__organization_id=organization_id)
    code_of = {payment.pk: codes.normalize(payment.account_reference) for payment in payments}
    wanted = {code for code in code_of.values() if codes.is_valid_code(code)}
    # Locked in one order (by id), as every crediting transaction locks pledges.
    found = (
        {
            pledge.code: pledge
            for pledge in pledges.select_for_update(of=("self",)).filter(code__in=wanted).order_by("pk")
        }
        if wanted
        else {}
    )
    credits: dict[int, tuple[Pledge, list[Payment]]] = {}
    listed, unmatched = [], []
    for payment in payments:
        pledge = found.get(code_of[payment.pk])
        if pledge is not None and pledge.is_live:
            credits.setdefault(pledge.pk, (pledge, []))[1].append(payment)
        elif pledge is not None:
            # Paid to a cancelled pledge: listed for its organizer, who assigns it or takes it up.
            payment.campaign_id = pledge.campaign_id
            listed.append(payment)
        elif payment.campaign_id is None:
            unmatched.append(payment)
    if credits:
        _pledges_credit(credits=[credits[pledge_id] for pledge_id in sorted(credits)], assigned_by=None)
    if organization_id is not None and unmatched:  # another app's account number, e.g. a champion's code
        unmatched = account_references.payments_claim(organization_id=organization_id, payments=unmatched)
    keywords = set(account_keywords_of(organization=organization_id)) if organization_id and unmatched else set()
    near = {payment.pk: codes.near_codes(payment.account_reference) for payment in unmatched}
    wanted_near = set().union(*near.values())
    campaigns_of: defaultdict[str, set[int]] = defaultdict(set)
    for code, campaign_id in (
        pledges.filter(code__in=wanted_near).values_list("code", "campaign_id") if wanted_near else []
    ):
        campaigns_of[code].add(campaign_id)
    for payment in unmatched:
        if keyword_normalize(payment.account_reference) in keywords:
            # A tithe or an offering on the church's paybill: kept, never listed as unmatched.
            payment.set_aside = Payment.SetAside.KEYWORD
            listed.append(payment)
            continue
        # Unmatched. When the account number is one typo away from codes of a single campaign, it is
        # listed for that campaign's team to assign; otherwise for the teams of the campaigns taking
        # payments into that account (who may set it aside), and for admins.
        campaign_ids = set().union(*(campaigns_of[code] for code in near[payment.pk]))
        if len(campaign_ids) == 1:
            payment.campaign_id = campaign_ids.pop()
            listed.append(payment)
    if listed:
        Payment.objects.bulk_update(listed, ["campaign", "set_aside"], batch_size=BULK_BATCH_SIZE)


def _donation_figures(donation: Donation) -> CampaignFigures:
    """A counted donation's share of its campaign's counters."""
    if donation.counted_at is None:
        return CampaignFigures()
    return CampaignFigures(raised=donation.amount, donors=1)


def _donation_count(donation: Donation) -> None:
    """Add a donation whose payment succeeded to the campaign, once (the payment is locked)."""
    if donation.counted_at is not None:
        return
    donation.counted_at = timezone.now()
    donation.save(update_fields=["counted_at"])
    Payment.objects.filter(pk=donation.payment_id).update(counted_at=donation.counted_at)
    _counters_move(campaign_id=donation.campaign_id, change=_donation_figures(donation))


# Corrections: every one by the campaign's organizer or an admin, with a reason, audited -------------


def pledge_amount_correct(*, pledge_id: int, user: User, amount: int, reason: str) -> Pledge:
    """Change a live pledge's amount (a typo, a pledger's change of mind): never below what is
    paid, nor above the campaign's largest pledge. Its status follows (raising a fully paid
    pledge makes it partly paid again); the totals move by the difference; the pledger is told."""
    with transaction.atomic():
        pledge = pledge_managed_get(
            pledge_id=pledge_id, user=user, permission=Permission.MANAGE_PLEDGES, for_update=True
        )
        _ensure_live(pledge)
        reason = _reason_clean(reason)
        _hand_change_count(pledge)
        message = None
        if not 1 <= amount <= AMOUNT_MAX:
            message = str(WHOLE_AMOUNT_MESSAGE)
        elif amount < pledge.paid_amount:
            message = _("The amount cannot be less than what is already paid (%(paid)s).") % {
                "paid": format_ksh(pledge.paid_amount)
            }
        elif amount == pledge.amount:
            message = _("This is already the pledge's amount.")
        else:
            message = _ceiling_error(pledge.campaign, amount)
        if message:
            raise FieldValidationError(_("Please correct the errors below"), field_errors={"amount": message})
        figures = pledge.campaign_figures()
        before = {"amount": pledge.amount, "status": pledge.status}
        pledge.amount = amount
        _status_settle(pledge, by=user)
        pledge.save(update_fields=["amount", "status", "confirmed_at", "confirmed_by"])
        _counters_move(campaign_id=pledge.campaign_id, change=pledge.campaign_figures() - figures)
        audit_record(
            actor=user,
            action=AuditAction.PLEDGE_CORRECTED,
            target=pledge,
            before=before,
            after={"amount": pledge.amount, "status": pledge.status, "reason": reason},
        )
        _changed(pledge, "corrected")
    return pledge


def _unreversed_links(pledge: Pledge) -> list[PledgePayment]:
    """The links of the payments that count towards ``pledge`` (not reversed), payments locked."""
    return list(
        PledgePayment.objects.select_for_update(of=("self", "payment"))
        .select_related("payment")
        .filter(pledge=pledge, payment__reversal__isnull=True)
        .order_by("pk")
    )


def pledge_cancel(
    *, pledge_id: int, user: User, reason: str, payments_to: str = "", to_pledge_id: int | None = None
) -> Pledge:
    """Cancel a live pledge: it leaves the pledged totals, the summary and the reminders. The
    money paid towards it stays in the books: with ``payments_to="pledge"`` its payments count
    towards the live pledge ``to_pledge_id`` of the same campaign instead; with ``"gift"`` each
    becomes a donation by the same giver. A pledge with payments needs one of the two."""
    reason = _reason_clean(reason)
    pledge = pledge_managed_get(pledge_id=pledge_id, user=user, permission=Permission.MANAGE_PLEDGES)
    _hand_change_count(pledge)
    with transaction.atomic():
        # The payments first, then the pledges (by id): the order credits and reversals lock them in.
        links = _unreversed_links(pledge)
        target = None
        if links and payments_to == "pledge":
            target = Pledge.objects.filter(pk=to_pledge_id or 0, campaign_id=pledge.campaign_id).first()
            if target is None or target.pk == pledge.pk or not target.is_live:
                raise FieldValidationError(
                    _("Please correct the errors below"),
                    field_errors={"to_pledge_id": _("Please choose another live pledge of this campaign.")},
                )
        elif links and payments_to != "gift":
            raise FieldValidationError(
                _("Please correct the errors below"),
                field_errors={
                    "payments_to": _("This pledge has payments: move them to another pledge or keep them as a gift.")
                },
            )
        locked = {
            locked_pledge.pk: locked_pledge
            for locked_pledge in Pledge.objects.select_for_update()
            .filter(pk__in=[pledge.pk] + ([target.pk] if target else []))
            .order_by("pk")
        }
        pledge, target = locked[pledge.pk], locked.get(target.pk) if target else None
        _ensure_live(pledge)
        if target is not None and not target.is_live:
            raise ServiceError(_("This pledge is cancelled. Restore it first."), code="pledge_cancelled")
        moved = sum(link.payment.amount for link in links)
        figures = pledge.campaign_figures()
        before = {"amount": pledge.amount, "status": pledge.status, "paid_amount": pledge.paid_amount}
        pledge.cancelled_at, pledge.cancelled_by, pledge.cancel_reason = timezone.now(), user, reason
        pledge.paid_amount -= moved
        _status_settle(pledge, by=None)
        pledge.save(
            update_fields=[
                "cancelled_at",
                "cancelled_by",
                "cancel_reason",
                "paid_amount",
                "status",
                "confirmed_at",
                "confirmed_by",
            ]
        )
        change = pledge.campaign_figures() - figures
        if target is not None:
            target_figures = target.campaign_figures()
            PledgePayment.objects.filter(pk__in=[link.pk for link in links]).update(pledge=target, assigned_by=user)
            target.paid_amount += moved
            _status_settle(target, by=user)
            target.save(update_fields=["paid_amount", "status", "confirmed_at", "confirmed_by"])
            change += target.campaign_figures() - target_figures
            _changed(target, "payments_moved")
        for link in links if payments_to == "gift" else []:
            # The payment's link goes; the audit entry below keeps which payments it held.
            link.delete()
            donation = Donation.objects.create(
                campaign_id=pledge.campaign_id,
                payment=link.payment,
                amount=link.payment.amount,
                name=pledge.name,
                email=pledge.email,
                phone=pledge.phone,
                is_anonymous=pledge.is_anonymous,
                language=pledge.language,
                counted_at=link.payment.counted_at,
            )
            change += _donation_figures(donation)
        _counters_move(campaign_id=pledge.campaign_id, change=change)
        audit_record(
            actor=user,
            action=AuditAction.PLEDGE_CANCELLED,
            target=pledge,
            before=before,
            after={
                "reason": reason,
                "paid_amount": pledge.paid_amount,
                "payments": [link.payment.reference for link in links],
                "payments_to": (target.code if target else "gift") if links else "",
            },
        )
        _changed(pledge, "cancelled")
    return pledge


def pledge_restore(*, pledge_id: int, user: User, reason: str) -> Pledge:
    """Undo a cancellation: the pledge counts again, as it stands (payments moved away or kept as
    gifts when it was cancelled stay where they went)."""
    reason = _reason_clean(reason)
    with transaction.atomic():
        pledge = pledge_managed_get(
            pledge_id=pledge_id, user=user, permission=Permission.MANAGE_PLEDGES, for_update=True
        )
        if pledge.is_live:
            raise ServiceError(_("This pledge is not cancelled."), code="pledge_live")
        _hand_change_count(pledge)
        before = {"cancelled_at": pledge.cancelled_at, "cancel_reason": pledge.cancel_reason}
        pledge.cancelled_at, pledge.cancelled_by, pledge.cancel_reason = None, None, ""
        pledge.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
        _counters_move(campaign_id=pledge.campaign_id, change=pledge.campaign_figures())
        audit_record(
            actor=user,
            action=AuditAction.PLEDGE_RESTORED,
            target=pledge,
            before=before,
            after={"amount": pledge.amount, "status": pledge.status, "reason": reason},
        )
        _changed(pledge, "restored")
    return pledge


def payments_record_reversed(*, payments: list[Payment]) -> None:
    """Take back what reversed payments counted (the ``payments_reversed`` receiver, inside the reversing
    transaction with the payments locked), in a number of queries that does not grow with theirs: their
    pledges' paid amounts and statuses, or their donations; the campaigns' counters move with them, and
    each pledger told of a reversed credit hears once (one never told of it is not told of its reversal)."""
    links = PledgePayment.objects.filter(payment__in=payments).values_list("payment_id", "pledge_id")
    pledge_of = dict(links)
    pledges = {
        pledge.pk: pledge
        for pledge in Pledge.objects.select_for_update().filter(pk__in=set(pledge_of.values())).order_by("pk")
    }
    change: defaultdict[int, CampaignFigures] = defaultdict(CampaignFigures)
    confirmed_before = {pledge.pk: (pledge.confirmed_at, pledge.confirmed_by_id) for pledge in pledges.values()}
    figures = {pledge.pk: pledge.campaign_figures() for pledge in pledges.values()}
    told: set[int] = set()  # the pledges whose pledger was told of a reversed credit (sent its receipt)
    for payment in payments:
        if payment.pk in pledge_of:
            pledges[pledge_of[payment.pk]].paid_amount -= payment.amount
            if payment.notify_payer:
                told.add(pledge_of[payment.pk])
    for pledge in pledges.values():
        _status_settle(pledge, by=None)
        change[pledge.campaign_id] += pledge.campaign_figures() - figures[pledge.pk]
        if pledge.pk in told:
            _changed(pledge, "payment_reversed")
    _pledges_payments_write(list(pledges.values()), confirmed_before=confirmed_before)
    donations = list(
        Donation.objects.filter(payment__in=[payment for payment in payments if payment.pk not in pledge_of])
        .filter(counted_at__isnull=False)
        .order_by("pk")
    )
    for donation in donations:
        figures_before = _donation_figures(donation)
        donation.counted_at = None
        change[donation.campaign_id] += _donation_figures(donation) - figures_before
    Donation.objects.filter(pk__in=[donation.pk for donation in donations]).update(counted_at=None)
    _campaigns_move(change)


def payment_record_succeeded(*, payment: Payment) -> None:
    """What a succeeded payment means here; runs inside its crediting transaction, payment locked.

    A donation's payment counts the donation (if the donation is not recorded yet, because the
    callback beat ``donation_create``, that function counts it). A pledge payment is matched by
    its account reference. Other purposes are none of this app's business.
    """
    if payment.purpose == Payment.Purpose.DONATION:
        donation = Donation.objects.filter(payment=payment).first()
        if donation is not None:
            _donation_count(donation)
    elif payment.purpose == Payment.Purpose.PLEDGE_PAYMENT:
        _pledge_payments_match([payment])


def payments_record_succeeded(*, payments: list[Payment]) -> None:
    """``payment_record_succeeded`` for many payments at once (the ``payments_succeeded`` receiver): the
    pledge payments matched together, in a number of queries that does not grow with theirs."""
    _pledge_payments_match([payment for payment in payments if payment.purpose == Payment.Purpose.PLEDGE_PAYMENT])
    for payment in payments:
        if payment.purpose != Payment.Purpose.PLEDGE_PAYMENT:
            payment_record_succeeded(payment=payment)


# Donations ---------------------------------------------------------------------------------


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
    """Start paying a donation by M-Pesa (``mpesa``) or card checkout (``card``). M-Pesa is a PIN
    prompt to the campaign's connected paybill or till; without one, a pending payment whose
    reference the donor gives when paying as the campaign's instructions say. A card payment
    settles to the organization's bank account that takes cards; without one it is refused.

    The amount is whole shillings above 0 ('Please enter a valid donation amount'); unless
    anonymous, name and e-mail are required ('Please fill in your name and email'); M-Pesa
    needs a Kenyan phone, a card an e-mail for the receipt. The donation counts towards the
    campaign's raised total and donors only once its payment succeeds. The same
    ``idempotency_key`` again returns the same donation.
    """
    challenges.address_limit_enforce(
        scope="donation", address=client_ip, limit=settings.RATE_LIMIT_DONATION, solution=challenge_solution
    )
    campaign = campaign_get(campaign_id=campaign_id, user=viewer)
    _ensure_open(campaign, refusals=DONATION_REFUSALS)
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
    elif phone and (message := validators.check_kenyan_phone(phone)):
        errors["phone"] = message
    if errors:
        raise FieldValidationError(details[0] if details else _("Please correct the errors below"), field_errors=errors)
    assert whole is not None
    _giving_contact_limits_enforce(scope="donation", phone=phone, email=email, viewer=viewer)

    # The provider is asked outside any transaction; its callback may even come before the
    # donation row below exists, which is why that row is counted here when it does.
    if method == "card":
        payment = payment_checkout_start(
            purpose=Payment.Purpose.DONATION,
            amount=whole,
            email=email,
            user=viewer,
            campaign=campaign,
            idempotency_key=idempotency_key,
            return_path=return_path or f"/campaign/{campaign.pk}",
            collection_account=campaign_card_account(campaign=campaign),
        )
    elif (account := campaign_stk_account(campaign=campaign)) is not None:
        payment_stk_push_limit_enforce(phone=phone, client_ip=client_ip)
        payment = payment_stk_push_start(
            purpose=Payment.Purpose.DONATION,
            amount=whole,
            phone=phone,
            user=viewer,
            campaign=campaign,
            payer_email=email,
            idempotency_key=idempotency_key,
            collection_account=account,
        )
    else:
        # No account takes PIN prompts: the donor pays as the instructions say, with the
        # payment's reference; the gift counts once that payment is matched.
        payment = payment_instructed_intent_create(
            purpose=Payment.Purpose.DONATION,
            amount=whole,
            phone=phone,
            user=viewer,
            campaign=campaign,
            payer_email=email,
            idempotency_key=idempotency_key,
        )
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
    details: dict[str, Any] = {"name": name, "email": "", "phone": phone, "is_anonymous": is_anonymous}
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
    *, payment: Payment, campaign: Campaign, amount: int, recorded_by: User | None, details: dict[str, Any]
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
    MpesaStandingOrder.objects.filter(account_reference__in=codes_paid).update(phone="")
    pledges_made_by(user=user).update(**anonymous)
    donations_made_by(user=user).update(**anonymous)


# Instalment plans ----------------------------------------------------------------------------


def _plan_errors(*, pledge: Pledge, terms: instalments.PlanTerms, backdating: bool) -> dict[str, str]:
    """What is wrong with ``terms`` for ``pledge`` (saved or not), by field: instalment,
    frequency, first_due_on."""
    errors: dict[str, str] = {}
    if not 1 <= terms.instalment <= pledge.amount:
        errors["instalment"] = _("Please enter a whole amount from Ksh 1 to the pledge's %(amount)s.") % {
            "amount": format_ksh(pledge.amount)
        }
    elif instalments.instalment_count(total=pledge.amount, instalment=terms.instalment) > instalments.MAX_INSTALMENTS:
        errors["instalment"] = _("Please choose a larger instalment: at most %(count)s instalments.") % {
            "count": instalments.MAX_INSTALMENTS
        }
    if terms.frequency not in set(instalments.Frequency):
        errors["frequency"] = _("Please choose weekly or monthly.")
    if not backdating and terms.first_due_on < timezone.localdate():
        errors["first_due_on"] = _("The first instalment cannot fall due in the past.")
    if errors:
        return errors
    last = instalments.schedule(
        total=pledge.amount,
        instalment=terms.instalment,
        frequency=instalments.Frequency(terms.frequency),
        first_due_on=terms.first_due_on,
    )[-1]
    campaign = pledge.campaign
    latest = instalments.latest_last_due_on(end_date=campaign.end_date, past_end_allowed=campaign.instalments_past_end)
    if last.due_on > latest:
        errors["first_due_on" if last.number == 1 else "instalment"] = _(
            "The plan must end by %(date)s; this one ends on %(last)s. Choose larger instalments or an earlier start."
        ) % {"date": date_format(latest, "j F Y"), "last": date_format(last.due_on, "j F Y")}
    return errors


def _plan_save(*, pledge: Pledge, terms: instalments.PlanTerms, set_by: User | None) -> InstalmentPlan:
    """Set or replace ``pledge``'s plan, inside the caller's transaction, the pledge locked. A
    fully paid or cancelled pledge takes none; errors by field (see ``_plan_errors``)."""
    _ensure_live(pledge)
    if pledge.is_confirmed:
        raise ServiceError(_("This pledge is already fully paid."), code="pledge_paid")
    if errors := _plan_errors(pledge=pledge, terms=terms, backdating=set_by is not None):
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    plan, _created = InstalmentPlan.objects.update_or_create(
        pledge=pledge,
        defaults={
            "instalment": terms.instalment,
            "frequency": terms.frequency,
            "first_due_on": terms.first_due_on,
            "set_by": set_by,
            # The order on the payer's phone pays the old terms: they stop it there (the page says how).
            "standing_order": None,
            "updated_at": timezone.now(),
        },
    )
    plan.pledge = pledge
    return plan


def pledge_plan_set_by_code(*, code: str, client_ip: str, terms: instalments.PlanTerms) -> InstalmentPlan:
    """The pledger's plan, set or changed from their pledge page (the code is their capability, as
    for every operation of that page): the first instalment today or later, the last by the
    campaign's end date (or up to 24 months past it, where the campaign allows)."""
    with transaction.atomic():
        found = pledge_get_by_code(code=code, client_ip=client_ip)
        pledge = Pledge.objects.select_for_update().select_related("campaign").get(pk=found.pk)
        return _plan_save(pledge=pledge, terms=terms, set_by=None)


def pledge_plan_set(*, pledge_id: int, user: User, terms: instalments.PlanTerms) -> InstalmentPlan:
    """A treasurer's or owner's plan for a pledge (agreed with its pledger), audited. The first
    instalment may lie in the past: the plan may record an arrangement already running."""
    with transaction.atomic():
        pledge = pledge_managed_get(
            pledge_id=pledge_id, user=user, permission=Permission.MANAGE_PLEDGES, for_update=True
        )
        previous = InstalmentPlan.objects.filter(pledge=pledge).first()
        before = _plan_summary(previous)
        plan = _plan_save(pledge=pledge, terms=terms, set_by=user)
        audit_record(
            actor=user, action=AuditAction.PLEDGE_PLAN_SET, target=pledge, before=before, after=_plan_summary(plan)
        )
    return plan


# Paying a plan automatically: an M-Pesa Ratiba standing order -----------------------------------

# A prompt not answered in this long has lapsed on the phone: a new order may be asked for.
STANDING_ORDER_PROMPT_LAPSES = timedelta(minutes=5)
STANDING_ORDER_DESCRIPTION = "Pledge"


def _standing_order_name(*, code: str, phone: str) -> str:
    """Unique among the payer's standing orders (Ratiba refuses a second of the same name)."""
    base = f"Pledge {code}"
    earlier = MpesaStandingOrder.objects.filter(phone=phone, name__startswith=base).count()
    return f"{base} ({earlier + 1})" if earlier else base


def pledge_standing_order_start(*, code: str, phone: str, client_ip: str) -> InstalmentPlan:
    """'Pay automatically with M-Pesa' on the pledge's page: ask the payer (the pledge's phone unless
    ``phone``) to approve a standing order for the instalments left, the pledge code as account, on
    the plan's dates. Offered only for an equal-instalment plan on time, to a campaign paid into a
    connected paybill with Ratiba enabled (``pledge_standing_order_account``); 400 otherwise. The
    callback makes the order active or failed; a refused one leaves the plan to be paid by hand.
    Limited like 'Pay now' (prompts per pledge, phone and address)."""
    found = pledge_get_by_code(code=code, client_ip=client_ip)
    phone = _clean(phone) or found.phone
    if message := validators.check_kenyan_phone(phone):
        raise FieldValidationError(_("Please correct the errors below"), field_errors={"phone": message})
    phone = validators.normalize_kenyan_phone(phone)
    ratelimit.enforce(
        scope="pledge-stk-push", identifiers=[found.code, phone[-9:]], limit=settings.RATE_LIMIT_PLEDGE_STK_PUSH
    )
    payment_stk_push_limit_enforce(phone=phone, client_ip=client_ip)
    with transaction.atomic():
        pledge = Pledge.objects.select_for_update().select_related("campaign").get(pk=found.pk)
        _ensure_live(pledge)
        plan = (
            InstalmentPlan.objects.select_for_update(of=("self",))
            .select_related("standing_order")
            .filter(pledge=pledge)
            .first()
        )
        if plan is None:
            raise ServiceError(_("Choose an instalment plan first."), code="plan_missing")
        plan.pledge = pledge
        order = plan.standing_order
        if order is not None and order.status == MpesaStandingOrder.Status.ACTIVE:
            raise ServiceError(_("This plan is already paid automatically."), code="standing_order_active")
        if (
            order is not None
            and order.status == MpesaStandingOrder.Status.PENDING
            and timezone.now() - order.created_at < STANDING_ORDER_PROMPT_LAPSES
        ):
            raise ServiceError(
                _("Approve the standing order on your phone with your M-Pesa PIN."), code="standing_order_pending"
            )
        account = pledge_standing_order_account(pledge=pledge)
        left = instalments.automatic_instalments(
            instalments=plan.schedule(), paid=pledge.paid_amount, today=timezone.localdate()
        )
        if account is None or not left:
            raise ServiceError(
                _("Paying automatically with M-Pesa is not offered for this plan."), code="standing_order_unavailable"
            )
        order = standing_order_record(
            account=account,
            terms=StandingOrderTerms(
                name=_standing_order_name(code=pledge.code, phone=phone),
                phone=phone,
                amount=plan.instalment,
                frequency=plan.frequency,
                start_on=left[0].due_on,
                end_on=left[-1].due_on,
                account_reference=pledge.code,
                description=STANDING_ORDER_DESCRIPTION,
            ),
        )
        plan.standing_order = order
        plan.save(update_fields=["standing_order"])
    standing_order_send(order=order, description=STANDING_ORDER_DESCRIPTION)
    return plan


def _plan_summary(plan: InstalmentPlan | None) -> dict[str, object]:
    if plan is None:
        return {}
    return {"instalment": plan.instalment, "frequency": plan.frequency, "first_due_on": plan.first_due_on.isoformat()}
