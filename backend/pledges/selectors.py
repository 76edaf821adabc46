"""Reads of pledges and donations, and what each viewer may see of them.

"Manages" means the viewer may see the campaign's pledges (``Permission.SEE_PLEDGES``: its owners,
treasurers and viewers, and admins): they see pledgers' contact details, codes and payment state;
everyone else sees names only, and 'Anonymous' for anonymous pledges and donations (see
``schemas.PledgeOut.for_viewer``).
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, F, Prefetch, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditEntry
from campaigns.models import Campaign, CampaignStatus
from campaigns.selectors import campaign_accounts, campaign_permission_check
from collection_accounts.models import CollectionAccount
from common.csv_export import csv_cell
from common.errors import NotFoundError
from organizations.roles import Permission
from payments.models import Payment, PaymentEvent
from payments.selectors import standing_order_connection
from pledges import codes
from pledges.instalments import Standing
from pledges.models import Donation, InstalmentPlan, Pledge, PledgePayment, PledgeStatus, shown_giver_name

MAX_SEARCH_LENGTH = 100


def pledge_managed_get(
    *, pledge_id: int, user: User, permission: Permission, denied: str = "", for_update: bool = False
) -> Pledge:
    """The pledge with its campaign if ``user`` has ``permission`` on the campaign or is an admin:
    404 for an unknown id, else 403 (see ``campaign_permission_check``). ``for_update`` locks the
    pledge row until the caller's transaction ends."""
    pledges = Pledge.objects.select_related("campaign")
    if for_update:
        pledges = pledges.select_for_update(of=("self",))
    pledge = pledges.filter(pk=pledge_id).first() if 1 <= pledge_id < 2**63 else None
    if pledge is None:
        raise NotFoundError(_("Pledge not found."), code="not_found")
    campaign_permission_check(campaign=pledge.campaign, user=user, permission=permission, denied=denied)
    return pledge


def _page(queryset: QuerySet[Any], *, page: int, page_size: int) -> tuple[list[Any], int]:
    """One page and the number of rows over all pages: two queries (one past the end)."""
    total = queryset.count()
    offset = (page - 1) * page_size
    if offset >= total:
        return [], total
    return list(queryset[offset : offset + page_size]), total


def pledges_behind_plan(*, campaign: Campaign) -> list[int]:
    """The ids of the campaign's live pledges whose pledger is behind their instalment plan today.
    Worked out from each plan (one query), as standing depends on the day and is stored nowhere."""
    plans = InstalmentPlan.objects.filter(pledge__campaign=campaign, pledge__cancelled_at__isnull=True)
    return [plan.pledge_id for plan in plans.select_related("pledge") if plan.standing().standing == Standing.BEHIND]


def pledge_list(
    *,
    campaign: Campaign,
    manages: bool,
    q: str = "",
    status: str | None = None,
    behind: bool = False,
    page: int = 1,
    page_size: int = 20,
) -> tuple[list[Pledge], int]:
    """A campaign's pledges, newest first, one page, and how many match.

    Managers search names, e-mails, phones and codes and may filter by status, or to those
    behind their instalment plan. Anyone else
    searches the names of pledges that are not anonymous (an anonymous pledger is never found
    by name), and cannot filter by payment state.
    """
    pledges = Pledge.objects.filter(campaign=campaign).newest_first()
    q = q.strip()[:MAX_SEARCH_LENGTH]
    if manages:
        if q:
            match = Q(name__icontains=q) | Q(email__icontains=q) | Q(code=codes.normalize(q))
            # 0722 000 111, 254722000111 and +254722000111 are the same number: search its digits
            # after the country code or trunk zero.
            digits = re.sub(r"\D", "", q).removeprefix("254").lstrip("0")
            if len(digits) >= 3:
                match |= Q(phone__contains=digits)
            pledges = pledges.filter(match)
        if status:
            pledges = pledges.filter(status=status)
        if behind:
            pledges = pledges.filter(pk__in=pledges_behind_plan(campaign=campaign))
    else:
        # A cancelled pledge is off the public page; its organizer still lists it, marked.
        pledges = pledges.live()
        if q:
            pledges = pledges.filter(is_anonymous=False, name__icontains=q)
    return _page(pledges, page=page, page_size=page_size)


def donation_list(*, campaign: Campaign, page: int = 1, page_size: int = 20) -> tuple[list[Donation], int]:
    """A campaign's paid donations, latest first, one page, and how many there are."""
    return _page(Donation.objects.filter(campaign=campaign).paid(), page=page, page_size=page_size)


def unmatched_payments(*, campaign: Campaign, user: User) -> QuerySet[Payment]:
    """Succeeded pledge payments counted towards no pledge nor kept as a gift, not reversed nor set
    aside (an account keyword, 'not for a campaign'): those attributed to the campaign (one typo away
    from its pledge codes, or paid to a cancelled pledge's code), those paid into its accounts that
    nobody could place, and for admins also any other that nobody could place."""
    # Paid into one of the campaign's accounts and placed nowhere: its team sees it, and may set it aside.
    scope = Q(campaign=campaign) | Q(
        campaign__isnull=True, collection_account__in=campaign.account_links.values("account_id")
    )
    if user.is_admin:
        scope |= Q(campaign__isnull=True)
    return Payment.objects.filter(
        scope,
        purpose=Payment.Purpose.PLEDGE_PAYMENT,
        status=Payment.Status.SUCCEEDED,
        set_aside="",
        pledge_link__isnull=True,
        donation__isnull=True,
        reversal__isnull=True,
    ).order_by("-created_at", "-id")


def pledge_summary(*, campaign: Campaign, user: User) -> dict[str, int]:
    """Pledge Management's figures, whole KES: two aggregate queries whatever the number of pledges.

    Over the live pledges (cancelled ones are left out, only counted). Confirmed pledges are the
    fully paid ones; pending covers all others, in two parts a committee reads apart: *not started*
    (nothing paid yet) and *part-paid* (some paid). ``outstanding_sum`` is what the pending ones
    still owe, ``partly_paid_outstanding_sum`` the part-paid ones' share of it.
    """
    confirmed = Q(status=PledgeStatus.CONFIRMED, cancelled_at__isnull=True)
    live = Q(cancelled_at__isnull=True)
    figures: dict[str, int] = Pledge.objects.filter(campaign=campaign).aggregate(
        cancelled_count=Count("pk", filter=~live),
        count=Count("pk", filter=live),
        pledged_sum=Coalesce(Sum("amount", filter=live), 0),
        confirmed_count=Count("pk", filter=confirmed),
        confirmed_sum=Coalesce(Sum("amount", filter=confirmed), 0),
        pending_count=Count("pk", filter=live & ~confirmed),
        pending_sum=Coalesce(Sum("amount", filter=live & ~confirmed), 0),
        not_started_count=Count("pk", filter=live & Q(status=PledgeStatus.PENDING)),
        not_started_sum=Coalesce(Sum("amount", filter=live & Q(status=PledgeStatus.PENDING)), 0),
        partly_paid_count=Count("pk", filter=live & Q(status=PledgeStatus.PARTLY_PAID)),
        partly_paid_sum=Coalesce(Sum("amount", filter=live & Q(status=PledgeStatus.PARTLY_PAID)), 0),
        partly_paid_outstanding_sum=Coalesce(
            Sum(F("amount") - F("paid_amount"), filter=live & Q(status=PledgeStatus.PARTLY_PAID)), 0
        ),
        paid_sum=Coalesce(Sum("paid_amount", filter=live), 0),
        outstanding_sum=Coalesce(Sum(F("amount") - F("paid_amount"), filter=live & ~confirmed), 0),
    )
    figures["unmatched_count"] = unmatched_payments(campaign=campaign, user=user).count()
    return figures


@dataclass
class UnmatchedPayment:
    payment: Payment
    payer_name: str
    suggested_pledge: Pledge | None


def _payer_name(payment: Payment) -> str:
    """The name M-Pesa gave with a paybill payment (the phone number itself comes masked)."""
    for event in getattr(payment, "c2b_confirmations", []):
        body = event.body if isinstance(event.body, dict) else {}
        parts = (str(body.get(key) or "").strip() for key in ("FirstName", "MiddleName", "LastName"))
        return " ".join(part for part in parts if part)
    return ""


def unmatched_payment_list(
    *, campaign: Campaign, user: User, page: int = 1, page_size: int = 50
) -> tuple[list[UnmatchedPayment], int]:
    """Pledge payments of this campaign that matched no pledge, newest first, each with the
    payer's name and the campaign's pledge its account number most likely meant (one typo
    away), if any. Four queries whatever the page size."""
    confirmations = PaymentEvent.objects.filter(
        kind=PaymentEvent.Kind.C2B_CONFIRMATION, outcome=PaymentEvent.Outcome.CREDITED
    )
    payments, total = _page(
        unmatched_payments(campaign=campaign, user=user).prefetch_related(
            Prefetch("events", queryset=confirmations, to_attr="c2b_confirmations")
        ),
        page=page,
        page_size=page_size,
    )
    near = {payment.pk: codes.near_codes(payment.account_reference) for payment in payments}
    wanted = set().union(*near.values())
    pledges = (
        {pledge.code: pledge for pledge in Pledge.objects.filter(campaign=campaign, code__in=wanted)} if wanted else {}
    )
    rows = []
    for payment in payments:
        # Several candidates: leave the choice to the organizer rather than guess.
        candidates = [pledges[code] for code in near[payment.pk] if code in pledges]
        rows.append(
            UnmatchedPayment(
                payment=payment,
                payer_name=_payer_name(payment),
                suggested_pledge=candidates[0] if len(candidates) == 1 else None,
            )
        )
    return rows, total


def pledge_payment_list(*, pledge: Pledge) -> list[Payment]:
    """The payments counted towards a pledge, newest first, with who recorded or assigned them
    and their reversing entries (a reversed payment stays listed, marked)."""
    return list(
        Payment.objects.filter(pledge_link__pledge=pledge)
        .select_related("recorded_by", "pledge_link__assigned_by", "reversal__reversed_by")
        .order_by("-created_at", "-id")
    )


def pledge_history(*, pledge: Pledge) -> list[AuditEntry]:
    """What people did to a pledge and to the payments counted towards it, newest first, from
    the audit log: confirmations, payments recorded, assigned and reversed, corrections,
    cancellations and restorations, each with who, when, before, after and the reason."""
    payment_ids = PledgePayment.objects.filter(pledge=pledge).values("payment_id")
    # By the content types' names (one join) rather than their ids: no cached lookup to go stale.
    references = AuditEntry.objects.filter(
        Q(object_type__app_label="pledges", object_type__model="pledge", object_id=pledge.pk)
        | Q(object_type__app_label="payments", object_type__model="payment", object_id__in=payment_ids)
    )
    return list(references.select_related("actor").order_by("-at", "-id"))


def ministry_campaign_get() -> Campaign:
    """The campaign of the static ministry page: ``MINISTRY_CAMPAIGN_ID``, else the newest active
    campaign titled ``MINISTRY_CAMPAIGN_TITLE``. 404 when there is none or it is not active."""
    campaigns = Campaign.objects.filter(status=CampaignStatus.ACTIVE)
    if settings.MINISTRY_CAMPAIGN_ID:
        campaign = campaigns.filter(pk=settings.MINISTRY_CAMPAIGN_ID).first()
    else:
        campaign = campaigns.filter(title=settings.MINISTRY_CAMPAIGN_TITLE).order_by("-created_at", "-id").first()
    if campaign is None:
        raise NotFoundError(_("Campaign not found"), code="not_found")
    return campaign


# CSV exports ---------------------------------------------------------------------------------


def _when(moment: Any) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M") if moment else ""


def _giver_headings() -> list[str]:
    """The columns both exports begin with: when, who gave (and how to reach them), how much."""
    return [_("Date"), _("Name"), _("Email"), _("Phone"), _("Anonymous"), _("Amount (KES)")]


def pledge_export_rows(*, campaign: Campaign) -> Iterator[list[str | int]]:
    """Every pledge of the campaign with contact details, oldest first, as spreadsheet rows
    (a heading row first). Streams in chunks, so any number of pledges fits in little memory."""
    yes, no = _("Yes"), _("No")
    yield [
        *_giver_headings(),
        _("Paid (KES)"),
        _("Remaining (KES)"),
        _("Status"),
        _("Pledge code"),
        _("Confirmed at"),
        _("Confirmed by"),
        _("Channel"),
    ]
    pledges = Pledge.objects.filter(campaign=campaign).select_related("confirmed_by").order_by("created_at", "id")
    for pledge in pledges.iterator(chunk_size=2000):
        confirmer = pledge.confirmed_by
        yield [
            _when(pledge.created_at),
            csv_cell(shown_giver_name(pledge.name, pledge.phone)),
            csv_cell(pledge.email),
            pledge.phone,
            yes if pledge.is_anonymous else no,
            pledge.amount,
            pledge.paid_amount,
            pledge.remaining_amount,
            str(pledge.get_status_display()),
            pledge.code,
            _when(pledge.confirmed_at),
            csv_cell(confirmer.full_name or confirmer.email) if confirmer else "",
            str(pledge.get_channel_display()),
        ]


def donation_export_rows(*, campaign: Campaign) -> Iterator[list[str | int]]:
    """Every paid donation of the campaign with contact details, oldest first, as spreadsheet rows."""
    yes, no = _("Yes"), _("No")
    yield [
        *_giver_headings(),
        _("Paid with"),
        _("Receipt number"),
        _("M-Pesa receipt"),
    ]
    donations = Donation.objects.filter(campaign=campaign).paid().order_by("counted_at", "id")
    for donation in donations.iterator(chunk_size=2000):
        payment = donation.payment
        yield [
            _when(donation.counted_at),
            csv_cell(shown_giver_name(donation.name)),
            csv_cell(donation.email),
            donation.phone,
            yes if donation.is_anonymous else no,
            donation.amount,
            str(payment.get_provider_display()),
            payment.receipt_number or "",
            payment.mpesa_receipt or "",
        ]


# Anyone may give without signing in, so a pledge or donation is a user's own only when it was
# given while signed in (``Pledge.user``, a donation's ``payment.user``). Never by e-mail address
# or phone number: nobody verified either, so matching by them would hand a stranger's pledges,
# codes and payments to whoever signed up with that address.


def pledges_made_by(*, user: User) -> QuerySet[Pledge]:
    return Pledge.objects.filter(user=user)


def pledges_claimable_by(*, user: User) -> QuerySet[Pledge]:
    """The live pledges made from the user's proven number by phone (USSD or SMS: the mobile network
    gave the number) that no account holds yet: theirs to claim (``pledges_claim``). None while the
    account's number is unproven, and never a web pledge that merely typed the number."""
    if not user.verified_phone:
        return Pledge.objects.none()
    return Pledge.objects.live().filter(phone=user.verified_phone, phone_verified=True, user__isnull=True)


@dataclass(frozen=True)
class AccountPledges:
    pledges: list[Pledge]
    claimable: list[Pledge]


def account_pledges(*, user: User) -> AccountPledges:
    """The user's own pledges and those they may claim, newest first, with their campaigns. Two queries."""
    return AccountPledges(
        pledges=list(pledges_made_by(user=user).select_related("campaign").order_by("-created_at", "-id")),
        claimable=list(pledges_claimable_by(user=user).select_related("campaign").order_by("-created_at", "-id")),
    )


def donations_made_by(*, user: User) -> QuerySet[Donation]:
    return Donation.objects.filter(payment__user=user)


def pledges_personal_data_export(*, user: User) -> dict[str, object]:
    """The user's pledges and donations, for their download (``privacy``)."""
    return {
        "pledges": list(pledges_made_by(user=user).select_related("campaign").order_by("created_at", "id")),
        "donations": list(
            donations_made_by(user=user).select_related("campaign", "payment").order_by("created_at", "id")
        ),
    }


def pledge_standing_order_account(*, pledge: Pledge) -> CollectionAccount | None:
    """The campaign's paybill that takes standing orders (connected, Ratiba enabled), whose
    executions carry the pledge code as their account; None: paying automatically is not offered."""
    return next(
        (
            account
            for account in campaign_accounts(campaign=pledge.campaign)
            if standing_order_connection(account) is not None
        ),
        None,
    )
