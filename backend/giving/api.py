"""A giver's own giving, and the yearly statements of giving.

Signed in: every pledge and gift of the person across organizations and channels (GET
/api/my-giving; found as ``giving.selectors`` says: given signed in, or from the account's verified
number), and their statement of a year as a PDF. Anyone with a statement link (sent by SMS): that
one statement, without signing in, for 30 days. Owners and treasurers: the preview of a year's
statements (who can be reached, who cannot), a sample, and sending them all (a background job
whose progress is read back).
"""

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from ninja import Query, Router, Status
from ninja.security import django_auth

from accounts.auth import signed_in_user
from common.errors import NotFoundError
from common.schemas import ErrorOut
from giving import selectors, services
from giving.schemas import (
    PDF_OPENAPI,
    MyGivingOut,
    StatementPreviewOut,
    StatementQuery,
    StatementRunOut,
    YearIn,
)
from giving.statement_pdf import statement_pdf
from organizations.models import Organization

router = Router(tags=["giving"])

ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}


def _language(asked: str) -> str:
    return asked if asked in ("en", "sw") else (translation.get_language() or "en")[:2]


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@router.get("/my-giving", response={200: MyGivingOut, 401: ErrorOut}, auth=django_auth)
def my_giving(request: HttpRequest) -> MyGivingOut:
    """Every live pledge and counted gift of the signed-in person, across organizations and channels:
    those made signed in, and, once the account's phone number is verified, those made from it (USSD,
    SMS, the desk, M-Pesa) that no other account holds."""
    return MyGivingOut.of(selectors.giving_for_person(user=signed_in_user(request)))


@router.get("/my-giving/statement.pdf", response={200: None, **ERRORS}, auth=django_auth, openapi_extra=PDF_OPENAPI)
def my_giving_statement(request: HttpRequest, query: Query[StatementQuery]) -> HttpResponse:
    """The signed-in person's statement of giving for ``year``, per organization, as a PDF."""
    year = services.year_checked(query.year)
    statement = selectors.statement_for_person(user=signed_in_user(request), year=year)
    return _pdf(statement_pdf(statement=statement, language=_language(query.language)), f"statement-{year}.pdf")


@router.get("/giving/s/{token}", response={200: None, 404: ErrorOut}, openapi_extra=PDF_OPENAPI)
def statement_by_link(request: HttpRequest, token: str, language: str = "") -> HttpResponse:
    """One giver's statement from one organization, by the signed link its SMS carried (30 days)."""
    organization_id, year, digest = services.statement_link_read(token=token)
    organization = Organization.objects.filter(pk=organization_id).first()
    giver = selectors.organization_giver(organization=organization, year=year, digest=digest) if organization else None
    if organization is None or giver is None:
        raise NotFoundError("Statement not found.", code="not_found")
    statement = giver.statement(organization=organization, year=year)
    return _pdf(
        statement_pdf(statement=statement, language=_language(language or giver.language)), f"statement-{year}.pdf"
    )


@router.get(
    "/orgs/{organization_id}/giving-statements/preview", response={200: StatementPreviewOut, **ERRORS}, auth=django_auth
)
def statements_preview(request: HttpRequest, organization_id: int, year: int) -> StatementPreviewOut:
    """Before sending a year's statements: how many givers, how many get an e-mail and an SMS, and who
    cannot be reached (neither e-mail nor phone). Owners and treasurers."""
    membership = selectors.statement_sender(user=signed_in_user(request), organization_id=organization_id)
    year = services.year_checked(year)
    return StatementPreviewOut.of(
        year=year, givers=selectors.organization_givers(organization=membership.organization, year=year)
    )


@router.get(
    "/orgs/{organization_id}/giving-statements/sample.pdf",
    response={200: None, **ERRORS},
    auth=django_auth,
    openapi_extra=PDF_OPENAPI,
)
def statements_sample(request: HttpRequest, organization_id: int, query: Query[StatementQuery]) -> HttpResponse:
    """The first giver's statement of the year, as the givers will receive theirs; 404 with no giver."""
    membership = selectors.statement_sender(user=signed_in_user(request), organization_id=organization_id)
    year = services.year_checked(query.year)
    givers = selectors.organization_givers(organization=membership.organization, year=year)
    if not givers:
        raise NotFoundError("Nobody gave in this year.", code="no_givers")
    statement = givers[0].statement(organization=membership.organization, year=year)
    return _pdf(statement_pdf(statement=statement, language=_language(query.language)), f"sample-{year}.pdf")


@router.post(
    "/orgs/{organization_id}/giving-statements/runs",
    response={202: StatementRunOut, 429: ErrorOut, **ERRORS},
    auth=django_auth,
)
def statements_send(request: HttpRequest, organization_id: int, payload: YearIn) -> Status[StatementRunOut]:
    """Send every giver of ``year`` their statement (e-mail with the PDF, SMS with a link): a background
    job; read its progress at GET …/runs/{run_id}. Counts as one action against the team message limits."""
    run = services.statement_run_start(user=signed_in_user(request), organization_id=organization_id, year=payload.year)
    run.refresh_from_db()
    return Status(202, StatementRunOut.of(run))


@router.get(
    "/orgs/{organization_id}/giving-statements/runs", response={200: list[StatementRunOut], **ERRORS}, auth=django_auth
)
def statements_runs(request: HttpRequest, organization_id: int) -> list[StatementRunOut]:
    """The organization's last 20 sendings, newest first."""
    membership = selectors.statement_sender(user=signed_in_user(request), organization_id=organization_id)
    return [StatementRunOut.of(run) for run in selectors.statement_runs(organization=membership.organization)]


@router.get(
    "/orgs/{organization_id}/giving-statements/runs/{run_id}",
    response={200: StatementRunOut, **ERRORS},
    auth=django_auth,
)
def statements_run(request: HttpRequest, organization_id: int, run_id: int) -> StatementRunOut:
    """One sending's progress: givers handled of all, e-mails and SMS sent, givers unreachable."""
    membership = selectors.statement_sender(user=signed_in_user(request), organization_id=organization_id)
    return StatementRunOut.of(selectors.statement_run_get(organization=membership.organization, run_id=run_id))
