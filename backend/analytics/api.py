"""Campaign analytics: the page-view beacon (anyone) and the figures (the organizer and admins).

GET /api/campaigns/{id}/analytics (and its monthly CSV, analytics.csv) answers 401 signed out,
403 for someone who may not manage the campaign (404 if they cannot even see it). The CSV
exports of pledges and donations are the Pledge Management ones (/api/pledges/export.csv and
/api/donations/export.csv).
"""

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Router
from ninja.security import django_auth

from accounts.auth import request_user, signed_in_user
from analytics import selectors, services
from analytics.schemas import CampaignAnalyticsOut
from campaigns.models import Campaign
from campaigns.selectors import campaign_managed_get
from common.csv_export import CSV_OPENAPI, csv_response
from common.ratelimit import client_ip
from common.schemas import ErrorOut
from organizations.roles import Permission

router = Router(tags=["analytics"])


@router.post("/campaigns/{campaign_id}/views", response={204: None, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut})
def campaign_view(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """A view of the campaign page (the page sends it once per visit, without waiting for it).
    No cookie is set and no address stored; the organizer's and admins' own views do not count."""
    services.campaign_view_record(
        campaign_id=campaign_id,
        viewer=request_user(request),
        client_ip=client_ip(request),
        user_agent=str(request.META.get("HTTP_USER_AGENT", ""))[:500],
    )
    # An empty answer: nothing here is worth a body, and a browser sends the beacon without reading it.
    return HttpResponse(status=204)


@router.get(
    "/campaigns/{campaign_id}/analytics",
    response={200: CampaignAnalyticsOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    auth=django_auth,
)
def campaign_analytics(request: HttpRequest, campaign_id: int) -> selectors.CampaignAnalytics:
    """Money over time against the goal, pledges by state, payments by method, page views,
    unique visitors, conversion, the best days, and what instalment plans promise by month."""
    return selectors.campaign_analytics_get(campaign=_analysed_campaign(request, campaign_id))


@router.get(
    "/campaigns/{campaign_id}/analytics.csv",
    response={200: None, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    auth=django_auth,
    openapi_extra=CSV_OPENAPI,
)
def campaign_analytics_export(request: HttpRequest, campaign_id: int) -> StreamingHttpResponse:
    """Month by month: pledged, paid, and what instalment plans promise, as a spreadsheet."""
    campaign = _analysed_campaign(request, campaign_id)
    rows = selectors.analytics_month_rows(analytics=selectors.campaign_analytics_get(campaign=campaign))
    return csv_response(rows, filename=f"analytics-campaign-{campaign.pk}-{timezone.localdate():%Y-%m-%d}.csv")


def _analysed_campaign(request: HttpRequest, campaign_id: int) -> Campaign:
    return campaign_managed_get(
        campaign_id=campaign_id,
        user=signed_in_user(request),
        permission=Permission.SEE_PLEDGES,
        denied=_("Only the campaign's owners, treasurers and viewers, or an admin, can see its analytics."),
    )
