"""The spending API: how the money was used.

Public: a campaign's accountability (GET /api/campaigns/{id}/accountability: the figures, the lines
that count with private payees masked, progress updates) and a published receipt.

The campaign's team: the lines with who recorded and approved them (owners, treasurers, viewers, an
admin); recording, approving (a second owner or treasurer), reversing lines and posting progress
updates (owners and treasurers only); the committee's report as PDF and CSV (those who see pledges).
"""

from datetime import date

from django.conf import settings
from django.core.files.storage import default_storage
from django.http import FileResponse, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from ninja import File, Form, Query, Router, Status
from ninja.files import UploadedFile
from ninja.security import django_auth

from accounts.auth import request_user, signed_in_user
from campaigns.selectors import campaign_get, campaign_managed_get
from common import ratelimit
from common.cache_control import cache_for_visitors
from common.csv_export import CSV_OPENAPI, csv_response
from common.errors import FieldValidationError, NotFoundError
from common.money import AMOUNT_MAX
from common.schemas import ErrorOut
from organizations.roles import Permission, role_allows
from spending import caching, report, selectors, services
from spending.models import PayeeKind, SpendingCategory
from spending.receipts import receipt_content_type, receipt_store
from spending.schemas import (
    AccountabilityOut,
    ProgressUpdateIn,
    ProgressUpdateOut,
    ReportQuery,
    ReversalIn,
    SpendingFiguresOut,
    TeamLineOut,
    TeamSpendingOut,
)

router = Router(tags=["spending"])

TEAM_ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}
PDF_OPENAPI = {
    "responses": {200: {"description": "A PDF file.", "content": {"application/pdf": {"schema": {"type": "string"}}}}}
}
RECEIPT_OPENAPI = {
    "responses": {200: {"description": "The receipt: a picture or a PDF.", "content": {"*/*": {"schema": {}}}}}
}


@router.get("/campaigns/{campaign_id}/accountability", response={200: AccountabilityOut, 404: ErrorOut})
def accountability(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """How the money was used: raised, platform fees, spent by category, what is left, a chart of money
    in and out, each line that counts (a private person's name masked, for everyone) and the team's
    progress updates. The same for every viewer of the campaign: kept until the campaign changes."""
    viewer = request_user(request)
    # A visitor sees an active or closed campaign; its team sees it while pending too.
    found = campaign_get(campaign_id=campaign_id, user=viewer) if viewer is not None else None
    if found is not None and found.is_visible_to(None):
        found = None  # public: the shared answer
    body = caching.accountability_json(campaign_id=campaign_id, campaign=found)
    answer = HttpResponse(body, content_type="application/json; charset=utf-8")
    cache_for_visitors(request, answer)
    return answer


@router.get("/spending/{record_id}/receipt", response={404: ErrorOut}, openapi_extra=RECEIPT_OPENAPI)
def receipt(request: HttpRequest, record_id: int) -> FileResponse:
    """A line's receipt: for its campaign's team always; for anyone when published and the line counts."""
    user = request_user(request)
    record = selectors.spending_line_get(record_id=record_id)
    visible = record is not None and record.receipt_name and record.campaign.is_visible_to(user)
    if not visible or record is None:
        raise NotFoundError(_("Receipt not found."), code="not_found")
    if not ((record.publish_receipt and record.counts) or record.campaign.allows(user, Permission.SEE_PLEDGES)):
        raise NotFoundError(_("Receipt not found."), code="not_found")
    answer = FileResponse(
        default_storage.open(record.receipt_name), content_type=receipt_content_type(record.receipt_name)
    )
    answer["Cache-Control"] = "private, max-age=300"
    answer["X-Content-Type-Options"] = "nosniff"
    answer["Content-Security-Policy"] = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"
    return answer


@router.get("/campaigns/{campaign_id}/spending", response={200: TeamSpendingOut, **TEAM_ERRORS}, auth=django_auth)
def spending_list(request: HttpRequest, campaign_id: int) -> TeamSpendingOut:
    """Every line and reversing entry, newest first, with who recorded and approved each, and the figures."""
    user = signed_in_user(request)
    campaign = campaign_managed_get(campaign_id=campaign_id, user=user, permission=Permission.SEE_PLEDGES)
    return TeamSpendingOut(
        figures=SpendingFiguresOut.of(selectors.accountability_figures(campaign=campaign, chart=False)),
        lines=[TeamLineOut.of(line, viewer=user) for line in selectors.spending_lines(campaign=campaign)],
        may_record=role_allows(campaign.role_of(user), Permission.RECORD_SPENDING),
    )


@router.post(
    "/campaigns/{campaign_id}/spending", response={201: TeamLineOut, 429: ErrorOut, **TEAM_ERRORS}, auth=django_auth
)
def spending_record(
    request: HttpRequest,
    campaign_id: int,
    spent_on: Form[date],
    payee: Form[str],
    payee_kind: Form[PayeeKind],
    category: Form[SpendingCategory],
    amount: Form[int],
    account_id: Form[int | None] = None,
    note: Form[str] = "",
    publish_receipt: Form[bool] = False,
    receipt: File[UploadedFile | None] = None,
) -> Status[TeamLineOut]:
    """Record what the church paid from the campaign's money (multipart: the fields and an optional
    receipt, a photo or PDF of at most 10 MB). It counts once a second owner or treasurer approves it."""
    user = signed_in_user(request)
    services.spending_team_check(campaign=campaign_get(campaign_id=campaign_id, user=user), user=user)
    if not 1 <= amount <= AMOUNT_MAX:
        message = _("Please enter a whole amount from Ksh 1.")
        raise FieldValidationError(message, code="invalid_amount", field_errors={"amount": message})
    stored = None
    if receipt is not None:
        ratelimit.enforce(
            scope="media-upload",
            identifiers=[str(user.pk)],
            limit=settings.RATE_LIMIT_MEDIA_UPLOAD,
            message=_("Too many uploads. Please wait a while and try again."),
        )
        stored = receipt_store(file=receipt)
    record = services.spending_record(
        user=user,
        campaign_id=campaign_id,
        spent_on=spent_on,
        payee=payee[:150],
        payee_kind=payee_kind,
        category=category,
        amount=amount,
        account_id=account_id,
        note=note[:2000],
        publish_receipt=publish_receipt,
        receipt=stored,
    )
    return Status(201, TeamLineOut.of(record, viewer=user))


@router.post(
    "/spending/{record_id}/approval", response={200: TeamLineOut, 400: ErrorOut, **TEAM_ERRORS}, auth=django_auth
)
def spending_approve(request: HttpRequest, record_id: int) -> TeamLineOut:
    """Approve a line another owner or treasurer recorded (the two-person rule: never one's own)."""
    user = signed_in_user(request)
    return TeamLineOut.of(services.spending_approve(user=user, record_id=record_id), viewer=user)


@router.post(
    "/spending/{record_id}/reversal", response={201: TeamLineOut, 400: ErrorOut, **TEAM_ERRORS}, auth=django_auth
)
def spending_reverse(request: HttpRequest, record_id: int, payload: ReversalIn) -> Status[TeamLineOut]:
    """Correct a line by a reversing entry (the line stays in the books): it stops counting."""
    user = signed_in_user(request)
    reversal = services.spending_reverse(user=user, record_id=record_id, reason=payload.reason)
    return Status(201, TeamLineOut.of(reversal, viewer=user))


@router.post(
    "/campaigns/{campaign_id}/progress-updates", response={201: ProgressUpdateOut, **TEAM_ERRORS}, auth=django_auth
)
def progress_update_post(
    request: HttpRequest, campaign_id: int, payload: ProgressUpdateIn
) -> Status[ProgressUpdateOut]:
    """Post news of the campaign (text and up to six photos uploaded through POST /api/media) to its page;
    the givers who opted in hear of it by e-mail or one SMS."""
    update = services.progress_update_post(
        user=signed_in_user(request), campaign_id=campaign_id, text=payload.text, photo_urls=payload.photo_urls
    )
    return Status(201, ProgressUpdateOut.of(update))


@router.get(
    "/campaigns/{campaign_id}/spending-report.pdf",
    response={**TEAM_ERRORS},
    auth=django_auth,
    openapi_extra=PDF_OPENAPI,
)
def spending_report_pdf(request: HttpRequest, campaign_id: int, query: Query[ReportQuery]) -> HttpResponse:
    """The committee's report (PDF, English and Kiswahili): money in by channel, out by category, the
    balance, pledges outstanding and every line with its approval; for the period asked (or all of it)."""
    campaign = campaign_managed_get(
        campaign_id=campaign_id, user=signed_in_user(request), permission=Permission.SEE_PLEDGES
    )
    figures = selectors.accountability_figures(campaign=campaign, start=query.start, end=query.end)
    lines = selectors.spending_lines(campaign=campaign, start=query.start, end=query.end)
    answer = HttpResponse(report.report_pdf(figures, lines), content_type="application/pdf")
    answer["Content-Disposition"] = f'attachment; filename="{report.report_filename(figures, "pdf")}"'
    answer["Cache-Control"] = "no-store"
    return answer


@router.get(
    "/campaigns/{campaign_id}/spending-report.csv",
    response={**TEAM_ERRORS},
    auth=django_auth,
    openapi_extra=CSV_OPENAPI,
)
def spending_report_csv(request: HttpRequest, campaign_id: int, query: Query[ReportQuery]) -> StreamingHttpResponse:
    """The committee's report as CSV (labels in English and Kiswahili), the PDF's figures and lines."""
    campaign = campaign_managed_get(
        campaign_id=campaign_id, user=signed_in_user(request), permission=Permission.SEE_PLEDGES
    )
    figures = selectors.accountability_figures(campaign=campaign, start=query.start, end=query.end, chart=False)
    lines = selectors.spending_lines(campaign=campaign, start=query.start, end=query.end)
    return csv_response(list(report.report_csv_rows(figures, lines)), filename=report.report_filename(figures, "csv"))
