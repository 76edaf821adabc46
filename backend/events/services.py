"""Writes of events: create, open and close one; hide an entry from the big screen's feed, or show it again.

Each changes what the big screen shows, so each renews the campaign's version token
(``campaigns.caching.campaign_changed``): the screens' next poll gets the new answer.
"""

from datetime import datetime
from functools import partial

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from campaigns.caching import campaign_changed
from campaigns.models import CampaignStatus
from campaigns.selectors import campaign_get, campaign_managed_get, campaign_permission_check
from common.errors import FieldValidationError, NotFoundError, ServiceError
from events.models import Event, EventState, HiddenEntry
from events.signals import event_closed
from organizations.roles import Permission
from pledges.models import Donation, Pledge

# How far ahead an event may be announced, and how long it may run.
LONGEST_EVENT_HOURS = 24


def _run_events_denied() -> str:
    return _("Only the campaign's owners, or an admin, can run its events.")


def event_create(*, user: User, campaign_id: int, title: str, starts_at: datetime, ends_at: datetime) -> Event:
    campaign = campaign_managed_get(
        campaign_id=campaign_id, user=user, permission=Permission.RUN_EVENTS, denied=_run_events_denied()
    )
    title = title.strip()
    errors = {}
    if not title:
        errors["title"] = _("Give the event a title.")
    if ends_at <= starts_at:
        errors["ends_at"] = _("The end must be after the start.")
    elif (ends_at - starts_at).total_seconds() > LONGEST_EVENT_HOURS * 3600:
        errors["ends_at"] = _("An event lasts at most %(hours)s hours.") % {"hours": LONGEST_EVENT_HOURS}
    if errors:
        raise FieldValidationError(next(iter(errors.values())), field_errors=errors)
    with transaction.atomic():
        return Event.objects.create(
            campaign=campaign, title=title, starts_at=starts_at, ends_at=ends_at, created_by=user
        )


def _event_locked(*, user: User, event_id: int) -> Event:
    """The event, locked, if ``user`` may run it: 404 if they cannot see its campaign, else 403."""
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise NotFoundError(_("Event not found"), code="not_found")
    try:
        campaign = campaign_get(campaign_id=event.campaign_id, user=user)
    except NotFoundError:
        raise NotFoundError(_("Event not found"), code="not_found") from None
    campaign_permission_check(
        campaign=campaign, user=user, permission=Permission.RUN_EVENTS, denied=_run_events_denied()
    )
    event.campaign = campaign
    return event


def event_open(*, user: User, event_id: int) -> Event:
    """The feed, the night's figures and everything 'during the event' start now."""
    with transaction.atomic():
        event = _event_locked(user=user, event_id=event_id)
        if event.state != EventState.SCHEDULED:
            raise ServiceError(_("This event has already been opened."), code="event_opened")
        if event.campaign.status != CampaignStatus.ACTIVE:
            raise ServiceError(_("Only an active campaign's event can be opened."), code="campaign_not_active")
        event.opened_at = timezone.now()
        try:
            with transaction.atomic():
                event.save(update_fields=["opened_at"])
        except IntegrityError:
            # events_one_open_event_per_campaign
            raise ServiceError(
                _("Another event of this campaign is open: close it first."), code="event_already_open"
            ) from None
        campaign_changed(campaign_id=event.campaign_id)
        return event


def event_close(*, user: User, event_id: int) -> Event:
    with transaction.atomic():
        event = _event_locked(user=user, event_id=event_id)
        if event.state != EventState.OPEN:
            raise ServiceError(_("Only an open event can be closed."), code="event_not_open")
        event.closed_at = timezone.now()
        event.save(update_fields=["closed_at"])
        campaign_changed(campaign_id=event.campaign_id)
        transaction.on_commit(partial(event_closed.send, sender=Event, event=event))
        return event


def _moderated_entry(*, user: User, campaign_id: int, kind: str, entry_id: int) -> tuple[str, Pledge | Donation]:
    """The campaign's pledge (``kind`` 'pledge') or gift ('gift') ``entry_id``, if ``user`` may moderate
    its feed, with the name of its field on ``HiddenEntry``."""
    campaign = campaign_managed_get(
        campaign_id=campaign_id,
        user=user,
        permission=Permission.MODERATE_LIVE_FEED,
        denied=_(
            "Only the campaign's owners, treasurers and ushers, or an admin, can hide entries or show them again."
        ),
    )
    field, model = ("pledge", Pledge) if kind == "pledge" else ("donation", Donation)
    entry = model.objects.filter(campaign=campaign, pk=entry_id).first()
    if entry is None:
        raise NotFoundError(_("There is no such entry in this campaign."), code="not_found")
    entry.campaign = campaign
    return field, entry


def live_entry_hide(*, user: User, campaign_id: int, kind: str, entry_id: int) -> HiddenEntry:
    """Takes a pledge (``kind`` 'pledge') or gift ('gift') off every big screen of the campaign at
    the next poll; it stays in the books. Audited; hiding it again changes nothing."""
    field, entry = _moderated_entry(user=user, campaign_id=campaign_id, kind=kind, entry_id=entry_id)
    with transaction.atomic():
        hidden, created = HiddenEntry.objects.get_or_create(
            **{field: entry}, defaults={"campaign": entry.campaign, "hidden_by": user}
        )
        if created:
            audit_record(actor=user, action=AuditAction.LIVE_ENTRY_HIDDEN, target=entry)
            campaign_changed(campaign_id=entry.campaign_id)
        return hidden


def live_entry_unhide(*, user: User, campaign_id: int, kind: str, entry_id: int) -> None:
    """Puts a hidden pledge or gift back on the big screens at their next poll (where it belongs in
    the feed: by when it was made or paid), undoing ``live_entry_hide``. Audited; showing an entry
    that is not hidden changes nothing."""
    field, entry = _moderated_entry(user=user, campaign_id=campaign_id, kind=kind, entry_id=entry_id)
    with transaction.atomic():
        hidden = HiddenEntry.objects.select_for_update().filter(**{field: entry}).first()
        if hidden is None:
            return
        audit_record(
            actor=user,
            action=AuditAction.LIVE_ENTRY_UNHIDDEN,
            target=entry,
            before={"hidden_by": hidden.hidden_by_id, "hidden_at": hidden.hidden_at},
        )
        hidden.delete()
        campaign_changed(campaign_id=entry.campaign_id)
