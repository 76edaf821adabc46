"""The leaderboards and champions' pages as a visitor sees them, rendered once per campaign version.

Like a campaign's public view (``campaigns.caching``): every visitor gets the same answer, read far more
often than it changes, so each worker keeps the rendered JSON stamped with the campaign's version token,
which any change of its pledges, donations, champions, teams or attributions replaces
(``pledges.receivers``, ``champions.receivers``). A render is made only for a campaign a visitor may see
(hiding or suspending a campaign saves it, which renews its version too); language and date are part of
the key (labels; 'tonight'). Reading the token is one cache lookup per request.
"""

import threading
from collections.abc import Callable
from datetime import date

from django.utils import timezone, translation
from ninja.renderers import JSONRenderer
from pydantic import BaseModel

from campaigns.caching import campaign_version, campaign_version_start
from campaigns.models import Campaign
from campaigns.selectors import campaign_get
from champions import selectors
from champions.schemas import ChampionPageOut, LeaderboardsOut
from champions.services import champion_get

MAX_ENTRIES = 2_000

_entries: dict[tuple[str, int, str, str, str, date], bytes] = {}
_entries_lock = threading.Lock()


def _render(answer: BaseModel) -> bytes:
    # Encoded as django-ninja encodes every other answer, so cached and fresh bodies are identical.
    return JSONRenderer().render(None, answer.model_dump(), response_status=200).encode()  # type: ignore[arg-type]


def _public(kind: str, campaign_id: int, key: str, build: Callable[[], BaseModel]) -> bytes:
    version = campaign_version(campaign_id=campaign_id)
    language = translation.get_language() or ""
    slot = (kind, campaign_id, key, version or "", language, timezone.localdate())
    if version is not None and (body := _entries.get(slot)) is not None:
        return body
    body = _render(build())  # NotFoundError for a hidden campaign or an unknown champion: nothing kept
    if version is None:
        # The token is made only now that the campaign was shown, and before reading what it stamps
        # (a change meanwhile would be missed otherwise): read again under it.
        version = campaign_version_start(campaign_id=campaign_id)
        body = _render(build())
    with _entries_lock:
        if len(_entries) >= MAX_ENTRIES:
            del _entries[next(iter(_entries))]
        _entries[(*slot[:3], version, *slot[4:])] = body
    return body


def public_leaderboards(*, campaign_id: int) -> bytes:
    """GET /api/campaigns/{id}/champions for a visitor (NotFoundError unless the campaign is public)."""

    def build() -> LeaderboardsOut:
        campaign: Campaign = campaign_get(campaign_id=campaign_id, user=None)
        return LeaderboardsOut.of(selectors.leaderboards(campaign=campaign))

    return _public("boards", campaign_id, "", build)


def public_champion_page(*, campaign_id: int, code: str) -> bytes:
    """GET /api/campaigns/{id}/champions/{code} for a visitor (NotFoundError as ``champion_get``)."""

    def build() -> ChampionPageOut:
        champion = champion_get(campaign_id=campaign_id, code=code, user=None)
        return ChampionPageOut.page(champion, selectors.champion_totals(champion=champion))

    return _public("page", campaign_id, code.upper(), build)
