"""Pledging: from the web, a phone (USSD, SMS) and the desk; claiming pledges made before signing up."""

from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from accounts import validators
from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from campaigns.models import Campaign
from campaigns.selectors import campaign_get
from common import challenges
from common.errors import FieldValidationError, NotFoundError
from common.languages import current_language
from pledges import codes, instalments, signals
from pledges.models import (
    InstalmentPlan,
    Pledge,
    PledgeChannel,
)
from pledges.selectors import (
    pledges_claimable_by,
)
from pledges.services.core import (
    CODE_ATTEMPTS,
    NAME_MAX_LENGTH,
    _ceiling_error,
    _clean,
    _counters_move,
    _ensure_open,
    _giving_contact_limits_enforce,
    _whole_amount,
)
from pledges.services.plans import _plan_errors

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


def _campaign_open_for_giving(
    *, scope: str, campaign_id: int, viewer: User | None, client_ip: str, challenge_solution: str
) -> Campaign:
    """The campaign a visitor pledges to (``scope`` "pledge") or gives to ("donation"), once the
    per-address limit lets them through (``RATE_LIMIT_PLEDGE`` or ``RATE_LIMIT_DONATION``, past which
    ``challenge_solution`` does: common/challenges.py) and the campaign is open for it."""
    pledging = scope == "pledge"
    limit = settings.RATE_LIMIT_PLEDGE if pledging else settings.RATE_LIMIT_DONATION
    challenges.address_limit_enforce(scope=scope, address=client_ip, limit=limit, solution=challenge_solution)
    campaign = campaign_get(campaign_id=campaign_id, user=viewer)
    _ensure_open(campaign, refusals=PLEDGE_REFUSALS if pledging else DONATION_REFUSALS)
    return campaign


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
    campaign = _campaign_open_for_giving(
        scope="pledge",
        campaign_id=campaign_id,
        viewer=viewer,
        client_ip=client_ip,
        challenge_solution=challenge_solution,
    )
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
