"""Sharing an active campaign: link previews for /campaign/{id} and a QR code of its link."""

import io

import segno
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.text import Truncator
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns import selectors
from campaigns.models import Campaign
from campaigns.schemas import CampaignDetailOut
from common.errors import NotFoundError

PREVIEW_DESCRIPTION_LENGTH = 200
# Link previews need an image; campaigns without a still cover show this one.
DEFAULT_COVER = "/static/campaigns/covers/default.svg"


def _absolute(url: str) -> str:
    return f"{settings.SITE_URL}{url}" if url.startswith("/") else url


def campaign_page_head(*, campaign_id: int, user: User | None) -> str | None:
    """What the server adds to index.html's <head> for /campaign/{id} and its sub-pages.

    For an active campaign: a <title>, the Open Graph and Twitter tags that make WhatsApp,
    Facebook and Twitter show a card, and ``<script type="application/json" id="initial-campaign">``
    holding the campaign as a visitor sees it (CampaignDetailOut), so the page renders without
    waiting for the API; the app then fetches it again for the viewer's own fields (like, edit).
    Every value is HTML-escaped; the JSON has ``<``, ``>`` and ``&`` escaped as \\u003C etc.

    ``''`` for a campaign only ``user`` (its organizer, an admin) may see: no preview.
    ``None`` when ``user`` may not see it or it does not exist: the page answers 404.
    """
    try:
        campaign = selectors.campaign_get(campaign_id=campaign_id, user=None)
    except NotFoundError:
        if user is None:
            return None
        try:
            selectors.campaign_get(campaign_id=campaign_id, user=user)
        except NotFoundError:
            return None
        return ""
    image = campaign.cover_image_url or DEFAULT_COVER
    return render_to_string(
        "campaigns/page_head.html",
        {
            "title": campaign.title,
            "description": Truncator(campaign.description).chars(PREVIEW_DESCRIPTION_LENGTH),
            "image": _absolute(image),
            "url": campaign.share_url,
            "campaign": CampaignDetailOut.for_viewer(campaign, viewer=None).model_dump(),
        },
    )


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
