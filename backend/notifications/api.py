"""Notifications API: the opt-out link in reminders (a page for the pledger's browser), the
organizer's 'Remind' in Pledge Management and the campaign's reminder settings."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.security import django_auth

from accounts.auth import signed_in_user
from common.errors import ServiceError
from common.schemas import ErrorOut
from notifications import selectors, services
from notifications.models import REMINDER_OFFSET_CHOICES, CampaignReminderSettings
from notifications.schemas import ReminderSettingsIn, ReminderSettingsOut, RemindOut

router = Router(tags=["notifications"])


@router.get("/notifications/opt-out")
def opt_out(request: HttpRequest, token: str = "") -> HttpResponse:
    """Follows the signed link in a reminder: no more reminders for that pledge."""
    try:
        services.pledge_opt_out(token=token)
    except ServiceError as error:
        message, status = error.message, 400
    else:
        message, status = _("You will not get any more reminders for this pledge."), 200
    return render(
        request, "notifications/opt_out.html", {"message": message, "site_url": settings.SITE_URL}, status=status
    )


@router.post(
    "/pledges/{int:pledge_id}/remind",
    response={202: RemindOut, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 429: ErrorOut},
    auth=django_auth,
)
def remind(request: HttpRequest, pledge_id: int) -> Status[RemindOut]:
    services.pledge_remind(pledge_id=pledge_id, user=signed_in_user(request))
    return Status(202, RemindOut(detail=_("Reminder sent.")))


def _settings_out(row: CampaignReminderSettings) -> ReminderSettingsOut:
    return ReminderSettingsOut(
        enabled=row.enabled,
        offsets=row.offsets,
        new_pledge_digest=row.new_pledge_digest,
        offset_choices=list(REMINDER_OFFSET_CHOICES),
    )


SETTINGS_ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}


@router.get(
    "/campaigns/{int:campaign_id}/reminder-settings",
    response={200: ReminderSettingsOut, **SETTINGS_ERRORS},
    auth=django_auth,
)
def reminder_settings(request: HttpRequest, campaign_id: int) -> ReminderSettingsOut:
    """The campaign's reminders (on or off, when) and how its organizer hears of new pledges."""
    return _settings_out(selectors.reminder_settings_get(campaign_id=campaign_id, user=signed_in_user(request)))


@router.put(
    "/campaigns/{int:campaign_id}/reminder-settings",
    response={200: ReminderSettingsOut, **SETTINGS_ERRORS},
    auth=django_auth,
)
def reminder_settings_update(
    request: HttpRequest, campaign_id: int, payload: ReminderSettingsIn
) -> ReminderSettingsOut:
    """Organizer or admin; ``offsets`` must be among ``offset_choices``, at least one while enabled."""
    row = services.reminder_settings_update(campaign_id=campaign_id, user=signed_in_user(request), **payload.dict())
    return _settings_out(row)
