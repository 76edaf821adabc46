"""Sharing an active campaign: link previews for /campaign/{id} and a QR code of its link."""

import io
from dataclasses import dataclass

import segno
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns import selectors
from campaigns.caching import public_campaign_get
from campaigns.models import Campaign
from common.errors import NotFoundError


@dataclass(frozen=True)
class CampaignPageParts:
    head: str = ""  # goes before </head>
    campaign_json: bytes = b""  # the campaign as a visitor sees it: the body of GET /api/campaigns/{id}
    version: str = ""  # the campaign's version token (campaigns.caching): anything made from it is current


def campaign_page_parts(*, campaign_id: int, user: User | None) -> CampaignPageParts | None:
    """What the server needs for /campaign/{id}'s HTML (config/spa.py).

    For an active campaign: for the head, a <title> and the Open Graph and Twitter tags that make
    WhatsApp, Facebook and Twitter show a card (every value HTML-escaped); the campaign as a visitor
    sees it (CampaignDetailOut), from which the page is rendered and which the app reads before
    fetching it again for the viewer's own fields (like, edit). The same for every viewer, so they come
    rendered from ``campaigns.caching``, with the version they were made from.

    Empty parts for a campaign only ``user`` (its organizer, an admin) may see: no preview.
    ``None`` when ``user`` may not see it or it does not exist: the page answers 404.
    """
    try:
        public = public_campaign_get(campaign_id=campaign_id)
    except NotFoundError:
        if user is None:
            return None
        try:
            selectors.campaign_get(campaign_id=campaign_id, user=user)
        except NotFoundError:
            return None
        return CampaignPageParts()
    return CampaignPageParts(head=public.page_head, campaign_json=public.json, version=public.version)


def campaign_qr_svg(*, campaign: Campaign) -> str:
    """A printable QR code (black on white SVG) of the campaign's public link.

    Only active campaigns are shared; others raise NotFoundError.
    """
    if not campaign.can_be_shared:
        raise NotFoundError(_("Only active campaigns can be shared."), code="not_shareable")
    buffer = io.BytesIO()
    segno.make(campaign.share_url, error="m").save(
        buffer, kind="svg", scale=10, border=4, dark="#000000", light="#ffffff", title=campaign.title, xmldecl=False
    )
    return buffer.getvalue().decode()
