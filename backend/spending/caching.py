"""'How the money was used' as every visitor sees it, computed once per change of the campaign.

The answer is the same for everyone (private payees are masked for all), so its JSON is kept in the
shared cache under the campaign's version token (``campaigns.caching``: renewed when its pledges,
payments or donations change, and by ``spending.services`` when a line is approved or reversed or an
update posted) and the language of its labels. A warm campaign page then costs no query for it.
"""

from django.core.cache import cache
from django.utils import translation
from ninja.renderers import JSONRenderer

from campaigns.caching import VERSION_SECONDS, public_campaign_get
from campaigns.models import Campaign
from campaigns.selectors import campaign_get
from spending import selectors
from spending.schemas import AccountabilityOut, ProgressUpdateOut, PublicLineOut, SpendingFiguresOut


def accountability_out(*, campaign: Campaign) -> AccountabilityOut:
    return AccountabilityOut(
        campaign_id=campaign.pk,
        title=campaign.title,
        figures=SpendingFiguresOut.of(selectors.accountability_figures(campaign=campaign)),
        lines=[PublicLineOut.of(line) for line in selectors.spending_public_lines(campaign=campaign)],
        updates=[ProgressUpdateOut.of(update) for update in selectors.progress_updates(campaign=campaign)],
    )


def accountability_json(*, campaign_id: int, campaign: Campaign | None = None) -> bytes:
    """The body of GET /api/campaigns/{id}/accountability; NotFoundError for a campaign a visitor may not
    see unless ``campaign`` is given (found for its viewer already)."""
    version = public_campaign_get(campaign_id=campaign_id).version if campaign is None else None
    if version is None:
        return _render(campaign or campaign_get(campaign_id=campaign_id, user=None))
    key = f"spending:accountability:{campaign_id}:{version}:{translation.get_language()}"
    body: bytes | None = cache.get(key)
    if body is None:
        body = _render(campaign_get(campaign_id=campaign_id, user=None))
        cache.set(key, body, timeout=VERSION_SECONDS)
    return body


def _render(campaign: Campaign) -> bytes:
    data = accountability_out(campaign=campaign).model_dump()
    return JSONRenderer().render(None, data, response_status=200).encode()  # type: ignore[arg-type]
