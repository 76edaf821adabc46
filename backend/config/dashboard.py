"""GET /api/dashboard: everything the signed-in organizer's dashboard shows, in one call.

The figures and the campaign grid cover the pledging campaigns and legacy fundraisers of the
caller's organizations, in any role (the spec said "the caller organizes": see docs/reference/organizations.md,
Organizations); like counts are for admins only. A constant number of queries whatever the
number of campaigns: the session, the user, the totals, the campaigns, the grant matches.
Here in the composition layer, as it brings campaigns and the grant tool together.
"""

from datetime import date

from django.conf import settings
from django.http import HttpRequest
from ninja import Field, Router, Schema
from ninja.security import django_auth

from accounts.auth import signed_in_user
from accounts.models import User
from campaigns import selectors
from campaigns.categories import Category
from campaigns.models import CampaignStatus, CampaignType
from common.schemas import ErrorOut
from grants.selectors import grant_good_match_count
from organizations.roles import Role

router = Router(tags=["dashboard"])


class DashboardCampaignOut(Schema):
    id: int
    type: CampaignType = Field(description="pledging, or fundraising for the legacy /start-fundraiser wizard's.")
    title: str
    category: Category
    category_label: str = Field(description="The category's name in the site language.")
    status: CampaignStatus = Field(
        description="A pending campaign awaits its activation payment ('Pay Now'); a suspended one was held back "
        "by an admin (suspension_reason says why); a closed one was closed early (shown as Closed)."
    )
    suspension_reason: str = Field(description="Why an admin suspended the campaign; '' unless it is suspended.")
    goal: int = Field(description="Whole KES.")
    pledged_total: int = Field(description="Sum of the pledges, whole KES.")
    raised_total: int = Field(description="Sum of the payments received, whole KES.")
    progress_percent: int = Field(description="pledged_total over goal in whole percent, capped at 100 for bars.")
    cover_image_url: str = Field(description="A still image for the card; '' if none.")
    end_date: date
    has_ended: bool = Field(description="Active but past its end date: shown as Ended.")
    like_count: int | None = Field(description="The number of likes, for admins only; null for everyone else.")
    organization_id: int
    organization_name: str = Field(alias="organization.name")
    viewer_role: Role = Field(description="The user's role in the campaign's organization: what they may do with it.")


class DashboardOut(Schema):
    grant_matches: int = Field(description="Sample grants matching the user's grant profile (0 until the grant tool).")
    active_campaigns: int = Field(
        description="The active pledging campaigns and fundraisers of the user's organizations."
    )
    total_pledged: int = Field(description="Sum of pledged_total over those campaigns, whole KES.")
    total_paid: int = Field(description="Sum of raised_total over those campaigns, whole KES.")
    organization_content_tool_url: str = Field(description="The external organization-content tool (a new tab).")
    support_email: str = Field(description="Where organizers write with questions, e.g. about a suspended campaign.")
    campaigns: list[DashboardCampaignOut] = Field(
        description="The pledging campaigns and fundraisers of the user's organizations, newest first."
    )


def _grant_matches(user: User) -> int:
    """The one place the grant tool's match count comes from."""
    return grant_good_match_count(user=user)


@router.get("/dashboard", response={200: DashboardOut, 401: ErrorOut}, auth=django_auth)
def dashboard(request: HttpRequest) -> dict[str, object]:
    """The signed-in user's dashboard: stat figures, the external tool's address, their campaigns."""
    user = signed_in_user(request)
    return {
        **selectors.dashboard_totals(user=user),
        "grant_matches": _grant_matches(user),
        "organization_content_tool_url": settings.ORGANIZATION_CONTENT_TOOL_URL,
        "support_email": settings.SUPPORT_EMAIL,
        "campaigns": selectors.dashboard_campaigns(user=user),
    }
