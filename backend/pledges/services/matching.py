"""Matching payments to pledges and donations, and the counters they move (the ``payment_succeeded`` side)."""

from collections import defaultdict
from collections.abc import Mapping
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import Case, F, OuterRef, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from campaigns.caching import campaign_changed
from campaigns.selectors import campaign_managed_get
from collection_accounts.selectors import account_keywords_of
from collection_accounts.validators import keyword_normalize
from common.errors import NotFoundError, ServiceError
from organizations.roles import Permission
from payments.models import Payment, PaymentReversal
from payments.services import (
    BULK_BATCH_SIZE,
    payment_record_manual,
    payments_attribute,
    payments_attribute_where,
)
from pledges import account_references, codes, signals
from pledges.models import (
    CampaignFigures,
    Donation,
    Pledge,
    PledgePayment,
)
from pledges.selectors import (
    pledge_managed_get,
    unmatched_payments,
)
from pledges.services.core import _counters_move, _status_settle
from pledges.services.paying import _ensure_live


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
        payments_attribute(payments=[payment], fields=["set_aside"])
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
    payments_attribute_where(
        payment_ids=[payment.pk for payment in payments],
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
        payments_attribute(payments=listed, fields=["campaign", "set_aside"])


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
    payments_attribute_where(payment_ids=[donation.payment_id], counted_at=donation.counted_at)
    _counters_move(campaign_id=donation.campaign_id, change=_donation_figures(donation))


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
