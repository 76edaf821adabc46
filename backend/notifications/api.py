"""Notifications API: the opt-out link in reminders (a page for the pledger's browser), the
organizer's 'Remind' in Pledge Management, a champion's 'Remind my circle' and the campaign's
reminder settings."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.security import django_auth

from accounts.auth import signed_in_user
from common.errors import ServiceError
from common.schemas import ErrorOut
from notifications import circle_reminders, reminders, selectors
from notifications.models import REMINDER_OFFSET_CHOICES, CampaignReminderSettings
from notifications.schemas import CircleRemindOut, ReminderSettingsIn, ReminderSettingsOut, RemindOut
from pledges.models import Pledge

router = Router(tags=["notifications"])


def _opt_out_page(
    request: HttpRequest, *, error: str = "", pledge: Pledge | None = None, token: str = "", opted_out: bool = False
) -> HttpResponse:
    context = {"error": error, "pledge": pledge, "token": token, "opted_out": opted_out, "site_url": settings.SITE_URL}
    return render(request, "notifications/opt_out.html", context, status=400 if error else 200)


@router.get("/notifications/opt-out")
def opt_out(request: HttpRequest, token: str = "") -> HttpResponse:
    """The page the opt-out link in a reminder opens: a button that stops them. Only the POST
    opts out, so a mail scanner that follows every link (Outlook's Safe Links) changes nothing."""
    try:
        pledge = selectors.opt_out_pledge_get(token=token)
    except ServiceError as error:
        return _opt_out_page(request, error=error.message)
    with translation.override(pledge.language):
        return _opt_out_page(request, pledge=pledge, token=token, opted_out=hasattr(pledge, "opt_out"))


@router.post("/notifications/opt-out")
def opt_out_confirm(request: HttpRequest, token: str = "") -> HttpResponse:
    """No more reminders for the pledge: the page's button, or a mail program's one-click
    'Unsubscribe' (the List-Unsubscribe-Post header, RFC 8058). Exempt from CSRF checks
    (common.middleware): mail programs send no cookie, and the signed token is the protection."""
    try:
        pledge = reminders.pledge_opt_out(token=token)
    except ServiceError as error:
        return _opt_out_page(request, error=error.message)
    with translation.override(pledge.language):
        return _opt_out_page(request, pledge=pledge, opted_out=True)


@router.post(
    "/pledges/{int:pledge_id}/remind",
    response={202: RemindOut, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 429: ErrorOut},
    auth=django_auth,
)
def remind(request: HttpRequest, pledge_id: int) -> Status[RemindOut]:
    reminders.pledge_remind(pledge_id=pledge_id, user=signed_in_user(request))
    return Status(202, RemindOut(detail=_("Reminder sent.")))


@router.post(
    "/campaigns/{int:campaign_id}/champions/{champion_code}/remind",
    response={202: CircleRemindOut, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 429: ErrorOut},
    auth=django_auth,
)
def circle_remind(request: HttpRequest, campaign_id: int, champion_code: str) -> Status[CircleRemindOut]:
    """'Remind my circle': an SMS to each who pledged through the champion and still owes, but those
    reminded recently or opted out (the champion, or the campaign's owners and treasurers)."""
    reminded = circle_reminders.champion_circle_remind(
        campaign_id=campaign_id, code=champion_code, user=signed_in_user(request)
    )
    return Status(202, CircleRemindOut(sent=reminded.sent, skipped=reminded.skipped))


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
    row = reminders.reminder_settings_update(campaign_id=campaign_id, user=signed_in_user(request), **payload.dict())
    return _settings_out(row)
