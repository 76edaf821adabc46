"""The champions API: leaderboards, champions' pages, becoming a champion, teams, pledging through a
champion, a champion's own view, and the harambee cards (printing them; recording a returned one).

Public: the leaderboards, a champion's page and QR code, pledging through a champion. Signed in:
becoming a champion, finding one's own championship. The champion themselves, or the campaign's owners and treasurers: changing a
champion; the champion or those who see pledges: their circle; those who see pledges: every champion and team. Owners and treasurers: naming someone
a champion, teams, printing the cards; owners, treasurers and ushers: recording a returned card.
"""

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.security import django_auth

from accounts.auth import request_user, signed_in_user
from campaigns.selectors import campaign_get, campaign_permission_check
from champions import caching, cards, selectors, services
from champions.schemas import (
    CardOut,
    CardReturnIn,
    ChampionIn,
    ChampionOut,
    ChampionPageOut,
    ChampionPatchIn,
    CircleGiftOut,
    CircleOut,
    LeaderboardsOut,
    RosterOut,
    TeamIn,
    TeamOut,
)
from common.challenges import SOLUTION_HEADER
from common.errors import NotFoundError, PermissionDeniedError
from common.ratelimit import client_ip
from common.schemas import ErrorOut
from organizations.roles import Permission
from pledges.schemas import PledgeIn, PledgeReceiptOut

router = Router(tags=["champions"])

ERRORS = {400: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut}
SIGNED_IN_ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 400: ErrorOut, 422: ErrorOut}
CHAMPION = "/campaigns/{campaign_id}/champions/{champion_code}"


@router.get("/campaigns/{campaign_id}/champions", response={200: LeaderboardsOut, 404: ErrorOut})
def leaderboards(request: HttpRequest, campaign_id: int) -> HttpResponse | LeaderboardsOut:
    """The campaign's top champions and teams, overall and tonight, as the public sees them: the
    public-figure rule applies, and champions who asked to stay off the board are not named."""
    try:
        return HttpResponse(caching.public_leaderboards(campaign_id=campaign_id), content_type="application/json")
    except NotFoundError:
        # Not public: its team (and admins) still see it.
        campaign = campaign_get(campaign_id=campaign_id, user=request_user(request))
        return LeaderboardsOut.of(selectors.leaderboards(campaign=campaign))


@router.post("/campaigns/{campaign_id}/champions", response={201: ChampionOut, **SIGNED_IN_ERRORS}, auth=django_auth)
def champion_create(request: HttpRequest, campaign_id: int, payload: ChampionIn) -> Status[ChampionOut]:
    """Become a champion of an active campaign (once), or, as its owners and treasurers, name someone."""
    champion = services.champion_create(campaign_id=campaign_id, user=signed_in_user(request), **payload.dict())
    return Status(201, ChampionOut.of(champion))


@router.get(CHAMPION, response={200: ChampionPageOut, 404: ErrorOut})
def champion_page(request: HttpRequest, campaign_id: int, champion_code: str) -> HttpResponse | ChampionPageOut:
    """A champion's public page: their appeal, goal and progress, and how to give through them."""
    try:
        body = caching.public_champion_page(campaign_id=campaign_id, code=champion_code)
        return HttpResponse(body, content_type="application/json")
    except NotFoundError:
        pass  # not public (or no such champion): as the viewer may see it
    champion = services.champion_get(campaign_id=campaign_id, code=champion_code, user=request_user(request))
    return ChampionPageOut.page(champion, selectors.champion_totals(champion=champion))


@router.patch(CHAMPION, response={200: ChampionOut, **SIGNED_IN_ERRORS}, auth=django_auth)
def champion_update(
    request: HttpRequest, campaign_id: int, champion_code: str, payload: ChampionPatchIn
) -> ChampionOut:
    """The champion (or the campaign's owners and treasurers): appeal, goal, the leaderboard, a team."""
    champion = services.champion_update(
        campaign_id=campaign_id, code=champion_code, user=signed_in_user(request), **payload.dict()
    )
    return ChampionOut.of(champion)


@router.get(
    f"{CHAMPION}/qr.svg",
    response={200: None, 404: ErrorOut},
    openapi_extra={
        "responses": {
            200: {
                "description": "A QR code of the champion's page, black on white.",
                "content": {"image/svg+xml": {"schema": {"type": "string"}}},
            }
        }
    },
)
def champion_qr(request: HttpRequest, campaign_id: int, champion_code: str) -> HttpResponse:
    """The QR code of a champion's page, to share or print."""
    champion = services.champion_get(campaign_id=campaign_id, code=champion_code, user=request_user(request))
    response = HttpResponse(cards.champion_qr_svg(champion=champion), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@router.post(f"{CHAMPION}/pledges", response={201: PledgeReceiptOut, **ERRORS})
def champion_pledge_create(
    request: HttpRequest, campaign_id: int, champion_code: str, payload: PledgeIn
) -> Status[PledgeReceiptOut]:
    """Pledge on a champion's page: the campaign's pledge (as POST /api/pledges), counted for them too.
    The body's campaign_id must be the path's."""
    pledge = services.champion_pledge_create(
        campaign_id=campaign_id,
        code=champion_code,
        amount=payload.amount,
        name=payload.name,
        email=payload.email,
        phone=payload.phone,
        is_anonymous=payload.is_anonymous,
        viewer=request_user(request),
        client_ip=client_ip(request),
        challenge_solution=request.headers.get(SOLUTION_HEADER, ""),
        plan=payload.plan.terms() if payload.plan else None,
    )
    return Status(201, PledgeReceiptOut.from_pledge(pledge))


@router.get(f"{CHAMPION}/circle", response={200: CircleOut, **SIGNED_IN_ERRORS}, auth=django_auth)
def champion_circle(request: HttpRequest, campaign_id: int, champion_code: str) -> CircleOut:
    """The champion's own view: who gave through them (anonymous givers unnamed), pledged, paid, owed.
    For the champion, and for those who see the campaign's pledges."""
    user = signed_in_user(request)
    champion = services.champion_get(campaign_id=campaign_id, code=champion_code, user=user)
    if champion.user_id != user.pk and not champion.campaign.allows(user, Permission.SEE_PLEDGES):
        raise PermissionDeniedError(
            _("Only the champion, or those who see the campaign's pledges, can see who gave through them."),
            code="not_champion",
        )
    figures = selectors.champion_totals(champion=champion)
    gifts = selectors.champion_circle(champion=champion)
    return CircleOut(
        champion=ChampionOut.of(champion),
        raised=figures.raised,
        pledged=figures.pledged,
        owed=sum(gift.owed for gift in gifts),
        gifts=[CircleGiftOut.of(gift) for gift in gifts],
    )


@router.post("/campaigns/{campaign_id}/champion-teams", response={201: TeamOut, **SIGNED_IN_ERRORS}, auth=django_auth)
def team_create(request: HttpRequest, campaign_id: int, payload: TeamIn) -> Status[TeamOut]:
    """A team of the campaign's champions (owners, treasurers, admins)."""
    team = services.team_create(
        campaign_id=campaign_id, user=signed_in_user(request), name=payload.name, goal=payload.goal
    )
    return Status(201, TeamOut(id=team.pk, name=team.name, goal=team.goal))


@router.get(
    "/campaigns/{campaign_id}/harambee-cards.pdf",
    response={200: None, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut},
    auth=django_auth,
    openapi_extra={
        "responses": {
            200: {
                "description": "The champions' numbered cards, A6, one page each, English and Kiswahili.",
                "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
            }
        }
    },
)
def cards_pdf(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The harambee cards to print (owners, treasurers, admins)."""
    user = signed_in_user(request)
    campaign = campaign_get(campaign_id=campaign_id, user=user)
    campaign_permission_check(campaign=campaign, user=user, permission=Permission.MANAGE_PLEDGES)
    response = HttpResponse(cards.cards_pdf(campaign=campaign), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="harambee-cards-{campaign.pk}.pdf"'
    return response


@router.post(
    "/campaigns/{campaign_id}/harambee-cards/{number}/return",
    response={200: CardOut, **SIGNED_IN_ERRORS},
    auth=django_auth,
)
def card_return(request: HttpRequest, campaign_id: int, number: int, payload: CardReturnIn) -> CardOut:
    """A card brought back to the desk: its gifts and cash recorded and counted for its champion, once
    (owners, treasurers, ushers, admins). A card returned before: 400 card_already_returned."""
    card = services.card_return_record(
        campaign_id=campaign_id,
        number=number,
        user=signed_in_user(request),
        cash_total=payload.cash_total,
        mpesa_reported=payload.mpesa_reported,
        gifts=[services.CardGift(**gift.dict()) for gift in payload.gifts],
    )
    return CardOut.of(card)


@router.get(
    "/campaigns/{campaign_id}/my-champion",
    response={200: ChampionOut, 401: ErrorOut, 404: ErrorOut},
    auth=django_auth,
)
def my_champion(request: HttpRequest, campaign_id: int) -> ChampionOut:
    """The signed-in member's own championship of the campaign; 404 champion_not_found if none."""
    user = signed_in_user(request)
    champion = selectors.champion_of(campaign=campaign_get(campaign_id=campaign_id, user=user), user=user)
    if champion is None:
        raise NotFoundError(_("You are not a champion of this campaign."), code="champion_not_found")
    return ChampionOut.of(champion)


@router.get("/campaigns/{campaign_id}/champion-roster", response={200: RosterOut, **SIGNED_IN_ERRORS}, auth=django_auth)
def champion_roster(request: HttpRequest, campaign_id: int) -> RosterOut:
    """Every champion (on the board or not) with their card and figures, and every team's totals
    (those who see the campaign's pledges)."""
    user = signed_in_user(request)
    campaign = campaign_get(campaign_id=campaign_id, user=user)
    campaign_permission_check(campaign=campaign, user=user, permission=Permission.SEE_PLEDGES)
    return RosterOut.of(selectors.champions_roster(campaign=campaign))
