"""What a person gave, read across organizations and channels, and the statements made of it.

**Whose is what.** A pledge or gift is the signed-in person's when it was made signed in (the pledge's
account, the gift's payment's account), or, once their account's phone number has proved itself by a
code (``User.verified_phone``, as claiming a phone pledge asks), when it was made from or for that
number and is held by no other account: USSD and SMS pledges, pledge cards and gifts typed at an
event's desk, M-Pesa gifts. The number's owner already receives every message about these. An e-mail
address finds nothing: Harambee has never proved an account's address is its holder's, and anyone
may type anyone's address on a campaign's page. A pledge or gift signed into by another account is
never shown to the number's owner.

**Who a giver is**, for an organization's statements: as the figures count people (``pledges.models._person``),
by phone number, else e-mail address (any case), else account; a gift with none of them is nobody
a statement can reach.
"""

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime

from django.conf import settings
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from common.errors import NotFoundError, PermissionDeniedError
from giving.models import StatementRun
from organizations.models import Membership, Organization
from organizations.roles import Permission
from organizations.selectors import membership_of
from payments.models import Payment
from pledges import instalments
from pledges.models import DELETED_USER_NAME, Donation, Pledge, PledgeChannel, PledgePayment


def _pledges_of(user: User) -> QuerySet[Pledge]:
    mine = Q(user=user)
    if user.verified_phone:
        mine |= Q(phone=user.verified_phone, user__isnull=True)
    return Pledge.objects.live().filter(mine)


def _gifts_of(user: User) -> QuerySet[Donation]:
    mine = Q(payment__user=user)
    if user.verified_phone:
        number = Q(phone=user.verified_phone) | Q(payment__payer_phone=user.verified_phone)
        mine |= number & Q(payment__user__isnull=True)
    return Donation.objects.filter(mine)


def _counted() -> Q:
    """A payment that counts: succeeded and not reversed."""
    return Q(status=Payment.Status.SUCCEEDED, reversed_at__isnull=True)


@dataclass(frozen=True)
class GivingPledge:
    pledge: Pledge
    next_instalment: instalments.Instalment | None
    due_now: int
    pays_automatically: bool
    pay_url: str

    @property
    def claimable(self) -> bool:
        """Made by phone and held by no account: ``POST /api/my-pledges/claim`` makes it the person's."""
        return self.pledge.user_id is None and self.pledge.channel in (PledgeChannel.USSD, PledgeChannel.SMS)


@dataclass(frozen=True)
class PersonGiving:
    verified_phone: str
    pledges: list[GivingPledge]
    gifts: list[Donation]
    years: list[int]


def _next_instalment(pledge: Pledge) -> instalments.Instalment | None:
    plan = pledge.plan
    if plan is None or not pledge.remaining_amount:
        return None
    plan.pledge = pledge
    return next((step for step in plan.schedule() if step.due_by_then > pledge.paid_amount), None)


def giving_for_person(*, user: User, today: date | None = None) -> PersonGiving:
    """Every live pledge and every counted gift of ``user`` (see the module's rules), newest first,
    each with its campaign and organization; a pledge with what is paid, due now and its next
    instalment. Three queries, however many there are."""
    today = today or timezone.localdate()
    pledges = list(
        _pledges_of(user)
        .select_related("campaign__organization", "instalment_plan__standing_order")
        .order_by("-created_at", "-id")
    )
    gifts = list(
        _gifts_of(user)
        .filter(payment__status=Payment.Status.SUCCEEDED, payment__reversed_at__isnull=True)
        .select_related("campaign__organization", "payment")
        .order_by("-created_at", "-id")
    )
    return PersonGiving(
        verified_phone=user.verified_phone,
        pledges=[
            GivingPledge(
                pledge=pledge,
                next_instalment=_next_instalment(pledge),
                due_now=pledge.amount_due(today),
                pays_automatically=pledge.plan is not None and pledge.plan.pays_automatically,
                pay_url=f"/pledges/{pledge.code}",
            )
            for pledge in pledges
        ],
        gifts=gifts,
        years=_years_of(user),
    )


def _years_of(user: User) -> list[int]:
    """The years in which ``user`` paid something (their statements' choice), newest first. One query."""
    pledges = _pledges_of(user).values("pk")
    gifts = _gifts_of(user).values("payment_id")
    payments = (
        Payment.objects.filter(_counted())
        .filter(Q(pledge_link__pledge__in=pledges) | Q(pk__in=gifts))
        .annotate(on=Coalesce("received_at", "counted_at", "created_at"))
        .dates("on", "year", order="DESC")
    )
    return [moment.year for moment in payments]


# Statements ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StatementLine:
    given_on: date
    campaign: str
    is_pledge: bool
    provider: str  # Payment.Provider: its label is shown in the statement's language
    mpesa_receipt: str
    receipt_number: str
    amount: int


@dataclass(frozen=True)
class StatementSection:
    organization: Organization
    lines: list[StatementLine]

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.lines)


@dataclass(frozen=True)
class Statement:
    name: str
    contact: str
    year: int
    sections: list[StatementSection]

    @property
    def total(self) -> int:
        return sum(section.total for section in self.sections)


def _given_on(payment: Payment) -> date:
    moment: datetime = payment.received_at or payment.counted_at or payment.created_at
    return timezone.localdate(moment)


def _line(payment: Payment, *, campaign: str, is_pledge: bool) -> StatementLine:
    return StatementLine(
        given_on=_given_on(payment),
        campaign=campaign,
        is_pledge=is_pledge,
        provider=payment.provider,
        mpesa_receipt=payment.mpesa_receipt or "",
        receipt_number=payment.receipt_number or "",
        amount=payment.amount,
    )


def _pledge_payments(queryset: QuerySet[PledgePayment], year: int) -> QuerySet[PledgePayment]:
    return (
        queryset.annotate(given_on=Coalesce("payment__received_at", "payment__counted_at", "payment__created_at"))
        .filter(payment__status=Payment.Status.SUCCEEDED, payment__reversed_at__isnull=True, given_on__year=year)
        .select_related("payment", "pledge__campaign__organization", "payment__user")
    )


def _gift_payments(queryset: QuerySet[Donation], year: int) -> QuerySet[Donation]:
    return (
        queryset.annotate(given_on=Coalesce("payment__received_at", "payment__counted_at", "payment__created_at"))
        .filter(payment__status=Payment.Status.SUCCEEDED, payment__reversed_at__isnull=True, given_on__year=year)
        .select_related("payment", "campaign__organization", "payment__user")
    )


def _sections(lines: list[tuple[Organization, StatementLine]]) -> list[StatementSection]:
    by_organization: dict[int, tuple[Organization, list[StatementLine]]] = {}
    for organization, line in lines:
        by_organization.setdefault(organization.pk, (organization, []))[1].append(line)
    return [
        StatementSection(organization=organization, lines=sorted(found, key=lambda line: line.given_on))
        for organization, found in sorted(by_organization.values(), key=lambda pair: pair[0].name)
    ]


def statement_for_person(*, user: User, year: int) -> Statement:
    """``user``'s payments towards their pledges and their gifts in ``year`` (Nairobi's calendar),
    per organization. Two queries."""
    lines: list[tuple[Organization, StatementLine]] = [
        (link.pledge.campaign.organization, _line(link.payment, campaign=link.pledge.campaign.title, is_pledge=True))
        for link in _pledge_payments(PledgePayment.objects.filter(pledge__in=_pledges_of(user)), year)
    ]
    lines += [
        (gift.campaign.organization, _line(gift.payment, campaign=gift.campaign.title, is_pledge=False))
        for gift in _gift_payments(_gifts_of(user), year)
    ]
    return Statement(
        name=user.full_name or user.display_name,
        contact=user.verified_phone or user.email,
        year=year,
        sections=_sections(lines),
    )


@dataclass
class Giver:
    """One person who gave to an organization in a year, with their statement's lines and where to send it."""

    key: str
    name: str = ""
    email: str = ""
    phone: str = ""
    language: str = ""
    lines: list[StatementLine] = field(default_factory=list)

    @property
    def digest(self) -> str:
        return giver_digest(self.key)

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.lines)

    def statement(self, *, organization: Organization, year: int) -> Statement:
        return Statement(
            name=self.name,
            contact=self.phone or self.email,
            year=year,
            sections=[
                StatementSection(organization=organization, lines=sorted(self.lines, key=lambda line: line.given_on))
            ],
        )


def giver_digest(key: str) -> str:
    return hashlib.sha256(f"{settings.SECRET_KEY}:giver:{key}".encode()).hexdigest()


def _giver_key(*, phone: str, email: str, payment: Payment) -> str:
    if phone:
        return f"phone:{phone}"
    if email:
        return f"email:{email.lower()}"
    if payment.user_id is not None:
        return f"account:{payment.user_id}"
    return f"gift:{payment.pk}"  # nobody to send it to: one of the preview's unreachable givers


def organization_givers(*, organization: Organization, year: int) -> list[Giver]:
    """Everyone who paid ``organization`` something in ``year`` towards a pledge or as a gift, one
    ``Giver`` per person (phone, else e-mail in any case, else account), by name; a gift of nobody anyone
    can reach (cash at the desk without a number) is a giver of its own, without contact. Two queries."""
    givers: dict[str, Giver] = defaultdict(lambda: Giver(key=""))
    links = _pledge_payments(PledgePayment.objects.filter(pledge__campaign__organization=organization), year)
    rows: list[tuple[str, str, str, str, Payment, str, bool]] = [
        (
            link.pledge.phone,
            link.pledge.email,
            link.pledge.name,
            link.pledge.language,
            link.payment,
            link.pledge.campaign.title,
            True,
        )
        for link in links.order_by("pk")
    ]
    gifts = _gift_payments(Donation.objects.filter(campaign__organization=organization), year)
    rows += [
        (gift.phone, gift.email, gift.name, gift.language, gift.payment, gift.campaign.title, False)
        for gift in gifts.order_by("pk")
    ]
    for phone, email, name, language, payment, campaign, is_pledge in rows:
        key = _giver_key(phone=phone, email=email, payment=payment)
        giver = givers[key]
        giver.key = key
        giver.name = giver.name or ("" if name == DELETED_USER_NAME else name)
        giver.email = giver.email or email or (payment.user.email if payment.user else "")
        giver.phone = giver.phone or phone
        giver.language = giver.language or language
        giver.lines.append(_line(payment, campaign=campaign, is_pledge=is_pledge))
    return sorted(givers.values(), key=lambda giver: (giver.name.lower(), giver.key))


def organization_giver(*, organization: Organization, year: int, digest: str) -> Giver | None:
    """The giver of ``organization`` in ``year`` whose digest begins with ``digest`` (a statement link's)."""
    return next(
        (
            giver
            for giver in organization_givers(organization=organization, year=year)
            if giver.digest.startswith(digest)
        ),
        None,
    )


def statement_run_get(*, organization: Organization, run_id: int) -> StatementRun:
    run = StatementRun.objects.filter(organization=organization, pk=run_id).first() if 1 <= run_id < 2**63 else None
    if run is None:
        raise NotFoundError(_("Not found."), code="not_found")
    return run


def statement_runs(*, organization: Organization) -> list[StatementRun]:
    return list(StatementRun.objects.filter(organization=organization).order_by("-created_at", "-id")[:20])


def statement_sender(*, user: User, organization_id: int) -> Membership:
    """``user``'s membership when it may send statements (owners, treasurers): 404 outside, 403 within."""
    membership = membership_of(user=user, organization_id=organization_id)
    if not membership.allows(Permission.SEND_STATEMENTS):
        raise PermissionDeniedError(
            _("Only the organization's owners and treasurers can send statements."), code="not_treasurer"
        )
    return membership
