"""Counting views of campaign pages without cookies or third-party trackers.

The campaign page sends one small beacon per visit. A visitor is recognised within a day by
``sha256(daily salt, address, browser, campaign, day)``, as Plausible does: the salt is random,
lives only in the cache and is forgotten after two days, so a hash can be neither traced back
to an address nor linked to the same visitor on another day. The raw address is never stored.
"""

import hashlib
import secrets
from datetime import date

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from accounts.models import User
from analytics.models import CampaignDailyVisits
from campaigns.selectors import campaign_get
from common import ratelimit
from organizations.roles import Permission

# The day's salt outlives every visitor key of that day; visitor keys outlive the rest of their day.
SALT_SECONDS = 2 * 24 * 3600
VISITOR_SECONDS = 25 * 3600


def _daily_salt(day: date) -> str:
    return str(cache.get_or_set(f"analytics:salt:{day.isoformat()}", lambda: secrets.token_hex(16), SALT_SECONDS))


def _visitor_hash(*, day: date, client_ip: str, user_agent: str, campaign_id: int) -> str:
    text = "\n".join([_daily_salt(day), client_ip, user_agent, str(campaign_id), day.isoformat()])
    return hashlib.sha256(text.encode()).hexdigest()


def _visits_add(*, campaign_id: int, day: date, new_visitor: bool) -> None:
    """One view (and one visitor if new) on the day's row, made if missing: a single statement,
    so concurrent beacons never lose a count. ON CONFLICT works on PostgreSQL and SQLite alike."""
    table = connection.ops.quote_name(CampaignDailyVisits._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (campaign_id, day, views, visitors) VALUES (%s, %s, 1, %s) "  # noqa: S608
            f"ON CONFLICT (campaign_id, day) DO UPDATE SET views = {table}.views + 1, "
            f"visitors = {table}.visitors + excluded.visitors",
            [campaign_id, day, int(new_visitor)],
        )


def campaign_view_record(*, campaign_id: int, viewer: User | None, client_ip: str, user_agent: str) -> bool:
    """Count a view of a campaign's page; answers whether it counted.

    Only what the public sees counts: views of the campaign's team and admins (the only ones who
    see pending and closed campaigns) are left out. Each address may send ``RATE_LIMIT_CAMPAIGN_VIEW``
    beacons per window (429 beyond), so numbers cannot be inflated cheaply. 404 for an unknown
    or hidden campaign.
    """
    ratelimit.enforce(scope="campaign-view", identifiers=[client_ip], limit=settings.RATE_LIMIT_CAMPAIGN_VIEW)
    campaign = campaign_get(campaign_id=campaign_id, user=viewer)
    if campaign.allows(viewer, Permission.SEE_UNPUBLISHED):
        return False
    day = timezone.localdate()
    visitor = _visitor_hash(day=day, client_ip=client_ip, user_agent=user_agent, campaign_id=campaign.pk)
    new_visitor = cache.add(f"analytics:visitor:{visitor}", 1, VISITOR_SECONDS)
    _visits_add(campaign_id=campaign.pk, day=day, new_visitor=new_visitor)
    return True
