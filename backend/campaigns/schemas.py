"""What the campaigns API reads and answers. Money is whole KES; dates are ISO dates in Nairobi."""

from datetime import date, datetime
from typing import Any, Literal

from ninja import Field, Schema
from pydantic import field_validator

from accounts.models import User
from campaigns.categories import Category
from campaigns.models import Campaign, CampaignStatus, CampaignType, DraftToolType, MediaType
from campaigns.selectors import (
    campaign_activity_get,
    campaign_airtel_account,
    campaign_card_account,
    campaign_has_personal_number,
    campaign_payment_instructions,
    campaign_stk_account,
)
from collection_accounts.models import CollectionAccountKind
from collection_accounts.schemas import CollectionAccountDetails, PaymentInstructionOut
from organizations.roles import Permission, Role
from pledges.schemas import DonationOut, PledgeOut


class CampaignListQuery(Schema):
    """Filters of GET /api/campaigns. An empty value (or ``all``) of a filter means no filter."""

    q: str = Field("", max_length=100, description="Words that must all appear in the title or description.")
    category: Category | None = None
    type: CampaignType | None = Field(
        None, description="Explore asks for every type: pledge campaigns and the legacy wizard's fundraisers."
    )
    status: CampaignStatus | None = Field(
        None, description="Defaults to active. Other statuses are listed for admins only (empty for others)."
    )
    page: int = Field(1, ge=1, description="1-based; a page past the end is an empty list.")
    page_size: int = Field(12, ge=1, le=50)

    @field_validator("category", "type", "status", mode="before")
    @classmethod
    def _blank_is_no_filter(cls, value: object) -> object:
        return None if value in ("", "all") else value


class SrcsetEntryOut(Schema):
    url: str
    width: int


class CampaignCardOut(Schema):
    """A campaign in a list: enough for a card with cover, title, category, goal and progress."""

    id: int
    type: CampaignType
    status: CampaignStatus
    title: str
    description: str
    category: Category
    category_label: str = Field(description="The category's name in the site language.")
    goal: int = Field(description="Whole KES.")
    pledged_total: int = Field(
        description="The public pledged figure, whole KES: the live pledges, or with "
        "unsigned_pledges_count_after_payment those made signed in or paid in part."
    )
    raised_total: int = Field(description="Sum of the confirmed payments and donations, whole KES.")
    donor_count: int = Field(
        description="A counter of paid donations plus pledges with something paid (not distinct people): the "
        "campaign page shows donors and payers instead."
    )
    progress_percent: int = Field(description="pledged_total over goal in whole percent, capped at 100 for bars.")
    media_type: MediaType
    image_url: str = Field(description="The uploaded or linked cover (an image, or a video when media_type is video).")
    youtube_id: str = Field(description="Embed as https://www.youtube-nocookie.com/embed/{youtube_id}.")
    cover_image_url: str = Field(
        description="A still image for the card: the image or the YouTube thumbnail; '' if none."
    )
    cover_srcset: list[SrcsetEntryOut] = Field(
        description="WebP renditions of an uploaded cover picture by width, narrowest first, for srcset; [] otherwise."
    )
    end_date: date
    days_left: int = Field(description="Whole days until end_date, 0 once it has passed.")
    has_ended: bool = Field(
        description="Active but past its end date: no new pledges or donations; its pledgers still pay."
    )
    like_count: int | None = Field(description="The number of likes, for admins only; null for everyone else.")
    liked_by_me: bool = Field(description="Whether the signed-in viewer likes it; false for visitors.")
    created_at: datetime

    @staticmethod
    def resolve_pledged_total(campaign: Any) -> int:
        # A campaign gives its public figure; the dict ``CampaignDetailOut.for_viewer`` builds from
        # this schema already holds it.
        return campaign.public_pledged_total if isinstance(campaign, Campaign) else campaign["pledged_total"]


class CampaignDetailOut(CampaignCardOut):
    """One campaign as the viewer may see it (see ``for_viewer``)."""

    story: str
    start_date: date
    youtube_url: str = Field(description="The YouTube link for the edit form; '' without a video.")
    progress_percent_uncapped: int = Field(description="pledged_total over goal in whole percent, may exceed 100.")
    payment_instructions: list[PaymentInstructionOut] = Field(
        description="How to pay: the campaign's collection accounts in order (a pledge code goes where it says "
        "'your pledge code'), then a legacy campaign's personal M-Pesa number. Never Harambee's own paybill."
    )
    shows_personal_number: bool = Field(
        description="A legacy campaign still shows a personal M-Pesa number: warn its team (owners, treasurers)."
    )
    offers_stk_push: bool = Field(
        description="One of its accounts is a connected paybill or till: offer M-Pesa PIN prompts (donations)."
    )
    offers_airtel_push: bool = Field(
        description="One of its accounts is an Airtel Money account with credentials: offer Airtel Money pushes."
    )
    offers_card_payment: bool = Field(
        description="Its organization takes card payments (a bank account with a Paystack subaccount): offer cards."
    )
    organizer_name: str = Field(description="The organizer's display name.")
    organizer: str | None = Field(description="The organizer's e-mail, for the organizer and admins only.")
    can_edit: bool = Field(description="The viewer is an owner of its organization or an admin: show Edit.")
    can_see_pledges: bool = Field(
        description="Owners, treasurers, viewers and admins: Pledge Management, analytics, givers' details."
    )
    can_manage_pledges: bool = Field(
        description="Owners, treasurers and admins: confirm, record and assign payments, remind, export."
    )
    viewer_role: Role | None = Field(description="The viewer's role in the campaign's organization; null if none.")
    organization_name: str = Field(
        description="The organization the money goes to; '' while it is a personal one not yet named (never a person)."
    )
    organization_id: int = Field(description="Its organization, whose accounts its team may switch it to.")
    can_share: bool = Field(description="Active campaigns only: show the share panel and the QR code.")
    share_url: str = Field(description="The public address of the campaign page.")
    updated_at: datetime
    largest_pledge: int = Field(description="The largest single pledge it accepts, whole KES (default: its goal).")
    unsigned_pledges_count_after_payment: bool = Field(
        description="Pledges made without signing in count in the public figures once something is paid."
    )
    instalments_past_end: bool = Field(description="Instalment plans may run past the end date, by up to 24 months.")
    may_be_featured: bool = Field(description="Its owners agreed to have it among the landing page's success stories.")
    paid_total: int = Field(
        description="Paid so far towards the pledges, whole KES (raised_total also counts donations)."
    )
    pledges: list[PledgeOut] = Field(
        description="The 10 newest pledges, masked unless the viewer manages the campaign (see PledgeOut)."
    )
    donations: list[DonationOut] = Field(description="The 10 latest paid donations, masked like the pledges.")
    donors: int = Field(
        description="Distinct people who gave without a pledge (paid donations, desk gifts included). A person is "
        "known by their phone number, else e-mail, else account; a gift with none of them counts as one."
    )
    payers: int = Field(
        description="Distinct people who paid something towards their pledges, known as donors are; paying "
        "twice is one payer."
    )

    @classmethod
    def for_viewer(cls, campaign: Campaign, *, viewer: User | None) -> "CampaignDetailOut":
        """The campaign as ``viewer`` (None: a visitor) sees it.

        ``campaign`` comes from ``selectors.campaign_get`` for the same viewer, which annotates
        ``like_count`` and ``liked_by_me``; its pledges and donations take three more queries.
        """
        organizer = campaign.organizer
        manages = campaign.allows(viewer, Permission.SEE_PLEDGES)
        activity = campaign_activity_get(campaign=campaign)
        return cls.model_validate(
            {
                "paid_total": activity.pledges_paid_total,
                "donors": activity.donors,
                "payers": activity.payers,
                "pledges": [PledgeOut.for_viewer(pledge, manages=manages) for pledge in activity.pledges],
                "donations": [DonationOut.for_viewer(donation, manages=manages) for donation in activity.donations],
                **CampaignCardOut.from_orm(campaign).model_dump(),
                "story": campaign.story,
                "start_date": campaign.start_date,
                "youtube_url": campaign.youtube_url,
                "progress_percent_uncapped": campaign.progress_percent_uncapped,
                "payment_instructions": [
                    PaymentInstructionOut.from_instruction(instruction)
                    for instruction in campaign_payment_instructions(campaign=campaign, reference=None)
                ],
                "shows_personal_number": campaign_has_personal_number(campaign=campaign),
                "offers_stk_push": campaign_stk_account(campaign=campaign) is not None,
                "offers_airtel_push": campaign_airtel_account(campaign=campaign) is not None,
                "offers_card_payment": campaign_card_account(campaign=campaign) is not None,
                "organizer_name": organizer.full_name or organizer.display_name,
                "organizer": organizer.email if manages else None,
                "can_edit": campaign.can_be_edited_by(viewer),
                "can_see_pledges": manages,
                "can_manage_pledges": campaign.allows(viewer, Permission.MANAGE_PLEDGES),
                "viewer_role": campaign.role_of(viewer),
                "organization_name": campaign.organization.payee_name,
                "organization_id": campaign.organization_id,
                "can_share": campaign.can_be_shared,
                "share_url": campaign.share_url,
                "updated_at": campaign.updated_at,
                "largest_pledge": campaign.largest_pledge,
                "unsigned_pledges_count_after_payment": campaign.unsigned_pledges_count_after_payment,
                "instalments_past_end": campaign.instalments_past_end,
                "may_be_featured": campaign.may_be_featured,
            }
        )


class CampaignUpdateIn(Schema):
    """PATCH /api/campaigns/{id}: the fields to change. A missing or null field stays as it is.

    Title, description, goal, category and story cannot be emptied. A blank ``image_url`` or
    ``youtube_url`` removes that cover. ``category`` takes a ``Category`` value.
    """

    title: str | None = None
    description: str | None = None
    goal: int | None = Field(None, description="Whole KES, at least 1.")
    category: str | None = Field(None, description="A Category value, e.g. 'medical'.")
    story: str | None = None
    image_url: str | None = Field(None, description="An http(s) address or a path on this site; '' removes it.")
    youtube_url: str | None = Field(None, description="A YouTube link (watch?v=, youtu.be/, embed/); '' removes it.")
    largest_pledge: int | None = Field(None, description="The largest single pledge, whole KES; the goal by default.")
    unsigned_pledges_count_after_payment: bool | None = Field(
        None, description="Count pledges made without signing in publicly only after their first payment."
    )
    instalments_past_end: bool | None = Field(
        None, description="Let instalment plans run past the end date, by up to 24 months."
    )
    end_date: date | None = Field(
        None, description="Extend or shorten: not before today (Nairobi); not once the campaign is closed."
    )
    may_be_featured: bool | None = Field(
        None, description="Its owners agree to have it shown, with its real totals, among the success stories."
    )


class SuccessStoryOut(Schema):
    """A campaign its owners agreed to feature, with its real figures (whole KES)."""

    id: int
    title: str
    organization_name: str = Field(alias="organization.payee_name", description="'' for a personal organization.")
    category_label: str
    raised_total: int
    goal: int
    cover_image_url: str


class CampaignStatusIn(Schema):
    status: CampaignStatus
    reason: str = Field("", max_length=500, description="Suspending: why, as the organizer is shown it (required).")


class CampaignAccountsIn(Schema):
    account_ids: list[int] = Field(
        description="1 to 3 of the organization's collection accounts, each once, in the order the campaign page "
        "shows them."
    )


class LikeOut(Schema):
    liked: bool
    like_count: int | None = Field(description="For admins only; null for everyone else.")


class CategoryOut(Schema):
    value: str = Field(description="A Category value; '' is 'All' (no filter).")
    label: str


class CategoryListsOut(Schema):
    """The category choices of each screen (spec section 9), in display order."""

    explore: list[CategoryOut] = Field(
        description="The /explore filter: the spec's list starting with All, then every other category of the "
        "campaigns Explore lists."
    )
    edit_form: list[CategoryOut] = Field(description="The admin's Edit Campaign dialog.")
    wizard: list[CategoryOut] = Field(description="The campaign wizard.")


# The campaign wizards, their drafts and media uploads (campaigns.wizard, campaigns.drafts, campaigns.uploads).

CoverKind = Literal["upload", "youtube"]


class CampaignCollectionAccountIn(CollectionAccountDetails):
    """One of the campaign's 1 to 3 accounts: an account of the organization by ``account_id``, or a new
    one (``kind`` and its details, as POST /api/orgs/{id}/collection-accounts takes them)."""

    account_id: int | None = Field(None, description="One of the organization's collection accounts.")
    kind: CollectionAccountKind | None = Field(None, description="A new account's kind (without account_id).")


ORGANIZATION_ID_DESCRIPTION = (
    "One of the organizations the user owns. Needed only when they own several; left out, their one"
    " organization, or a new personal one if they own none."
)


class PledgingCampaignIn(Schema):
    """POST /api/pledging-campaigns: the wizard's form. The organizer is the signed-in user."""

    organization_id: int | None = Field(None, description=ORGANIZATION_ID_DESCRIPTION)
    title: str
    category: str = Field(description="One of the wizard's categories (GET /api/campaign-categories).")
    goal: int = Field(description="Whole KES, at least 1.")
    story: str
    end_date: date | None = Field(None, description="Not earlier than today (Nairobi).")
    media_type: CoverKind = Field("upload", description="upload: media_url from POST /api/media; youtube: a link.")
    media_url: str = Field("", description="The uploaded file's url, or the YouTube link.")
    collection_accounts: list[CampaignCollectionAccountIn] = Field(
        default_factory=list,
        description="1 to 3, each once, in the order the campaign page shows them; subscribers may send none "
        "(their organization's default account is used).",
    )


class CampaignCreatedOut(Schema):
    id: int


class FundraiserIn(Schema):
    """POST /api/campaigns: the legacy fundraiser wizard's form."""

    organization_id: int | None = Field(None, description=ORGANIZATION_ID_DESCRIPTION)
    title: str
    category: str
    goal: int = Field(description="Whole KES, at least 1.")
    story: str = Field(description="The description is its first 100 characters plus '...'.")
    duration_days: int = Field(30, description="The fundraiser ends this many days from today (1 to 365).")
    media_type: CoverKind = "upload"
    media_url: str = ""
    bank_name: str = Field(description="One of the five banks of the legacy wizard.")
    account_name: str
    account_no: str


class FundraiserCreatedOut(Schema):
    ok: bool
    id: int


class DraftToolTypeQuery(Schema):
    tool_type: DraftToolType


class DraftIn(Schema):
    tool_type: DraftToolType
    step_data: dict[str, Any] = Field(default_factory=dict, description="The wizard's form; at most 20 KB.")
    current_step: int = Field(0, ge=0, le=50)


class DraftUpdateIn(Schema):
    """PUT /api/campaign-drafts/{id}: the fields to change; missing or null ones stay as they are."""

    step_data: dict[str, Any] | None = None
    current_step: int | None = Field(None, ge=0, le=50)
    is_completed: bool | None = None


class DraftOut(Schema):
    id: int
    tool_type: DraftToolType
    step_data: dict[str, Any]
    current_step: int
    is_completed: bool
    updated_at: datetime


class MediaOut(Schema):
    """A stored upload. Images come with a WebP copy and smaller WebP renditions for srcset."""

    url: str = Field(description="Use as the campaign's media_url.")
    media_type: Literal["image", "video"]
    webp_url: str = Field(description="A full-size WebP of an image; '' for a video.")
    srcset: list[SrcsetEntryOut] = Field(description="WebP renditions by width, narrowest first; [] for a video.")


class WizardFeedbackIn(Schema):
    campaign_id: int | None = Field(None, ge=1, le=2**63 - 1, description="The campaign just launched, if any.")
    liked: str = ""
    confusing: str = ""
    features_wanted: str = ""
    rating: int = Field(3, description="1 to 5.")
    wants_interview: bool = False
    contact: str = Field("", description="E-mail or phone; required when wants_interview.")


class WizardFeedbackOut(Schema):
    id: int
