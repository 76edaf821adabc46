"""The campaigns API: explore, one campaign, likes, editing, the admin's status change, QR codes.

Who sees what: visitors and signed-in users see active campaigns; the organizer and admins
also see the campaign's pending and closed states (everyone else gets 404, as for a missing id).
Only admins see like counts, only the organizer and admins see the organizer's e-mail.
"""

from django.http import HttpRequest, HttpResponse
from ninja import Query, Router
from ninja.security import django_auth

from accounts.models import User
from campaigns import selectors, services, sharing
from campaigns.categories import EDIT_FORM_CATEGORIES, EXPLORE_CATEGORIES, WIZARD_CATEGORIES, Choice
from campaigns.models import Campaign
from campaigns.schemas import (
    CampaignCardOut,
    CampaignDetailOut,
    CampaignListQuery,
    CampaignStatusIn,
    CampaignUpdateIn,
    CategoryListsOut,
    LikeOut,
)
from common.schemas import ErrorOut

router = Router(tags=["campaigns"])

NOT_FOUND = {404: ErrorOut, 422: ErrorOut}
SIGNED_IN = {401: ErrorOut, 403: ErrorOut, **NOT_FOUND}


def _viewer(request: HttpRequest) -> User | None:
    return request.user if isinstance(request.user, User) and request.user.is_authenticated else None


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def _choices(choices: list[Choice]) -> list[dict[str, str]]:
    return [{"value": value, "label": str(label)} for value, label in choices]


@router.get("/campaign-categories", response=CategoryListsOut)
def campaign_categories(request: HttpRequest) -> dict[str, list[dict[str, str]]]:
    return {
        "explore": _choices(EXPLORE_CATEGORIES),
        "edit_form": _choices(EDIT_FORM_CATEGORIES),
        "wizard": _choices(WIZARD_CATEGORIES),
    }


@router.get(
    "/campaigns",
    response={200: list[CampaignCardOut], 422: ErrorOut},
    openapi_extra={
        "responses": {
            200: {
                "headers": {
                    "X-Total-Count": {
                        "description": "How many campaigns match the filters, over all pages.",
                        "schema": {"type": "integer"},
                    }
                }
            }
        }
    },
)
def campaign_list(request: HttpRequest, response: HttpResponse, filters: Query[CampaignListQuery]) -> list[Campaign]:
    """Campaigns matching the filters, newest first, one page at a time (an array, spec section 7)."""
    campaigns, total = selectors.campaign_list(user=_viewer(request), **filters.dict())
    response["X-Total-Count"] = str(total)
    return campaigns


@router.get("/campaigns/{campaign_id}", response={200: CampaignDetailOut, **NOT_FOUND})
def campaign_detail(request: HttpRequest, campaign_id: int) -> CampaignDetailOut:
    viewer = _viewer(request)
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=viewer)
    return CampaignDetailOut.for_viewer(campaign, viewer=viewer)


@router.patch("/campaigns/{campaign_id}", response={200: CampaignDetailOut, **SIGNED_IN}, auth=django_auth)
def campaign_update(request: HttpRequest, campaign_id: int, payload: CampaignUpdateIn) -> CampaignDetailOut:
    """Edit a campaign (organizer or admin). Fields left out or null are unchanged."""
    user = _user(request)
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=user)
    services.campaign_update(campaign=campaign, user=user, **payload.dict())
    return CampaignDetailOut.for_viewer(campaign, viewer=user)


@router.post("/campaigns/{campaign_id}/status", response={200: CampaignDetailOut, **SIGNED_IN}, auth=django_auth)
def campaign_status_change(request: HttpRequest, campaign_id: int, payload: CampaignStatusIn) -> CampaignDetailOut:
    """Admins only: activate, close or hold back (pending) a campaign."""
    user = _user(request)
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=user)
    services.campaign_status_change(campaign=campaign, status=payload.status, changed_by=user)
    return CampaignDetailOut.for_viewer(campaign, viewer=user)


@router.post("/campaigns/{campaign_id}/likes", response={200: LikeOut, **SIGNED_IN}, auth=django_auth)
def campaign_like(request: HttpRequest, campaign_id: int) -> dict[str, object]:
    """Like the campaign; liking again is harmless."""
    user = _user(request)
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=user)
    services.campaign_like(campaign=campaign, user=user)
    return {"liked": True, "like_count": selectors.campaign_like_count(campaign=campaign) if user.is_admin else None}


@router.delete("/campaigns/{campaign_id}/likes", response={200: LikeOut, **SIGNED_IN}, auth=django_auth)
def campaign_unlike(request: HttpRequest, campaign_id: int) -> dict[str, object]:
    """Take the like back; harmless without one."""
    user = _user(request)
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=user)
    services.campaign_unlike(campaign=campaign, user=user)
    return {"liked": False, "like_count": selectors.campaign_like_count(campaign=campaign) if user.is_admin else None}


@router.get(
    "/campaigns/{campaign_id}/qr.svg",
    response={200: None, **NOT_FOUND},
    openapi_extra={
        "responses": {
            200: {
                "description": "A QR code of the campaign's share_url, black on white.",
                "content": {"image/svg+xml": {"schema": {"type": "string"}}},
            }
        }
    },
)
def campaign_qr(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The QR code of an active campaign's link, for posters and church bulletins (404 otherwise)."""
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=_viewer(request))
    response = HttpResponse(sharing.campaign_qr_svg(campaign=campaign), content_type="image/svg+xml")
    response["Content-Disposition"] = f'inline; filename="campaign-{campaign.pk}-qr.svg"'
    response["Cache-Control"] = "public, max-age=3600"
    return response
