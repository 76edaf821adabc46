"""The campaigns API: explore, one campaign, likes, editing, the admin's status change, QR codes.

Who sees what: visitors and signed-in users see active campaigns; the organizer and admins
also see the campaign's pending and closed states (everyone else gets 404, as for a missing id).
Only admins see like counts, only the organizer and admins see the organizer's e-mail.
"""

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import File, Query, Router, Status, UploadedFile
from ninja.security import SessionAuth, django_auth

from accounts.auth import request_user, signed_in_user
from campaigns import caching, drafts, selectors, services, sharing, uploads, wizard
from campaigns.categories import EDIT_FORM_CATEGORIES, WIZARD_CATEGORIES, Choice
from campaigns.models import Campaign, Draft
from campaigns.schemas import (
    CampaignAccountsIn,
    CampaignCardOut,
    CampaignCreatedOut,
    CampaignDetailOut,
    CampaignListQuery,
    CampaignStatusIn,
    CampaignUpdateIn,
    CategoryListsOut,
    DraftIn,
    DraftOut,
    DraftToolTypeQuery,
    DraftUpdateIn,
    FundraiserCreatedOut,
    FundraiserIn,
    LikeOut,
    MediaOut,
    PledgingCampaignIn,
    SuccessStoryOut,
    WizardFeedbackIn,
    WizardFeedbackOut,
)
from collection_accounts.models import CollectionAccount
from collection_accounts.schemas import CollectionAccountOut
from common.cache_control import cache_for_visitors
from common.errors import PermissionDeniedError, ServiceError
from common.schemas import ErrorOut
from organizations.models import ChangeRequest
from organizations.schemas import ChangeRequestOut
from organizations.selectors import membership_of

router = Router(tags=["campaigns"])

NOT_FOUND = {404: ErrorOut, 422: ErrorOut}
SIGNED_IN = {401: ErrorOut, 403: ErrorOut, **NOT_FOUND}


def _choices(choices: list[Choice]) -> list[dict[str, str]]:
    return [{"value": value, "label": str(label)} for value, label in choices]


@router.get("/campaign-categories", response=CategoryListsOut)
def campaign_categories(request: HttpRequest) -> dict[str, list[dict[str, str]]]:
    return {
        "explore": _choices(selectors.explore_categories()),
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
    campaigns, total = selectors.campaign_list(user=request_user(request), **filters.dict())
    response["X-Total-Count"] = str(total)
    cache_for_visitors(request, response)
    return campaigns


@router.get("/success-stories", response=list[SuccessStoryOut])
def success_stories(request: HttpRequest, response: HttpResponse) -> list[Campaign]:
    """The landing page's success stories: real campaigns whose owners agreed to be featured (may be empty)."""
    cache_for_visitors(request, response)
    return selectors.success_stories()


@router.get("/campaigns/{campaign_id}", response={200: CampaignDetailOut, **NOT_FOUND})
def campaign_detail(request: HttpRequest, response: HttpResponse, campaign_id: int) -> CampaignDetailOut | HttpResponse:
    viewer = request_user(request)
    if viewer is not None:
        campaign = selectors.campaign_get(campaign_id=campaign_id, user=viewer)
        cache_for_visitors(request, response)
        return CampaignDetailOut.for_viewer(campaign, viewer=viewer)
    # What every visitor sees, rendered once per change of the campaign.
    public = caching.public_campaign_get(campaign_id=campaign_id)
    answer = HttpResponse(public.json, content_type="application/json; charset=utf-8")
    cache_for_visitors(request, answer)
    return answer


@router.patch("/campaigns/{campaign_id}", response={200: CampaignDetailOut, **SIGNED_IN}, auth=django_auth)
def campaign_update(request: HttpRequest, campaign_id: int, payload: CampaignUpdateIn) -> CampaignDetailOut:
    """Edit a campaign (organizer or admin). Fields left out or null are unchanged."""
    user = signed_in_user(request)
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=user)
    services.campaign_update(campaign=campaign, user=user, **payload.dict())
    return CampaignDetailOut.for_viewer(campaign, viewer=user)


@router.post("/campaigns/{campaign_id}/status", response={200: CampaignDetailOut, **SIGNED_IN}, auth=django_auth)
def campaign_status_change(request: HttpRequest, campaign_id: int, payload: CampaignStatusIn) -> CampaignDetailOut:
    """Admins only: activate, close, or suspend a campaign (with the reason its organizer sees) and lift that."""
    user = signed_in_user(request)
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=user)
    services.campaign_status_change(campaign=campaign, status=payload.status, changed_by=user, reason=payload.reason)
    return CampaignDetailOut.for_viewer(campaign, viewer=user)


@router.post("/campaigns/{campaign_id}/close", response={200: CampaignDetailOut, **SIGNED_IN}, auth=django_auth)
def campaign_close(request: HttpRequest, campaign_id: int) -> CampaignDetailOut:
    """Its owners (or an admin) close an active campaign early; its page stays for its pledgers."""
    user = signed_in_user(request)
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=user)
    services.campaign_close_early(campaign=campaign, user=user)
    return CampaignDetailOut.for_viewer(campaign, viewer=user)


@router.get(
    "/campaigns/{campaign_id}/collection-accounts",
    response={200: list[CollectionAccountOut], **SIGNED_IN},
    auth=django_auth,
)
def campaign_accounts_list(request: HttpRequest, campaign_id: int) -> list[CollectionAccount]:
    """The accounts the campaign's givers pay into, in order: its organization's team sees them."""
    user = signed_in_user(request)
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=user)
    if campaign.role_of(user) is None:
        raise PermissionDeniedError(_("Only the organization's team can see this."), code="not_member")
    return selectors.campaign_accounts(campaign=campaign)


@router.put(
    "/campaigns/{campaign_id}/collection-accounts",
    response={200: list[CollectionAccountOut], 202: ChangeRequestOut, **SIGNED_IN},
    auth=django_auth,
)
def campaign_accounts_change(
    request: HttpRequest, campaign_id: int, payload: CampaignAccountsIn
) -> list[CollectionAccount] | Status[ChangeRequestOut]:
    """Switch the campaign to other accounts of its organization (owners and treasurers): 202 while
    it waits for another's approval (the two-person rule). A legacy fundraiser's bank stays."""
    user = signed_in_user(request)
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=user)
    change = services.campaign_accounts_change(campaign=campaign, user=user, account_ids=payload.account_ids)
    if isinstance(change, ChangeRequest):
        membership = membership_of(user=user, organization_id=campaign.organization_id)
        return Status(202, ChangeRequestOut.for_member(change, membership=membership))
    return selectors.campaign_accounts(campaign=Campaign.objects.get(pk=campaign.pk))


@router.post("/campaigns/{campaign_id}/likes", response={200: LikeOut, **SIGNED_IN}, auth=django_auth)
def campaign_like(request: HttpRequest, campaign_id: int) -> dict[str, object]:
    """Like the campaign; liking again is harmless."""
    user = signed_in_user(request)
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=user)
    services.campaign_like(campaign=campaign, user=user)
    return {"liked": True, "like_count": selectors.campaign_like_count(campaign=campaign) if user.is_admin else None}


@router.delete("/campaigns/{campaign_id}/likes", response={200: LikeOut, **SIGNED_IN}, auth=django_auth)
def campaign_unlike(request: HttpRequest, campaign_id: int) -> dict[str, object]:
    """Take the like back; harmless without one."""
    user = signed_in_user(request)
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
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=request_user(request))
    response = HttpResponse(sharing.campaign_qr_svg(campaign=campaign), content_type="image/svg+xml")
    response["Content-Disposition"] = f'inline; filename="campaign-{campaign.pk}-qr.svg"'
    response["Cache-Control"] = "public, max-age=3600"
    return response


# The campaign wizards: drafts, media uploads, creating campaigns and the wizard's feedback.

CREATE = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}


class NotAuthenticatedError(ServiceError):
    status = 401


class DraftSessionAuth(SessionAuth):
    """The session, as ``django_auth``, answering the drafts' own 401 message (spec section 8)."""

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        if user := super().authenticate(request, key):
            return user
        raise NotAuthenticatedError(_("User not authenticated"), code="not_authenticated")


draft_auth = DraftSessionAuth()


@router.get("/campaign-drafts", response={200: list[DraftOut], 401: ErrorOut, 422: ErrorOut}, auth=draft_auth)
def draft_list(request: HttpRequest, filters: Query[DraftToolTypeQuery]) -> list[Draft]:
    """The signed-in user's open drafts of one tool, newest first: the first is the one to resume."""
    return list(drafts.draft_list_open(user=signed_in_user(request), tool_type=filters.tool_type))


@router.post("/campaign-drafts", response={201: DraftOut, 401: ErrorOut, 422: ErrorOut}, auth=draft_auth)
def draft_create(request: HttpRequest, payload: DraftIn) -> Status[Draft]:
    return Status(201, drafts.draft_create(user=signed_in_user(request), **payload.dict()))


@router.put(
    "/campaign-drafts/{draft_id}",
    response={200: DraftOut, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    auth=draft_auth,
)
def draft_update(request: HttpRequest, draft_id: int, payload: DraftUpdateIn) -> Draft:
    """Change the user's own draft; anyone else's id is answered 404."""
    draft = drafts.draft_get(user=signed_in_user(request), draft_id=draft_id)
    return drafts.draft_update(draft=draft, **payload.dict())


@router.post(
    "/media", response={201: MediaOut, 401: ErrorOut, 403: ErrorOut, 422: ErrorOut, 429: ErrorOut}, auth=django_auth
)
def media_upload(request: HttpRequest, file: File[UploadedFile | None] = None) -> Status[uploads.StoredMedia]:
    """Upload a campaign cover (multipart field ``file``): JPEG, PNG, GIF, MP4 or WebM, at most 25 MB."""
    if file is None and uploads.upload_was_too_large(request):
        raise uploads.file_too_large_error()
    return Status(201, uploads.media_upload(user=signed_in_user(request), file=file))


@router.post("/pledging-campaigns", response={201: CampaignCreatedOut, **CREATE}, auth=django_auth)
def pledging_campaign_create(request: HttpRequest, payload: PledgingCampaignIn) -> Status[dict[str, int]]:
    """Launch a pledge campaign: pending until the activation payment, active at once for subscribers."""
    campaign = wizard.campaign_create_pledging(organizer=signed_in_user(request), **payload.dict())
    return Status(201, {"id": campaign.pk})


@router.post("/campaigns", response={201: FundraiserCreatedOut, **CREATE}, auth=django_auth)
def fundraiser_create(request: HttpRequest, payload: FundraiserIn) -> Status[dict[str, object]]:
    """The legacy fundraiser wizard: a fundraising campaign with a bank payment option."""
    campaign = wizard.campaign_create_fundraiser(organizer=signed_in_user(request), **payload.dict())
    return Status(201, {"ok": True, "id": campaign.pk})


@router.post("/wizard-feedback", response={201: WizardFeedbackOut, **CREATE}, auth=django_auth)
def wizard_feedback_create(request: HttpRequest, payload: WizardFeedbackIn) -> Status[dict[str, int]]:
    """The optional form of the wizard's 'Thank You for Your Interest!' dialog."""
    feedback = wizard.wizard_feedback_create(user=signed_in_user(request), **payload.dict())
    return Status(201, {"id": feedback.pk})
