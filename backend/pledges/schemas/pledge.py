"""Pledges in and out: made, confirmed, corrected, cancelled, paid, unmatched payments."""

from datetime import date, datetime
from typing import Any, Literal

from django.utils import timezone
from ninja import Field, Schema

from audit.models import AuditAction, AuditEntry
from campaigns.selectors import campaign_airtel_account, campaign_payment_instructions, campaign_stk_account
from collection_accounts.schemas import PaymentInstructionOut
from common.mobile_networks import is_airtel
from payments.models import Payment
from pledges.instalments import automatic_instalments, latest_last_due_on
from pledges.models import Pledge, PledgeStatus, shown_giver_name
from pledges.schemas.core import IDEMPOTENCY_KEY, IGNORED, GiverOut, _giver_fields
from pledges.schemas.plans import PlanIn, PlanOut
from pledges.selectors import UnmatchedPayment, pledge_standing_order_account

# Pledges ------------------------------------------------------------------------------------


class PledgeIn(Schema):
    """POST /api/pledges. Name, email, phone and amount are required; the amount is whole KES."""

    campaign_id: int
    amount: float | None = Field(None, description="Whole KES, at least 1.")
    name: str | None = Field(None, max_length=500)
    email: str | None = Field(None, max_length=500)
    phone: str | None = Field(None, max_length=50, description="Kenyan: +254 or 0, then 1 or 7, then 8 digits.")
    is_anonymous: bool = False
    plan: PlanIn | None = Field(None, description="Pay in instalments: the plan chosen with the pledge.")
    timestamp: Any = Field(None, description=IGNORED)
    campaignTitle: Any = Field(None, description=IGNORED)
    deadlineDate: Any = Field(None, description=IGNORED)
    paymentMethod: Any = Field(None, description=IGNORED)
    paymentInstructions: Any = Field(None, description=IGNORED)


def _standing_order_available(pledge: Pledge) -> bool:
    plan = pledge.plan
    if plan is None or not pledge.is_live or plan.pays_automatically:
        return False
    plan.pledge = pledge
    left = automatic_instalments(instalments=plan.schedule(), paid=pledge.paid_amount, today=timezone.localdate())
    return bool(left) and pledge_standing_order_account(pledge=pledge) is not None


class PledgeReceiptOut(Schema):
    """A pledge as its pledger sees it (they hold its code): amount, what is paid and how to pay.
    No e-mail or phone: only a hint of the phone an STK Push goes to."""

    id: int
    code: str = Field(description="The M-Pesa account number for this pledge (7 characters).")
    name: str
    amount: int
    is_anonymous: bool
    status: PledgeStatus
    paid_amount: int
    remaining_amount: int
    amount_due: int = Field(
        description="What 'Pay now' offers, decided here: on a plan, the instalment due today or what is overdue "
        "(the next instalment's rest when on time or ahead); without one, the remaining amount. Any amount from 1 "
        "to remaining_amount may be paid instead."
    )
    overpaid_amount: int = Field(description="Paid beyond the amount pledged; shown, never lost.")
    campaign_id: int
    campaign_title: str
    deadline_date: date = Field(description="The campaign's end date.")
    payment_instructions: list[PaymentInstructionOut]
    stk_push_available: bool = Field(
        description="Show 'Pay now with M-Pesa': POST /api/pledges/{code}/stk-push for the amount due or another."
    )
    airtel_push_available: bool = Field(
        False,
        description="Show 'Pay with Airtel Money': POST /api/pledges/{code}/airtel-push (the campaign has an "
        "Airtel Money account with credentials).",
    )
    airtel_default: bool = Field(
        False,
        description="The pledge's phone is in an Airtel Kenya prefix (common.mobile_networks): preselect Airtel Money.",
    )
    phone_hint: str = Field(description="The pledge's phone with the middle digits hidden, e.g. '+2547•••••678'.")
    created_at: datetime
    plan: PlanOut | None = Field(description="Its instalment plan, if it has one.")
    plan_latest_end: date = Field(description="The latest a plan's last instalment may fall due.")
    standing_order_available: bool = Field(
        description="Show 'Pay automatically with M-Pesa': POST /api/pledges/{code}/standing-order. An "
        "equal-instalment plan, on time, to a connected paybill with M-Pesa Ratiba enabled."
    )

    @classmethod
    def from_pledge(cls, pledge: Pledge) -> "PledgeReceiptOut":
        campaign = pledge.campaign
        return cls(
            id=pledge.pk,
            code=pledge.code,
            name=pledge.name,
            amount=pledge.amount,
            is_anonymous=pledge.is_anonymous,
            status=PledgeStatus(pledge.status),
            paid_amount=pledge.paid_amount,
            remaining_amount=pledge.remaining_amount,
            amount_due=pledge.amount_due(),
            overpaid_amount=pledge.overpaid_amount,
            campaign_id=campaign.pk,
            campaign_title=campaign.title,
            deadline_date=campaign.end_date,
            payment_instructions=[
                PaymentInstructionOut.from_instruction(instruction)
                for instruction in campaign_payment_instructions(campaign=campaign, reference=pledge.code)
            ],
            stk_push_available=pledge.remaining_amount > 0 and campaign_stk_account(campaign=campaign) is not None,
            airtel_push_available=pledge.remaining_amount > 0
            and campaign_airtel_account(campaign=campaign) is not None,
            airtel_default=is_airtel(pledge.phone),
            phone_hint=f"{pledge.phone[:5]}•••••{pledge.phone[-3:]}",
            created_at=pledge.created_at,
            plan=PlanOut.of(pledge),
            plan_latest_end=latest_last_due_on(
                end_date=campaign.end_date, past_end_allowed=campaign.instalments_past_end
            ),
            standing_order_available=_standing_order_available(pledge),
        )


class PledgeOut(GiverOut):
    """A pledge in a list. Fields after ``details_visible`` are null unless the viewer manages the
    campaign (its owners, treasurers and viewers, or an admin); for everyone else ``email`` and ``phone`` are
    placeholders and an anonymous pledge's ``name`` is 'Anonymous'."""

    is_anonymous: bool = Field(description="The organizer still sees the details: tell them so.")
    created_at: datetime = Field(description="When it was pledged (the spec's timestamp).")
    details_visible: bool = Field(description="The viewer manages the campaign: real details and the fields below.")
    code: str | None
    status: PledgeStatus | None
    payment_confirmed: bool | None = Field(description="Status is confirmed: disable the confirm action.")
    paid_amount: int | None
    remaining_amount: int | None
    overpaid_amount: int | None
    confirmed_at: datetime | None
    confirmed_by: str | None = Field(
        description="Who confirmed it or recorded the payment that completed it; null when M-Pesa payments did."
    )
    cancelled_at: datetime | None = Field(description="When it was cancelled; null while it counts.")
    cancel_reason: str | None
    plan: PlanOut | None = Field(description="Its instalment plan and where its pledger stands, if it has one.")

    @classmethod
    def for_viewer(cls, pledge: Pledge, *, manages: bool) -> "PledgeOut":
        confirmer = pledge.confirmed_by if manages else None
        fields: dict[str, Any] = {
            **_giver_fields(pledge, name=shown_giver_name(pledge.name, pledge.phone), manages=manages),
            "created_at": pledge.created_at,
            "code": None,
            "status": None,
            "payment_confirmed": None,
            "paid_amount": None,
            "remaining_amount": None,
            "overpaid_amount": None,
            "confirmed_at": None,
            "confirmed_by": None,
            "cancelled_at": None,
            "cancel_reason": None,
            "plan": None,
        }
        if manages:
            fields.update(
                code=pledge.code,
                status=pledge.status,
                payment_confirmed=pledge.is_confirmed,
                paid_amount=pledge.paid_amount,
                remaining_amount=pledge.remaining_amount,
                overpaid_amount=pledge.overpaid_amount,
                confirmed_at=pledge.confirmed_at,
                confirmed_by=(confirmer.full_name or confirmer.email) if confirmer else None,
                cancelled_at=pledge.cancelled_at,
                cancel_reason=pledge.cancel_reason if pledge.cancelled_at else None,
                plan=PlanOut.of(pledge),
            )
        return cls(**fields)


class PledgeListQuery(Schema):
    campaign_id: int
    q: str = Field(
        "", max_length=100, description="Managers: name, e-mail, phone or code. Others: names, not anonymous ones."
    )
    status: PledgeStatus | None = Field(None, description="Managers only; ignored for others.")
    behind: bool = Field(False, description="Managers only: live pledges whose pledger is behind their plan.")
    page: int = Field(1, ge=1, description="1-based; a page past the end is an empty list.")
    page_size: int = Field(20, ge=1, le=100)


class CampaignQuery(Schema):
    campaign_id: int


class PageQuery(Schema):
    page: int = Field(1, ge=1)
    page_size: int = Field(50, ge=1, le=100)


class StandingOrderIn(Schema):
    phone: str = Field("", max_length=50, description="Who approves and pays; default: the pledge's phone.")


class PledgeStkPushIn(Schema):
    phone: str = Field("", max_length=50, description="Default: the pledge's phone.")
    amount: int | None = Field(
        None, description="Default: the amount due (the receipt's amount_due); any from 1 to the remaining amount."
    )
    idempotency_key: str = IDEMPOTENCY_KEY


ManualMethod = Literal["cash", "bank", "mpesa_manual"]
RECEIVED_ON = Field(None, description="The day the money was received (Nairobi); default today, never later.")
REFERENCE = Field(
    "",
    max_length=100,
    description="mpesa_manual: the M-Pesa receipt code (required, one credit per receipt); bank: the transfer's "
    "reference; cash: a receipt book number. Each is recorded once.",
)


class ConfirmPaymentIn(Schema):
    """The spec's body ({pledgeId, campaignOrganizerEmail}) records the rest as a bank payment received today."""

    pledgeId: int
    campaignOrganizerEmail: str | None = Field(None, description="Ignored: the session decides who may confirm.")
    method: ManualMethod = "bank"
    received_on: date | None = RECEIVED_ON
    reference: str = REFERENCE


class ConfirmPaymentOut(Schema):
    detail: str = Field(description="'Payment confirmed successfully!'")
    pledge: PledgeOut


class ManualPaymentIn(Schema):
    amount: int = Field(description="Whole KES, at least 1.")
    method: ManualMethod
    note: str = Field("", max_length=500)
    reference: str = REFERENCE
    received_on: date | None = RECEIVED_ON


class PledgeCorrectionIn(Schema):
    amount: int = Field(description="The pledge's new amount, whole KES: at least what is paid.")
    reason: str = Field(max_length=2000, description="Required; kept in the audit log.")


class PledgeCancelIn(Schema):
    reason: str = Field(max_length=2000, description="Required; kept in the audit log.")
    payments_to: Literal["", "pledge", "gift"] = Field(
        "",
        description="For a pledge with payments: count them towards another pledge (to_pledge_id) or keep "
        "them as gifts (each becomes a donation).",
    )
    to_pledge_id: int | None = None


class PledgeRestoreIn(Schema):
    reason: str = Field(max_length=2000, description="Required; kept in the audit log.")


class PledgeHistoryEntryOut(Schema):
    """One thing a person did to the pledge or its payments (from the audit log)."""

    action: AuditAction
    action_label: str = Field(description="What happened, in the site language.")
    at: datetime
    actor: str | None = Field(description="Who did it; null when the system did.")
    object_repr: str = Field(description="The pledge or payment it was done to.")
    reason: str = Field(description="The reason given for a correction, cancellation or reversal; '' if none.")
    before: dict[str, Any]
    after: dict[str, Any]

    @staticmethod
    def resolve_action_label(entry: AuditEntry) -> str:
        return str(entry.get_action_display())

    @staticmethod
    def resolve_actor(entry: AuditEntry) -> str | None:
        return (entry.actor.full_name or entry.actor.email) if entry.actor else None

    @staticmethod
    def resolve_reason(entry: AuditEntry) -> str:
        return str(entry.after.get("reason", ""))


class AssignPaymentIn(Schema):
    reference: str = Field(max_length=20, description="The unmatched payment's reference.")


class PledgePaymentOut(Schema):
    """A payment counted towards a pledge (GET /api/pledges/{pledge_id}/payments)."""

    reference: str
    amount: int
    provider: Payment.Provider
    receipt_number: str | None
    mpesa_receipt: str | None
    account_reference: str = Field(description="What the payer typed as account number (paybill), or the code.")
    provider_reference: str | None = Field(description="A bank or cash entry's own reference.")
    note: str
    recorded_by: str | None = Field(description="Who recorded a payment entered by hand.")
    assigned_by: str | None = Field(description="Who assigned it by hand when its account number matched no pledge.")
    settled_at: datetime | None
    received_at: datetime | None = Field(description="When the money was received, for an entry made later.")
    reversible: bool = Field(description="Entered by hand and not reversed: 'Reverse' may be offered.")
    reversed_at: datetime | None = Field(description="When its reversing entry was made; it no longer counts.")
    reversal_reason: str | None

    @staticmethod
    def resolve_reversible(payment: Payment) -> bool:
        return payment.is_manual and not payment.is_reversed

    @staticmethod
    def resolve_reversed_at(payment: Payment) -> datetime | None:
        return payment.reversal.created_at if payment.is_reversed else None

    @staticmethod
    def resolve_reversal_reason(payment: Payment) -> str | None:
        return payment.reversal.reason if payment.is_reversed else None

    @staticmethod
    def resolve_recorded_by(payment: Payment) -> str | None:
        user = payment.recorded_by
        return (user.full_name or user.email) if user else None

    @staticmethod
    def resolve_assigned_by(payment: Payment) -> str | None:
        user = payment.pledge_link.assigned_by
        return (user.full_name or user.email) if user else None


class SuggestedPledgeOut(Schema):
    id: int
    code: str
    name: str
    amount: int
    remaining_amount: int


class UnmatchedPaymentOut(Schema):
    """A pledge payment that matched no pledge code; assign it with POST /api/pledges/{id}/assign-payment."""

    reference: str
    amount: int
    provider: Payment.Provider
    account_reference: str = Field(description="The account number the payer typed.")
    mpesa_receipt: str | None
    payer_name: str = Field(description="The name M-Pesa gave; '' if none.")
    received_at: datetime | None
    suggested_pledge: SuggestedPledgeOut | None = Field(
        description="The campaign's pledge whose code is one typo away, if exactly one is."
    )

    @classmethod
    def from_row(cls, row: UnmatchedPayment) -> "UnmatchedPaymentOut":
        payment, pledge = row.payment, row.suggested_pledge
        return cls(
            reference=payment.reference,
            amount=payment.amount,
            provider=Payment.Provider(payment.provider),
            account_reference=payment.account_reference,
            mpesa_receipt=payment.mpesa_receipt,
            payer_name=row.payer_name,
            received_at=payment.settled_at,
            suggested_pledge=SuggestedPledgeOut(
                id=pledge.pk,
                code=pledge.code,
                name=pledge.name,
                amount=pledge.amount,
                remaining_amount=pledge.remaining_amount,
            )
            if pledge
            else None,
        )


class PledgeSummaryOut(Schema):
    """Pledge Management's summary over the live pledges, whole KES. Confirmed = fully paid;
    pending = all other live pledges, partly paid ones included."""

    count: int
    pledged_sum: int
    confirmed_count: int
    confirmed_sum: int
    pending_count: int = Field(description="Not fully paid: not_started_count + partly_paid_count.")
    pending_sum: int
    not_started_count: int = Field(description="Pending with nothing paid yet.")
    not_started_sum: int = Field(description="What those pledged (and still owe).")
    partly_paid_count: int = Field(description="Pending with some paid.")
    partly_paid_sum: int = Field(description="What those pledged.")
    partly_paid_outstanding_sum: int = Field(description="What those still owe.")
    paid_sum: int = Field(description="Paid to date towards the pledges, overpayments included.")
    outstanding_sum: int = Field(description="What the pending pledges still owe.")
    unmatched_count: int = Field(description="Payments waiting to be assigned to a pledge.")
    cancelled_count: int = Field(description="Cancelled pledges, left out of every figure above.")
