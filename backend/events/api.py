"""The events API: a campaign's events (its owners run them) and the big screen's data.

GET /api/campaigns/{id}/live is public and polled by every screen in the hall every second, so it
is cheap whoever asks: its ETag is the campaign's version token (``campaigns.caching``, in the shared
cache, renewed by every pledge, gift, payment, event and moderation change on any instance); a
matching ``If-None-Match`` is answered 304 from that one cache lookup, and the answer to a version
is rendered once and kept in the shared cache beside it, so the polls after a change cost one more
lookup each. Cookie-less reads may be kept by the balancer for at most half a second
(deploy/nginx; docs/operations/scaling.md, "The big screen").
"""

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from ninja import Router, Status
from ninja.security import django_auth

from accounts.auth import signed_in_user
from campaigns.caching import campaign_version, campaign_version_start
from campaigns.selectors import campaign_managed_get
from common.cache_control import cache_for_visitors
from common.languages import current_language
from common.schemas import ErrorOut
from events import selectors, services
from events.models import Event
from events.schemas import EventIn, EventOut, HiddenEntryIn, HiddenLiveEntryOut, LiveEntryKind, LiveScreenOut
from organizations.roles import Permission

router = Router(tags=["events"])

ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}
# The balancer may keep visitors' answers: nginx renews its copy every half second whatever this
# says (deploy/nginx), well inside the 2 s in which an entry must reach every screen; the smallest
# s-maxage says 'shared caches may keep it' to it.
LIVE_SHARED_CACHE_SECONDS = 1
# A signed-in screen (an organizer's laptop) asks the app every time; its browser may revalidate.
LIVE_PRIVATE = "private, no-cache"
# How long a rendered answer is kept for the screens still to ask for it: a change replaces it sooner.
LIVE_ANSWER_SECONDS = 60


@router.get("/campaigns/{campaign_id}/events", response={200: list[EventOut], **ERRORS}, auth=django_auth)
def event_list(request: HttpRequest, campaign_id: int) -> list[Event]:
    """The campaign's events, the latest first: for its team (owners, treasurers, ushers, viewers) and admins."""
    campaign = campaign_managed_get(
        campaign_id=campaign_id, user=signed_in_user(request), permission=Permission.SEE_UNPUBLISHED
    )
    return selectors.events_of(campaign=campaign)


@router.post("/campaigns/{campaign_id}/events", response={201: EventOut, **ERRORS}, auth=django_auth)
def event_create(request: HttpRequest, campaign_id: int, body: EventIn) -> Status[Event]:
    """Announce an event (owners and admins); it starts counting once opened."""
    event = services.event_create(user=signed_in_user(request), campaign_id=campaign_id, **body.dict())
    return Status(201, event)


@router.post("/events/{event_id}/open", response={200: EventOut, 400: ErrorOut, **ERRORS}, auth=django_auth)
def event_open(request: HttpRequest, event_id: int) -> Event:
    """Open the event: the big screen's feed and the night's figures start now (owners and admins)."""
    return services.event_open(user=signed_in_user(request), event_id=event_id)


@router.post("/events/{event_id}/close", response={200: EventOut, 400: ErrorOut, **ERRORS}, auth=django_auth)
def event_close(request: HttpRequest, event_id: int) -> Event:
    """Close the event (owners and admins)."""
    return services.event_close(user=signed_in_user(request), event_id=event_id)


@router.post("/campaigns/{campaign_id}/live/hidden", response={204: None, **ERRORS}, auth=django_auth)
def live_entry_hide(request: HttpRequest, campaign_id: int, body: HiddenEntryIn) -> HttpResponse:
    """Take a pledge or gift off the big screens at their next poll; it stays in the books (owners,
    treasurers, ushers and admins)."""
    services.live_entry_hide(user=signed_in_user(request), campaign_id=campaign_id, kind=body.kind, entry_id=body.id)
    return HttpResponse(status=204)


@router.get(
    "/campaigns/{campaign_id}/live/hidden", response={200: list[HiddenLiveEntryOut], **ERRORS}, auth=django_auth
)
def live_hidden_list(request: HttpRequest, campaign_id: int) -> list[HiddenLiveEntryOut]:
    """The entries hidden from the big screens, the last hidden first, to show one again (owners,
    treasurers, ushers and admins)."""
    campaign = campaign_managed_get(
        campaign_id=campaign_id, user=signed_in_user(request), permission=Permission.MODERATE_LIVE_FEED
    )
    return [HiddenLiveEntryOut.from_hidden(hidden) for hidden in selectors.hidden_entries_of(campaign=campaign)]


@router.delete(
    "/campaigns/{campaign_id}/live/hidden/{kind}/{entry_id}", response={204: None, **ERRORS}, auth=django_auth
)
def live_entry_unhide(request: HttpRequest, campaign_id: int, kind: LiveEntryKind, entry_id: int) -> HttpResponse:
    """Put a hidden pledge or gift back on the big screens at their next poll (owners, treasurers,
    ushers and admins)."""
    services.live_entry_unhide(user=signed_in_user(request), campaign_id=campaign_id, kind=kind, entry_id=entry_id)
    return HttpResponse(status=204)


def _etag(version: str) -> str:
    # The names ('Anonymous', 'Caller') are in the reader's language.
    return f'"live-{version}-{current_language()}"'


def _live_response(request: HttpRequest, body: bytes | None, etag: str) -> HttpResponse:
    response = HttpResponse(status=304) if body is None else HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    cache_for_visitors(request, response, otherwise=LIVE_PRIVATE, shared_seconds=LIVE_SHARED_CACHE_SECONDS)
    patch_vary_headers(response, ["Accept-Language"])
    return response


@router.get(
    "/campaigns/{campaign_id}/live",
    response={200: LiveScreenOut, 304: None, 404: ErrorOut},
    openapi_extra={
        "parameters": [
            {
                "in": "header",
                "name": "If-None-Match",
                "required": False,
                "schema": {"type": "string"},
                "description": "The ETag of the answer the screen shows: 304 while nothing changed.",
            }
        ],
        "responses": {200: {"headers": {"ETag": {"schema": {"type": "string"}}}}},
    },
)
def live_screen(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The big screen of an active campaign: totals, how to pay, and the feed of its open event. The
    same for everyone: polled with If-None-Match, answered 304 while nothing changed."""
    version = campaign_version(campaign_id=campaign_id)
    if version is not None and request.headers.get("If-None-Match") == _etag(version):
        return _live_response(request, None, _etag(version))
    if version is None:
        # Only for a campaign that is shown (any id can be asked for), and before the rows are read:
        # a change from now on replaces it, so it never stamps rows older than itself.
        selectors.live_campaign_get(campaign_id=campaign_id)
        version = campaign_version_start(campaign_id=campaign_id)
    etag = _etag(version)
    key = f"events:live:{campaign_id}:{etag}"
    body = cache.get(key)
    if body is None:
        campaign = selectors.live_campaign_get(campaign_id=campaign_id)
        body = LiveScreenOut.from_screen(selectors.live_screen_get(campaign=campaign)).model_dump_json().encode()
        cache.set(key, body, timeout=LIVE_ANSWER_SECONDS)
    return _live_response(request, body, etag)
