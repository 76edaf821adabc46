"""Donations in and out, and a pledger's own pledges."""

from datetime import datetime
from typing import Any, Literal

from ninja import Field, Schema

from campaigns.selectors import campaign_payment_instructions
from collection_accounts.schemas import PaymentInstructionOut
from payments.models import Payment
from payments.schemas import PaymentOut
from pledges.models import Donation, Pledge, PledgeStatus, shown_giver_name
from pledges.schemas.core import IDEMPOTENCY_KEY, IGNORED, GiverOut, _giver_fields

# Donations ----------------------------------------------------------------------------------


class DonationIn(Schema):
    """POST /api/donations. Unless anonymous, name and email are required; M-Pesa needs a phone."""

    campaign_id: int
    amount: float | None = Field(None, description="Whole KES above 0, e.g. a preset 100, 500, 1000, 2500 or 5000.")
    name: str | None = Field(None, max_length=500)
    email: str | None = Field(None, max_length=500)
    phone: str | None = Field(None, max_length=50)
    is_anonymous: bool = False
    method: Literal["mpesa", "airtel", "card"] = "mpesa"
    idempotency_key: str = IDEMPOTENCY_KEY
    return_path: str = Field("", max_length=200, description="Card: where the page after the checkout links back to.")
    timestamp: Any = Field(None, description=IGNORED)


class SetAsideIn(Schema):
    references: list[str] = Field(max_length=200, description="Payment references from the unmatched list.")


class SetAsideOut(Schema):
    set_aside: int = Field(description="How many were taken off the list.")


class DonationCreatedOut(Schema):
    donation_id: int
    payment: PaymentOut = Field(description="Poll GET /api/payments/{reference}. Card: show checkout_url in a dialog.")
    payment_instructions: list[PaymentInstructionOut] = Field(
        description="M-Pesa without PIN prompts (payment.provider mpesa_c2b): how to pay, with the payment's "
        "reference as the account number; empty otherwise."
    )

    @classmethod
    def from_donation(cls, donation: Donation) -> "DonationCreatedOut":
        payment = donation.payment
        instructions = (
            campaign_payment_instructions(campaign=donation.campaign, reference=payment.reference)
            if payment.provider == Payment.Provider.MPESA_C2B
            else []
        )
        return cls.model_validate(
            {
                "donation_id": donation.pk,
                "payment": payment,
                "payment_instructions": [PaymentInstructionOut.from_instruction(i) for i in instructions],
            }
        )


class DonationOut(GiverOut):
    """A paid donation in a list, masked like ``PledgeOut``."""

    is_anonymous: bool
    paid_at: datetime | None
    details_visible: bool
    provider: Payment.Provider | None = Field(description="How it was paid; for managers only.")
    receipt_number: str | None = Field(description="For managers only.")

    @classmethod
    def for_viewer(cls, donation: Donation, *, manages: bool) -> "DonationOut":
        payment = donation.payment
        return cls.model_validate(
            {
                **_giver_fields(donation, name=shown_giver_name(donation.name), manages=manages),
                "paid_at": donation.counted_at,
                "provider": payment.provider if manages else None,
                "receipt_number": payment.receipt_number if manages else None,
            }
        )


class MinistryCampaignOut(Schema):
    campaign_id: int


class MyPledgeOut(Schema):
    """One of the signed-in user's pledges, or one they may claim (``GET /api/my-pledges``)."""

    code: str = Field(description="Its code: the pledge's own page is /pledges/{code}.")
    campaign_id: int
    campaign_title: str
    amount: int
    paid_amount: int
    remaining_amount: int
    status: PledgeStatus
    made_by_phone: bool = Field(description="Made by USSD or SMS from a number the mobile network gave.")
    cancelled: bool = Field(description="The organizer cancelled it: it no longer counts.")
    created_at: datetime

    @classmethod
    def from_pledge(cls, pledge: Pledge) -> "MyPledgeOut":
        return cls(
            code=pledge.code,
            campaign_id=pledge.campaign_id,
            campaign_title=pledge.campaign.title,
            amount=pledge.amount,
            paid_amount=pledge.paid_amount,
            remaining_amount=pledge.remaining_amount,
            status=PledgeStatus(pledge.status),
            made_by_phone=pledge.phone_verified,
            cancelled=not pledge.is_live,
            created_at=pledge.created_at,
        )


class MyPledgesOut(Schema):
    verified_phone: str = Field(description="The account's number proven by a one-time code; empty when none is.")
    pledges: list[MyPledgeOut] = Field(description="Their own: made signed in, or claimed. Newest first.")
    claimable: list[MyPledgeOut] = Field(
        description="Made by USSD or SMS from the verified number and held by no account: POST /api/my-pledges/claim."
    )

    @classmethod
    def of(cls, *, verified_phone: str, pledges: list[Pledge], claimable: list[Pledge]) -> "MyPledgesOut":
        return cls(
            verified_phone=verified_phone,
            pledges=[MyPledgeOut.from_pledge(pledge) for pledge in pledges],
            claimable=[MyPledgeOut.from_pledge(pledge) for pledge in claimable],
        )


class PledgeClaimIn(Schema):
    codes: list[str] = Field(max_length=100, description="The codes of the pledges to claim (from `claimable`).")
