"""What a user may ask about their own data: the download of everything held about them, and
deleting their account."""

from datetime import date, datetime
from typing import Any

from ninja import Field, Schema


class AccountDeleteIn(Schema):
    password: str = ""


# The download of a user's own data (GET /api/profile/export) ----------------------------------


class AccountExportOut(Schema):
    id: int
    email: str
    first_name: str
    last_name: str
    phone: str
    id_number: str
    avatar_url: str
    language: str
    is_admin: bool
    created_at: datetime
    last_login: datetime | None


class OrganizationProfileExportOut(Schema):
    organization_name: str
    mission: str
    focus_areas: str
    organization_type: str
    location: str
    funding_range: str
    created_at: datetime
    updated_at: datetime


class CampaignExportOut(Schema):
    id: int
    type: str
    status: str
    title: str
    description: str
    story: str
    category: str
    goal: int
    image_url: str
    youtube_id: str
    start_date: date
    end_date: date
    payment_options: list[dict[str, Any]]
    pledged_total: int
    raised_total: int
    created_at: datetime


class DraftExportOut(Schema):
    id: int
    tool_type: str
    step_data: dict[str, Any]
    current_step: int
    is_completed: bool
    created_at: datetime
    updated_at: datetime


class CampaignLikeExportOut(Schema):
    campaign_id: int
    created_at: datetime


class WizardFeedbackExportOut(Schema):
    campaign_id: int | None
    liked: str
    confusing: str
    features_wanted: str
    rating: int
    wants_interview: bool
    contact: str
    created_at: datetime


class PledgeExportOut(Schema):
    id: int
    code: str
    campaign_id: int
    campaign_title: str = Field(alias="campaign.title")
    name: str
    email: str
    phone: str
    amount: int
    paid_amount: int
    status: str
    is_anonymous: bool
    created_at: datetime
    confirmed_at: datetime | None


class DonationExportOut(Schema):
    id: int
    campaign_id: int
    campaign_title: str = Field(alias="campaign.title")
    payment_reference: str = Field(alias="payment.reference")
    name: str
    email: str
    phone: str
    amount: int
    status: str
    is_anonymous: bool
    created_at: datetime
    counted_at: datetime | None


class PaymentExportOut(Schema):
    reference: str
    purpose: str
    provider: str
    amount: int
    status: str
    payer_phone: str
    payer_email: str
    campaign_id: int | None
    receipt_number: str | None
    mpesa_receipt: str | None
    created_at: datetime
    settled_at: datetime | None


class SubscriptionExportOut(Schema):
    starts_at: datetime
    ends_at: datetime
    payment_reference: str = Field(alias="payment.reference")


class GrantApplicationExportOut(Schema):
    grant_id: int
    grant_title: str = Field(alias="grant.title")
    state: str
    note: str
    updated_at: datetime


class FeedbackExportOut(Schema):
    message: str
    contact: str
    page: str
    created_at: datetime


class NotificationExportOut(Schema):
    channel: str
    recipient: str
    subject: str
    body: str
    status: str
    created_at: datetime
    sent_at: datetime | None


class UssdCallerExportOut(Schema):
    phone: str
    language: str
    updated_at: datetime


class UssdSessionExportOut(Schema):
    phone: str
    language: str
    final_text: str = Field(description="What was typed in the session that closed it.")
    final_answer: str
    created_at: datetime


class InboundSmsExportOut(Schema):
    sender: str
    text: str
    outcome: str = Field(description="What was done about it (a pledge, a PIN prompt, help, …).")
    received_at: datetime


class ChampionExportOut(Schema):
    campaign_id: int
    code: str
    name: str
    phone: str
    appeal: str
    goal: int
    on_leaderboard: bool
    created_at: datetime


class PersonalDataOut(Schema):
    """Everything the platform holds about the signed-in user. Pledges and donations are those
    given while signed in, and those made by phone that they claimed."""

    exported_at: datetime
    account: AccountExportOut
    organization_profile: OrganizationProfileExportOut | None
    campaigns: list[CampaignExportOut]
    campaign_drafts: list[DraftExportOut]
    campaign_likes: list[CampaignLikeExportOut]
    wizard_feedback: list[WizardFeedbackExportOut]
    pledges: list[PledgeExportOut]
    donations: list[DonationExportOut]
    payments: list[PaymentExportOut]
    subscriptions: list[SubscriptionExportOut]
    grant_applications: list[GrantApplicationExportOut]
    feedback: list[FeedbackExportOut]
    notifications: list[NotificationExportOut]
    ussd_caller: UssdCallerExportOut | None = Field(
        description="The USSD menu's language choice for the phone number on the account."
    )
    ussd_sessions: list[UssdSessionExportOut] = Field(
        description="USSD sessions of that number still kept (for about 15 minutes)."
    )
    sms_received: list[InboundSmsExportOut] = Field(
        description="Texts sent to the shortcode from the account's verified number (SMS keywords)."
    )
    championships: list[ChampionExportOut] = Field(description="The campaigns they are a champion of.")
