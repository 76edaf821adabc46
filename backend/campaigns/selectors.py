"""Reads of campaigns: listing, search, one campaign, and what the viewer may see of them.

``user`` is the signed-in viewer, or ``None`` for a visitor.
"""

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, Expression, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns.categories import EXPLORE_CATEGORIES, Category, Choice
from campaigns.models import (
    PUBLIC_STATUSES,
    Campaign,
    CampaignLike,
    CampaignStatus,
    CampaignType,
    Draft,
    SearchText,
    WizardFeedback,
)
from collection_accounts.instructions import Instruction, account_instruction, phone_number_instruction
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from common.errors import NotFoundError, PermissionDeniedError
from organizations.models import Membership
from organizations.roles import Permission
from organizations.selectors import user_organization_ids
from pledges.models import Donation, Pledge

MAX_SEARCH_WORDS = 5
# The campaign page's recent pledges and donations (spec section 9: a table of 10 rows).
RECENT_ACTIVITY_LIMIT = 10
# Ids beyond a signed 64-bit integer cannot exist; looking them up would overflow the database driver.
MAX_CAMPAIGN_ID = 2**63 - 1


def _with_viewer_fields(queryset: QuerySet[Campaign], user: User | None) -> QuerySet[Campaign]:
    """Annotate ``liked_by_me`` and ``like_count`` (a number for admins only, else ``None``).

    Subqueries rather than joins, so a page of campaigns stays one query whatever the likes.
    """
    liked_by_me = (
        Exists(CampaignLike.objects.filter(campaign=OuterRef("pk"), user=user)) if user is not None else Value(False)
    )
    like_count: Expression
    if user is not None and user.is_admin:
        likes = CampaignLike.objects.filter(campaign=OuterRef("pk")).order_by().values("campaign")
        like_count = Coalesce(Subquery(likes.annotate(n=Count("pk")).values("n"), output_field=IntegerField()), 0)
    else:
        like_count = Value(None, output_field=IntegerField())
    return queryset.annotate(liked_by_me=liked_by_me, like_count=like_count)


def _listed() -> QuerySet[Campaign]:
    """The campaigns Explore lists: active and not yet ended."""
    return Campaign.objects.filter(status=CampaignStatus.ACTIVE, end_date__gte=timezone.localdate())


def explore_categories() -> list[Choice]:
    """The Explore filter: the spec's list, then every other category that campaigns listed on
    Explore have (in ``Category`` order), so each campaign can be found by its own category. One query."""
    listed = set(_listed().order_by().values_list("category", flat=True).distinct())
    offered = {value for value, _label in EXPLORE_CATEGORIES}
    return [
        *EXPLORE_CATEGORIES,
        *((category.value, category.label) for category in Category if category in listed - offered),
    ]


def campaign_list(
    *,
    user: User | None,
    q: str = "",
    category: str | None = None,
    type: str | None = None,
    status: str | None = None,
    page: int = 1,
    page_size: int = 12,
) -> tuple[list[Campaign], int]:
    """One page of campaigns, newest first, and the number of campaigns that match.

    ``status`` defaults to active, and active means not yet ended: an ended campaign leaves Explore
    (its page stays). Only admins may list other statuses: anyone else asking for them gets
    nothing, as they are not for browsing. ``q`` matches campaigns whose
    title or description contains every word of it (case-insensitive); on PostgreSQL a trigram
    index serves this (migration 0002). Two queries: the count, then the page (none past the end).
    """
    status = status or CampaignStatus.ACTIVE
    if status != CampaignStatus.ACTIVE and not (user is not None and user.is_admin):
        return [], 0
    queryset = _listed() if status == CampaignStatus.ACTIVE else Campaign.objects.filter(status=status)
    if type:
        queryset = queryset.filter(type=type)
    if category:
        queryset = queryset.filter(category=category)
    if words := q.split()[:MAX_SEARCH_WORDS]:
        queryset = queryset.alias(search=SearchText("title", "description"))
        for word in words:
            queryset = queryset.filter(search__icontains=word)

    total = queryset.count()
    offset = (page - 1) * page_size
    if offset >= total:
        return [], total
    page_rows = _with_viewer_fields(queryset.defer("story", "payment_options"), user)[offset : offset + page_size]
    return list(page_rows), total


SUCCESS_STORIES = 3


def success_stories() -> list[Campaign]:
    """The landing page's success stories: the best-funded public campaigns (running, ended or closed)
    whose owners agreed to be featured, by the money raised; none that raised nothing. One query."""
    return list(
        Campaign.objects.filter(status__in=PUBLIC_STATUSES, may_be_featured=True, raised_total__gt=0)
        .select_related("organization")
        .only(
            "title",
            "category",
            "raised_total",
            "goal",
            "image_url",
            "youtube_id",
            "media_type",
            "organization__name",
            "organization__kind",
        )
        .order_by("-raised_total", "-id")[:SUCCESS_STORIES]
    )


def campaign_get(*, campaign_id: int, user: User | None) -> Campaign:
    """The campaign with its organizer and viewer fields, if ``user`` may see it; else NotFoundError.

    Pending and closed campaigns exist only for their organizer and admins: others get the same
    404 as for a missing id, so hidden campaigns cannot be discovered. One query.
    """
    campaign = None
    if 1 <= campaign_id <= MAX_CAMPAIGN_ID:
        queryset = _with_viewer_fields(Campaign.objects.select_related("organizer", "organization"), user)
        if user is not None:
            queryset = queryset.annotate(viewer_role=_viewer_role(user))
        campaign = queryset.filter(pk=campaign_id).first()
        if campaign is not None and user is not None:
            campaign.role_known(user, campaign.viewer_role)  # type: ignore[attr-defined]  # annotated above
    if campaign is None or not campaign.is_visible_to(user):
        raise NotFoundError(_("Campaign not found"), code="not_found")
    return campaign


def campaign_permission_check(*, campaign: Campaign, user: User, permission: Permission, denied: str = "") -> None:
    """PermissionDeniedError (403, with ``denied`` as the message if given) unless ``user`` has
    ``permission`` on ``campaign`` (organizations/roles.py) or is an admin."""
    if campaign.allows(user, permission):
        return
    if not denied and permission == Permission.SEE_PLEDGES:
        denied = _("Only the campaign's owners, treasurers and viewers, or an admin, can see its pledges.")
    elif not denied:
        denied = _("Only the campaign's owners and treasurers, or an admin, can manage its pledges.")
    raise PermissionDeniedError(denied, code="not_organizer")


def campaign_managed_get(*, campaign_id: int, user: User, permission: Permission, denied: str = "") -> Campaign:
    """The campaign if ``user`` has ``permission`` on it or is an admin: 404 if they cannot see it,
    else 403 (see ``campaign_permission_check``)."""
    campaign = campaign_get(campaign_id=campaign_id, user=user)
    campaign_permission_check(campaign=campaign, user=user, permission=permission, denied=denied)
    return campaign


def campaign_like_count(*, campaign: Campaign) -> int:
    return CampaignLike.objects.filter(campaign=campaign).count()


@dataclass
class CampaignActivity:
    pledges: list[Pledge]
    donations: list[Donation]
    pledges_paid_total: int
    donors: int
    payers: int


def campaign_activity_get(*, campaign: Campaign) -> CampaignActivity:
    """What the campaign page lists: its ``RECENT_ACTIVITY_LIMIT`` newest live pledges, its latest
    paid donations, the sum paid so far towards its pledges (whole KES), and its donors and payers
    (distinct people, as pledges.models defines them). Four queries whatever the number of pledges;
    masking them for the viewer is ``CampaignDetailOut``'s job."""
    paid, payers = Pledge.objects.filter(campaign=campaign).paid_and_payers()
    return CampaignActivity(
        pledges=list(Pledge.objects.filter(campaign=campaign).live().newest_first()[:RECENT_ACTIVITY_LIMIT]),
        donations=list(Donation.objects.filter(campaign=campaign).paid()[:RECENT_ACTIVITY_LIMIT]),
        pledges_paid_total=paid,
        donors=Donation.objects.filter(campaign=campaign).donor_count(),
        payers=payers,
    )


def _viewer_role(user: User) -> Subquery:
    """``user``'s role in the organization of each campaign (None: not a member), for ``role_of``."""
    return Subquery(Membership.objects.filter(organization=OuterRef("organization_id"), user=user).values("role")[:1])


# The dashboard's campaigns: pledge campaigns and the legacy wizard's fundraisers (docs/reference/organizations.md).
DASHBOARD_TYPES = (CampaignType.PLEDGING, CampaignType.FUNDRAISING)


def _organized_campaigns(user: User) -> QuerySet[Campaign]:
    """The pledging campaigns and fundraisers of the organizations ``user`` belongs to, in any role
    (docs/reference/organizations.md: the spec's dashboard showed the campaigns a user organizes; a team now shares them)."""
    return Campaign.objects.filter(organization__in=user_organization_ids(user=user), type__in=DASHBOARD_TYPES)


def dashboard_campaigns(*, user: User) -> list[Campaign]:
    """The pledging campaigns and fundraisers of ``user``'s organizations, newest first, every status, with the
    viewer fields (like counts for admins only), the organization and ``viewer_role``, the user's
    role in it. One query whatever the number of campaigns."""
    campaigns = (
        _organized_campaigns(user)
        .select_related("organization")
        .defer("story", "payment_options")
        .annotate(viewer_role=_viewer_role(user))
    )
    return list(_with_viewer_fields(campaigns, user))


def dashboard_totals(*, user: User) -> dict[str, int]:
    """The dashboard's figures over the pledging campaigns and fundraisers of ``user``'s organizations, in one
    aggregate query: how many are active, and the pledged and paid sums (whole KES) over all of them."""
    return _organized_campaigns(user).aggregate(
        active_campaigns=Count("pk", filter=Q(status=CampaignStatus.ACTIVE)),
        total_pledged=Coalesce(Sum("pledged_total"), 0),
        total_paid=Coalesce(Sum("raised_total"), 0),
    )


def campaigns_personal_data_export(*, user: User) -> dict[str, object]:
    """The user's campaigns, drafts, likes and wizard feedback, for their download (``privacy``)."""
    return {
        "campaigns": list(Campaign.objects.filter(organizer=user).order_by("created_at", "id")),
        "campaign_drafts": list(Draft.objects.filter(user=user).order_by("created_at", "id")),
        "campaign_likes": list(CampaignLike.objects.filter(user=user).order_by("created_at", "id")),
        "wizard_feedback": list(WizardFeedback.objects.filter(user=user).order_by("created_at", "id")),
    }


# Where a campaign's givers pay ----------------------------------------------------------------

# A legacy payment option's details, as the collection account they describe (never saved).
LEGACY_OPTION_ACCOUNTS = {
    "bank": ("bank", {"bank_name": "bank_name", "account_name": "account_name", "account_number": "account_no"}),
    "mpesa_till": ("till", {"till_number": "till_number"}),
    "paybill": ("paybill_fixed_account", {"paybill_number": "business_number", "account_number": "account_no"}),
    "cash": ("cash", {"location": "location"}),
}


def campaign_accounts(*, campaign: Campaign) -> list[CollectionAccount]:
    """The accounts a campaign's givers pay into, in its order. One query the first time for each
    campaign object, none after: a page asks for the instructions and whether PIN prompts are offered."""
    accounts: list[CollectionAccount] | None = campaign.__dict__.get("_collection_accounts")
    if accounts is None:
        accounts = [link.account for link in campaign.account_links.select_related("account")]
        campaign.__dict__["_collection_accounts"] = accounts
    return accounts


def campaign_stk_account(*, campaign: Campaign) -> CollectionAccount | None:
    """The first of the campaign's accounts that takes PIN prompts (a connected paybill or till);
    None: the campaign offers no STK Push, only the instructions."""
    return next((account for account in campaign_accounts(campaign=campaign) if account.offers_stk_push), None)


def campaign_airtel_account(*, campaign: Campaign) -> CollectionAccount | None:
    """The first of the campaign's accounts that takes Airtel Money pushes (an Airtel Money account
    with API credentials); None: the campaign offers no Airtel Money push."""
    return next((account for account in campaign_accounts(campaign=campaign) if account.offers_airtel_push), None)


def campaign_card_account(*, campaign: Campaign) -> CollectionAccount | None:
    """The bank account the campaign's card payments settle to: its organization's (the default
    first) that has a Paystack subaccount; None: the campaign offers no card payment. One query the
    first time for each campaign object, none after."""
    if "_card_account" not in campaign.__dict__:
        campaign.__dict__["_card_account"] = (
            CollectionAccount.objects.filter(organization_id=campaign.organization_id, kind=CollectionAccountKind.BANK)
            .exclude(card_subaccount_code="")
            .first()
        )
    account: CollectionAccount | None = campaign.__dict__["_card_account"]
    return account


def _legacy_instruction(option: dict[str, Any], *, reference: str | None) -> Instruction | None:
    method, details = option.get("method"), option.get("details") or {}
    if method == "mpesa":
        return phone_number_instruction(details.get("phone_number", ""), reference=reference)
    if method not in LEGACY_OPTION_ACCOUNTS:
        return None
    kind, fields = LEGACY_OPTION_ACCOUNTS[method]
    account = CollectionAccount(kind=kind, **{field: details.get(key, "") for field, key in fields.items()})
    return account_instruction(account, reference=reference)


def campaign_payment_instructions(*, campaign: Campaign, reference: str | None) -> list[Instruction]:
    """How to pay the campaign with ``reference`` (a pledge code; None on the campaign page): its
    accounts, then what its legacy options still hold (a personal M-Pesa number)."""
    instructions = [account_instruction(a, reference=reference) for a in campaign_accounts(campaign=campaign)]
    legacy = (_legacy_instruction(option, reference=reference) for option in campaign.payment_options)
    return instructions + [instruction for instruction in legacy if instruction is not None]


def campaign_has_personal_number(*, campaign: Campaign) -> bool:
    """A legacy campaign still shows a personal M-Pesa number: its team is warned."""
    return any(option.get("method") == "mpesa" for option in campaign.payment_options)
