"""A champion's page, /campaign/{id}/c/{code}: plain server-rendered HTML (no JavaScript needed), with its
link-preview tags and QR code, so a link shared on WhatsApp previews and opens fast on any phone."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from champions import cards, selectors
from champions.schemas import ChampionPageOut
from champions.services import champion_get
from common.errors import NotFoundError
from common.money import format_ksh


@require_safe
def champion_page(request: HttpRequest, campaign_id: str, code: str) -> HttpResponse:
    try:
        champion = champion_get(campaign_id=int(campaign_id), code=code, user=None)
    except NotFoundError as missing:
        raise Http404(str(missing)) from None
    page = ChampionPageOut.page(champion, selectors.champion_totals(champion=champion))
    percent = min(100, page.raised * 100 // page.goal) if page.goal else 0
    response = render(
        request,
        "champions/page.html",
        {
            "page": page,
            "raised": format_ksh(page.raised),
            "pledged": format_ksh(page.pledged),
            "goal": format_ksh(page.goal),
            "percent": percent,
            "qr": mark_safe(cards.champion_qr_svg(champion=champion)),  # noqa: S308 - segno's own SVG
            "campaign_url": f"/campaign/{campaign_id}",
            # The app's pledge form, which sends the pledge through the champion (pledges' PledgeForm).
            "pledge_url": f"/campaign/{champion.campaign_id}/pledge?champion={champion.code}",
        },
    )
    response["Cache-Control"] = "public, max-age=60"
    return response
