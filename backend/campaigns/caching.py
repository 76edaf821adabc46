"""A campaign's public view, rendered once per change instead of once per request.

Every visitor of /campaign/{id} and GET /api/campaigns/{id} gets the same thing: the campaign as
``CampaignDetailOut.for_viewer(viewer=None)`` shows it. Rendering it costs four queries and most of
a request's time, and a shared campaign link is read far more often than the campaign changes. So
each worker process keeps the rendered JSON and page head in memory, stamped with the campaign's
version: a random token in the shared cache (Redis in production) that ``campaign_changed``
replaces whenever the campaign, its pledges or donations, or its organizer's name change
(``campaigns.receivers``). Reading the token is one cache lookup per request, so the totals a donor
sees after paying are never stale. A token is made only for a campaign that was found and shown (any
id can be asked for) and expires after ``VERSION_SECONDS``: then the next read renders afresh. Labels and ``days_left`` depend on the language and the date,
so both are part of the memory key.
"""

import threading
import uuid
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.text import Truncator
from ninja.renderers import JSONRenderer

from campaigns import selectors
from campaigns.schemas import CampaignDetailOut

# A rendered campaign is about 8 KB: this bounds each worker's memory to a few MB.
MAX_ENTRIES = 500
# How long a version token lives in the shared cache unless the campaign changes first.
VERSION_SECONDS = 24 * 60 * 60
PREVIEW_DESCRIPTION_LENGTH = 200
# Link previews need an image; campaigns without a still cover show this one.
DEFAULT_COVER = "/static/campaigns/covers/default.svg"


@dataclass(frozen=True)
class PublicCampaign:
    version: str
    json: bytes  # the body of GET /api/campaigns/{id} for a visitor
    page_head: str  # what /campaign/{id} adds to index.html's <head> (see campaigns.sharing)


_entries: dict[tuple[int, str, date], PublicCampaign] = {}
_entries_lock = threading.Lock()


def _version_key(campaign_id: int) -> str:
    return f"campaigns:public-version:{campaign_id}"


def _new_version() -> str:
    return uuid.uuid4().hex


def public_campaign_get(*, campaign_id: int) -> PublicCampaign:
    """The campaign as a visitor sees it; NotFoundError unless it is active (as ``campaign_get``)."""
    version = cache.get(_version_key(campaign_id))
    slot = (campaign_id, translation.get_language(), timezone.localdate())
    entry = _entries.get(slot)
    if entry is None or version is None or entry.version != version:
        # Raises NotFoundError for a missing or hidden campaign before any version is stored for it.
        entry = _render(campaign_id=campaign_id, version=version or _new_version())
        if version is None:
            # Another process may store its own first: then the next read renders once more.
            cache.add(_version_key(campaign_id), entry.version, timeout=VERSION_SECONDS)
        with _entries_lock:
            _entries.pop(slot, None)
            if len(_entries) >= MAX_ENTRIES:
                del _entries[next(iter(_entries))]  # the oldest rendering
            _entries[slot] = entry
    return entry


def campaign_version(*, campaign_id: int) -> str | None:
    """The campaign's current version token, None until a read starts one (``campaign_version_start``).
    One cache lookup: what lets a big screen's poll that changed nothing be answered 304 without the database."""
    return cache.get(_version_key(campaign_id))


def campaign_version_start(*, campaign_id: int) -> str:
    """The campaign's version token, made now if it has none. Call it only for a campaign that was
    found and shown, and before reading what the token stamps: a change after this replaces it."""
    version = _new_version()
    cache.add(_version_key(campaign_id), version, timeout=VERSION_SECONDS)
    return cache.get(_version_key(campaign_id)) or version


def campaign_changed(*, campaign_id: int) -> None:
    """The next read of the campaign renders it afresh: now, and again once the current transaction
    commits (a request reading in between still sees the old rows and may keep them)."""
    cache.set(_version_key(campaign_id), _new_version(), timeout=VERSION_SECONDS)
    transaction.on_commit(lambda: cache.set(_version_key(campaign_id), _new_version(), timeout=VERSION_SECONDS))


def _absolute(url: str) -> str:
    return f"{settings.SITE_URL}{url}" if url.startswith("/") else url


def _render(*, campaign_id: int, version: str) -> PublicCampaign:
    campaign = selectors.campaign_get(campaign_id=campaign_id, user=None)
    data = CampaignDetailOut.for_viewer(campaign, viewer=None).model_dump()
    page_head = render_to_string(
        "campaigns/page_head.html",
        {
            "title": campaign.title,
            "description": Truncator(campaign.description).chars(PREVIEW_DESCRIPTION_LENGTH),
            "image": _absolute(campaign.cover_image_url or DEFAULT_COVER),
            "url": campaign.share_url,
        },
    )
    # Encoded as django-ninja encodes every other answer, so cached and fresh bodies are identical.
    body = JSONRenderer().render(None, data, response_status=200)  # type: ignore[arg-type]
    return PublicCampaign(version=version, json=body.encode(), page_head=page_head)
