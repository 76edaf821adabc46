from datetime import datetime
from typing import Literal

from ninja import Field, Schema

from payments.models import Payment

# The fees this API takes directly; donations and pledge payments get endpoints in their own apps.
FeePurpose = Literal["campaign_activation", "subscription"]


class StkPushIn(Schema):
    purpose: FeePurpose
    campaign_id: int | None = None
    phone: str = ""
    # A fresh random value per attempt: repeating it (a double tap, a retry) returns the same intent.
    idempotency_key: str = Field(min_length=8, max_length=64)


class CheckoutIn(Schema):
    purpose: FeePurpose
    campaign_id: int | None = None
    idempotency_key: str = Field(min_length=8, max_length=64)
    # Where the 'Continue' link of the page after the checkout leads, e.g. /dashboard.
    return_path: str = "/dashboard"


class PaymentOut(Schema):
    reference: str
    status: Payment.Status
    amount: int
    provider: Payment.Provider
    purpose: Payment.Purpose
    campaign_id: int | None
    result_desc: str
    receipt_number: str | None
    checkout_url: str | None
    created_at: datetime
    settled_at: datetime | None

    @staticmethod
    def resolve_checkout_url(obj: Payment) -> str | None:
        return obj.checkout_url or None


class PaymentReversalIn(Schema):
    reason: str = Field(max_length=2000, description="Why the entry was a mistake; required, kept in the audit log.")


class CheckoutOut(Schema):
    reference: str
    checkout_url: str


class PaymentStatusOut(Schema):
    has_paid: bool


class FeesOut(Schema):
    """The platform's prices, whole KES: every payment dialog and How it works state them."""

    campaign_activation_fee: int = Field(description="Once per campaign, to make a pending pledge campaign public.")
    subscription_fee: int = Field(
        description="Grantfunding AI for subscription_period_days; subscribers' campaigns "
        "start active without the activation fee."
    )
    subscription_period_days: int


class MpesaConnectionIn(Schema):
    """Write-only: a blank field keeps what is stored (it can never be read back)."""

    consumer_key: str = Field("", max_length=200)
    consumer_secret: str = Field("", max_length=200)
    passkey: str = Field("", max_length=200)
    nominated_number: str = Field("", max_length=20, description="The organization's Safaricom number, for Pull.")


class CardSettlementIn(Schema):
    settlement_bank: str = Field(
        max_length=32, description="The bank's code as Paystack lists it (its List Banks), e.g. '01' for KCB."
    )


class MpesaRatibaIn(Schema):
    enabled: bool = Field(description="Safaricom enabled M-Pesa Ratiba (standing orders) for this paybill.")


class MpesaConnectIn(Schema):
    reregister: bool = Field(False, description="Register the URLs and Pull Transactions again.")


class MpesaConnectionOut(Schema):
    account_id: int
    shortcode: str
    connected_at: datetime | None
    has_consumer_key: bool
    has_consumer_secret: bool
    has_passkey: bool
    nominated_number: str
    c2b_registered_at: datetime | None
    pull_registered_at: datetime | None
    last_tested_at: datetime | None
    last_pulled_at: datetime | None
    confirmation_url: str = Field(description="Where Daraja posts this account's confirmations (empty until set up).")
    validation_url: str
    ratiba_enabled: bool = Field(description="Pledgers may pay equal-instalment plans by M-Pesa Ratiba.")


class MpesaPullOut(Schema):
    pulled: int = Field(description="Payments M-Pesa listed for the last 48 hours.")
    credited: int = Field(description="Of those, the ones no confirmation had brought, credited now.")


class AirtelConnectionIn(Schema):
    """Write-only: a blank field keeps what is stored (it can never be read back)."""

    client_id: str = Field("", max_length=200, description="The Airtel app's client id (its key management page).")
    client_secret: str = Field("", max_length=200)
    callback_key: str = Field(
        "", max_length=500, description="The callback authentication key, when the app signs its callbacks."
    )


class AirtelConnectionOut(Schema):
    account_id: int
    merchant_msisdn: str
    connected_at: datetime | None = Field(description="When its credentials were set: from then on, USSD push.")
    credentials_set: bool
    callback_signed: bool = Field(description="A callback key is set: callbacks without its hash are refused.")
    callback_url: str = Field(description="Enter this as the app's callback URL in Airtel's portal.")
