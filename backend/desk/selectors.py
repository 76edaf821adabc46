"""Reads of the ushers' desk."""

from dataclasses import dataclass

from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.selectors import campaign_get, campaign_managed_get
from common.errors import PermissionDeniedError
from desk.actors import DeskActor
from desk.models import DeskEntry
from events.models import Event
from events.selectors import event_open_of
from organizations.roles import Permission

# What a desk lists of its own entries: enough to check the last few cards against the pile.
RECENT_ENTRIES = 10


@dataclass(frozen=True)
class Desk:
    campaign: Campaign
    event: Event | None
    usher_name: str
    by_passcode: bool
    can_issue_passcodes: bool
    entries_count: int
    entries_total: int
    recent: list[DeskEntry]


def desk_get(*, actor: DeskActor, campaign_id: int) -> Desk:
    """The desk of ``campaign_id`` for ``actor``: the event it records for (the open one; a
    passcode's own), and the usher's own entries there: how many, their sum, the latest. Four
    queries whatever the number of entries."""
    event: Event | None
    if actor.passcode is not None:
        event = actor.passcode.event
        if event.campaign_id != campaign_id or actor.passcode.expired:
            raise PermissionDeniedError(_("This passcode is not for this campaign's desk."), code="passcode_other")
        campaign = campaign_get(campaign_id=campaign_id, user=None)
    else:
        assert actor.user is not None
        campaign = campaign_managed_get(
            campaign_id=campaign_id,
            user=actor.user,
            permission=Permission.RECORD_AT_DESK,
            denied=_("Only the campaign's owners, treasurers and ushers, or an admin, can record at its desk."),
        )
        event = event_open_of(campaign=campaign)
    mine = DeskEntry.objects.none()
    if event is not None:
        mine = DeskEntry.objects.filter(event=event, usher=actor.user, passcode=actor.passcode)
    figures = mine.aggregate(count=Count("id"), total=Coalesce(Sum("amount", filter=Q(already_in_books=False)), 0))
    return Desk(
        campaign=campaign,
        event=event,
        usher_name=actor.name,
        by_passcode=actor.passcode is not None,
        can_issue_passcodes=actor.user is not None and campaign.allows(actor.user, Permission.RUN_EVENTS),
        entries_count=figures["count"],
        entries_total=figures["total"],
        recent=list(mine.select_related("pledge")[:RECENT_ENTRIES]) if event is not None else [],
    )
