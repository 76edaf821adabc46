"""The ushers' desk API: entries, desk passcodes and a volunteer's sign-in with one, the count of an
event's cash against its desk, and the night's report of an event with its thank-you message.

A volunteer's passcode lives in their session (``SESSION_PASSCODE``), not as a signed-in user: every
other endpoint still sees a visitor, so the passcode can do nothing but what these endpoints allow.
"""

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from ninja import Router, Status
from ninja.errors import AuthenticationError
from ninja.security import django_auth

from accounts.auth import request_user, signed_in_user
from common.csv_export import CSV_OPENAPI, csv_response
from common.ratelimit import client_ip
from common.schemas import ErrorOut
from desk import selectors, services
from desk.actors import DeskActor
from desk.models import DeskPasscode
from desk.schemas import (
    CashCountIn,
    CashReconciliationOut,
    CashReopenIn,
    DeskEntryIn,
    DeskEntryOut,
    DeskOut,
    DeskPasscodeIn,
    DeskPasscodeListedOut,
    DeskPasscodeOut,
    DeskSignInIn,
    DeskSignInOut,
    EventReportOut,
    ThanksIn,
    ThanksSentOut,
)
from organizations.roles import Permission

router = Router(tags=["desk"])

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut}
SESSION_PASSCODE = "desk_passcode_id"


def _actor(request: HttpRequest) -> DeskActor:
    """The signed-in user, else the passcode this browser signed in with, unless it was revoked since;
    401 for anyone else."""
    if (user := request_user(request)) is not None:
        return DeskActor(user=user)
    passcode_id = request.session.get(SESSION_PASSCODE)
    passcode = (
        DeskPasscode.objects.select_related("event").filter(pk=passcode_id, revoked_at__isnull=True).first()
        if passcode_id
        else None
    )
    if passcode is None:
        raise AuthenticationError()
    return DeskActor(passcode=passcode)


@router.get("/campaigns/{campaign_id}/desk", response={200: DeskOut, **ERRORS})
def desk(request: HttpRequest, campaign_id: int) -> DeskOut:
    """The desk of the campaign's open event for this usher (owners, treasurers, ushers, admins, or
    a volunteer's passcode for that event): their own count and latest entries."""
    return DeskOut.from_desk(selectors.desk_get(actor=_actor(request), campaign_id=campaign_id))


@router.post("/events/{event_id}/desk-entries", response={200: DeskEntryOut, 201: DeskEntryOut, **ERRORS})
def desk_entry_record(request: HttpRequest, event_id: int, body: DeskEntryIn) -> Status[DeskEntryOut]:
    """Record a pledge card or a gift at the event's desk: 201 the first time, 200 with the same
    entry when its idempotency key comes again (a retry never counts twice)."""
    entry, created = services.desk_entry_record(
        actor=_actor(request),
        event_id=event_id,
        plan=body.plan.terms() if body.plan else None,
        **body.dict(exclude={"plan"}),
    )
    return Status(201 if created else 200, DeskEntryOut.from_entry(entry))


@router.post("/events/{event_id}/desk-passcodes", response={201: DeskPasscodeOut, **ERRORS}, auth=django_auth)
def desk_passcode_issue(request: HttpRequest, event_id: int, body: DeskPasscodeIn) -> Status[DeskPasscodeOut]:
    """A passcode for a volunteer without an account (owners and admins): it adds entries to this
    event only, until its close. Shown once."""
    passcode, code = services.desk_passcode_issue(user=signed_in_user(request), event_id=event_id, **body.dict())
    return Status(201, DeskPasscodeOut(passcode=code, volunteer=passcode.volunteer, event_id=passcode.event_id))


@router.get(
    "/events/{event_id}/desk-passcodes", response={200: list[DeskPasscodeListedOut], **ERRORS}, auth=django_auth
)
def desk_passcode_list(request: HttpRequest, event_id: int) -> list[DeskPasscodeListedOut]:
    """The event's desk passcodes, the latest first: who holds each, who issued it, its entries and
    whether it still works (owners and admins). Never the codes."""
    issued = selectors.desk_passcodes_of(user=signed_in_user(request), event_id=event_id)
    return [DeskPasscodeListedOut.from_issued(passcode) for passcode in issued]


@router.post(
    "/events/{event_id}/desk-passcodes/{passcode_id}/revocation", response={204: None, **ERRORS}, auth=django_auth
)
def desk_passcode_revoke(request: HttpRequest, event_id: int, passcode_id: int) -> HttpResponse:
    """Stop a desk passcode at once, also in a browser already signed in with it (owners and admins).
    Its entries stay. Revoking it again changes nothing."""
    services.desk_passcode_revoke(user=signed_in_user(request), event_id=event_id, passcode_id=passcode_id)
    return HttpResponse(status=204)


@router.get("/events/{event_id}/cash-reconciliation", response={200: CashReconciliationOut, **ERRORS}, auth=django_auth)
def cash_reconciliation(request: HttpRequest, event_id: int) -> CashReconciliationOut:
    """The event's cash per usher: recorded at the desk beside counted, the differences, the sign-off
    and what arrived after it (owners, treasurers, viewers and admins)."""
    return CashReconciliationOut.from_reckoning(
        selectors.cash_reckoning_get(user=signed_in_user(request), event_id=event_id)
    )


@router.put(
    "/events/{event_id}/cash-counts/{usher_key}",
    response={200: CashReconciliationOut, 400: ErrorOut, **ERRORS},
    auth=django_auth,
)
def cash_count_record(request: HttpRequest, event_id: int, usher_key: str, body: CashCountIn) -> CashReconciliationOut:
    """Enter or correct the cash counted for one usher (owners, treasurers and admins), until the
    count is signed off. Audited. Answers the whole count."""
    reckoning = services.cash_count_record(
        user=signed_in_user(request), event_id=event_id, usher_key=usher_key, **body.dict()
    )
    return CashReconciliationOut.from_reckoning(reckoning)


@router.post(
    "/events/{event_id}/cash-reconciliation/sign-off",
    response={200: CashReconciliationOut, 400: ErrorOut, **ERRORS},
    auth=django_auth,
)
def cash_reconciliation_sign_off(request: HttpRequest, event_id: int) -> CashReconciliationOut:
    """Sign the event's cash count off once it has closed, every usher is counted and every difference
    explained (owners, treasurers and admins): the counts are frozen. Audited."""
    reckoning = services.cash_reconciliation_sign_off(user=signed_in_user(request), event_id=event_id)
    return CashReconciliationOut.from_reckoning(reckoning)


@router.post(
    "/events/{event_id}/cash-reconciliation/reopen",
    response={200: CashReconciliationOut, 400: ErrorOut, **ERRORS},
    auth=django_auth,
)
def cash_reconciliation_reopen(request: HttpRequest, event_id: int, body: CashReopenIn) -> CashReconciliationOut:
    """Withdraw the sign-off, with a reason (owners, treasurers and admins): the counts may be
    corrected again and need a new sign-off. Audited."""
    reckoning = services.cash_reconciliation_reopen(user=signed_in_user(request), event_id=event_id, reason=body.reason)
    return CashReconciliationOut.from_reckoning(reckoning)


@router.post("/desk/sign-in", response={200: DeskSignInOut, **ERRORS})
def desk_sign_in(request: HttpRequest, body: DeskSignInIn) -> DeskSignInOut:
    """A volunteer's browser signs in to an event's desk with its passcode (anyone; guesses are
    limited per address)."""
    passcode = services.desk_passcode_check(code=body.passcode, client_ip=client_ip(request))
    request.session.cycle_key()
    request.session[SESSION_PASSCODE] = passcode.pk
    return DeskSignInOut(
        campaign_id=passcode.event.campaign_id, event_id=passcode.event_id, volunteer=passcode.volunteer
    )


@router.get("/events/{event_id}/report", response={200: EventReportOut, **ERRORS}, auth=django_auth)
def event_report(request: HttpRequest, event_id: int) -> EventReportOut:
    """The night's report of an opened event: pledges and gifts while it was open, from every
    channel, by way of giving and by usher, the new pledgers and every entry with the givers'
    details (owners, treasurers, viewers and admins: as in Pledge Management)."""
    event = selectors.event_report_event_get(
        user=signed_in_user(request), event_id=event_id, permission=Permission.SEE_PLEDGES
    )
    return EventReportOut.from_report(selectors.event_report_get(event=event))


@router.get(
    "/events/{event_id}/report.csv",
    response={200: None, **ERRORS},
    auth=django_auth,
    openapi_extra=CSV_OPENAPI,
)
def event_report_export(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    """The night's entries as a spreadsheet, one row each (owners, treasurers and admins, as Pledge
    Management's exports)."""
    event = selectors.event_report_event_get(
        user=signed_in_user(request), event_id=event_id, permission=Permission.MANAGE_PLEDGES
    )
    report = selectors.event_report_get(event=event)
    filename = f"event-{event.pk}-report-{timezone.localdate(event.opened_at):%Y-%m-%d}.csv"
    return csv_response(selectors.event_report_rows(report=report), filename=filename)


@router.post("/events/{event_id}/thanks", response={202: ThanksSentOut, **ERRORS}, auth=django_auth)
def event_thanks_send(request: HttpRequest, event_id: int, body: ThanksIn) -> Status[ThanksSentOut]:
    """Thank everyone who pledged or gave during the closed event, each once, with the organizer's
    text (owners, treasurers and admins): sent in the background, at night in the morning; those
    who opted out of reminders are left out. Sending again reaches only those not thanked yet."""
    sent = services.event_thanks_send(user=signed_in_user(request), event_id=event_id, text=body.text)
    return Status(202, ThanksSentOut.of(sent))
