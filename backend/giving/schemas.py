from datetime import date, datetime

from ninja import Field, Schema

from giving.models import StatementRun, StatementRunStatus
from giving.selectors import Giver, GivingPledge, PersonGiving
from payments.models import Payment
from pledges.models import Donation, PledgeChannel, PledgeStatus

PDF_OPENAPI = {
    "responses": {200: {"description": "A PDF file.", "content": {"application/pdf": {"schema": {"type": "string"}}}}}
}


class InstalmentOut(Schema):
    due_on: date
    amount: int


class GivingPledgeOut(Schema):
    code: str = Field(description="Its own page (and way to pay) is /pledges/{code}.")
    campaign_id: int
    campaign_title: str
    organization_name: str
    channel: PledgeChannel = Field(description="Where it was made: web, ussd, sms or desk.")
    amount: int
    paid_amount: int
    remaining_amount: int
    due_now: int = Field(description="What is due today: the instalment due or overdue, else all that is left.")
    next_instalment: InstalmentOut | None = Field(description="The first instalment not yet covered, on a plan.")
    pays_automatically: bool = Field(description="An M-Pesa standing order (Ratiba) pays its instalments.")
    status: PledgeStatus
    is_anonymous: bool = Field(description="Hidden from the public; always shown to its giver.")
    claimable: bool = Field(description="Made by phone and held by no account: POST /api/my-pledges/claim.")
    pay_url: str = Field(description="The pledge's own page, where it is paid.")
    created_at: datetime

    @classmethod
    def of(cls, item: GivingPledge) -> "GivingPledgeOut":
        pledge = item.pledge
        step = item.next_instalment
        return cls(
            code=pledge.code,
            campaign_id=pledge.campaign_id,
            campaign_title=pledge.campaign.title,
            organization_name=pledge.campaign.organization.name,
            channel=PledgeChannel(pledge.channel),
            amount=pledge.amount,
            paid_amount=pledge.paid_amount,
            remaining_amount=pledge.remaining_amount,
            due_now=item.due_now,
            next_instalment=InstalmentOut(due_on=step.due_on, amount=step.amount) if step else None,
            pays_automatically=item.pays_automatically,
            status=PledgeStatus(pledge.status),
            is_anonymous=pledge.is_anonymous,
            claimable=item.claimable,
            pay_url=item.pay_url,
            created_at=pledge.created_at,
        )


class GivingGiftOut(Schema):
    campaign_id: int
    campaign_title: str
    organization_name: str
    amount: int
    method: Payment.Provider = Field(description="How it was paid: mpesa_stk, mpesa_c2b, card, cash, bank, …")
    mpesa_receipt: str
    receipt_number: str
    is_anonymous: bool = Field(description="Hidden from the public; always shown to its giver.")
    given_at: datetime

    @classmethod
    def of(cls, gift: Donation) -> "GivingGiftOut":
        payment = gift.payment
        return cls(
            campaign_id=gift.campaign_id,
            campaign_title=gift.campaign.title,
            organization_name=gift.campaign.organization.name,
            amount=gift.amount,
            method=Payment.Provider(payment.provider),
            mpesa_receipt=payment.mpesa_receipt or "",
            receipt_number=payment.receipt_number or "",
            is_anonymous=gift.is_anonymous,
            given_at=payment.received_at or gift.counted_at or gift.created_at,
        )


class MyGivingOut(Schema):
    verified_phone: str = Field(
        description="The account's number proven by a one-time code; empty: only what was given signed in is found."
    )
    pledges: list[GivingPledgeOut] = Field(description="Live pledges, newest first, across organizations.")
    gifts: list[GivingGiftOut] = Field(description="Counted gifts, newest first, across organizations.")
    years: list[int] = Field(description="Years with payments: a statement may be downloaded for each.")

    @classmethod
    def of(cls, giving: PersonGiving) -> "MyGivingOut":
        return cls(
            verified_phone=giving.verified_phone,
            pledges=[GivingPledgeOut.of(item) for item in giving.pledges],
            gifts=[GivingGiftOut.of(gift) for gift in giving.gifts],
            years=giving.years,
        )


class StatementQuery(Schema):
    year: int = Field(description="The calendar year (Nairobi).")
    language: str = Field("", description="'en' or 'sw'; empty: the request's language.")


class YearIn(Schema):
    year: int


class UnreachableGiverOut(Schema):
    name: str
    total: int


class StatementPreviewOut(Schema):
    year: int
    giver_count: int
    total: int
    by_email: int = Field(description="Givers with an e-mail address: sent the PDF.")
    by_sms: int = Field(description="Givers with a phone number: sent a link to it.")
    unreachable: list[UnreachableGiverOut] = Field(description="Givers with neither: nobody can send them theirs.")

    @classmethod
    def of(cls, *, year: int, givers: list[Giver]) -> "StatementPreviewOut":
        return cls(
            year=year,
            giver_count=len(givers),
            total=sum(giver.total for giver in givers),
            by_email=sum(1 for giver in givers if giver.email),
            by_sms=sum(1 for giver in givers if giver.phone),
            unreachable=[
                UnreachableGiverOut(name=giver.name, total=giver.total)
                for giver in givers
                if not giver.email and not giver.phone
            ],
        )


class StatementRunOut(Schema):
    id: int
    year: int
    status: StatementRunStatus
    giver_count: int
    processed_count: int
    emailed_count: int
    texted_count: int
    unreachable_count: int
    created_at: datetime
    finished_at: datetime | None

    @classmethod
    def of(cls, run: StatementRun) -> "StatementRunOut":
        return cls(
            id=run.pk,
            year=run.year,
            status=StatementRunStatus(run.status),
            giver_count=run.giver_count,
            processed_count=run.processed_count,
            emailed_count=run.emailed_count,
            texted_count=run.texted_count,
            unreachable_count=run.unreachable_count,
            created_at=run.created_at,
            finished_at=run.finished_at,
        )
