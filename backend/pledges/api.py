"""The pledges and donations API.

Public: pledging (POST /api/pledges), a pledge's own page by its code (GET /api/pledges/{code},
and POST /api/pledges/{code}/stk-push to pay it), donating (POST /api/donations), the pledge
and donation lists of a campaign (masked: see ``schemas``), the ministry page's campaign.

Pledge Management (the campaign's organizer or an admin; 401 signed out, 403 for others):
the summary, CSV exports, confirming a pledge, recording cash, bank and M-Pesa payments,
correcting, cancelling and restoring pledges with their history, and the payments that matched
no pledge code with their one-click assignment. (Reversing a payment: the payments API.)

Payments are polled at GET /api/payments/{reference} (the payments API).
"""

from collections.abc import Callable, Iterator
from typing import TypedDict

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Query, Router, Status
from ninja.security import django_auth

from accounts.auth import request_user, signed_in_user
from accounts.models import User
from audit.models import AuditEntry
from campaigns.selectors import campaign_get, campaign_managed_get
from common.challenges import SOLUTION_HEADER
from common.csv_export import CSV_OPENAPI, csv_response
from common.ratelimit import client_ip
from common.schemas import ErrorOut
from organizations.roles import Permission
from payments.models import Payment
from payments.schemas import PaymentOut
from pledges import schemas, selectors, services

router = Router(tags=["pledges"])

ERRORS = {400: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut}
MANAGE_ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}
TOTAL_COUNT = {
    "responses": {
        200: {
            "headers": {
                "X-Total-Count": {"description": "How many rows match, over all pages.", "schema": {"type": "integer"}}
            }
        }
    }
}


def _campaign_export(
    request: HttpRequest, filters: schemas.CampaignQuery, *, kind: str, rows: Callable[..., Iterator[list[str | int]]]
) -> StreamingHttpResponse:
    """A managed campaign's ``rows`` as a spreadsheet named after ``kind``, the campaign and today."""
    campaign = campaign_managed_get(
        campaign_id=filters.campaign_id, user=signed_in_user(request), permission=Permission.MANAGE_PLEDGES
    )
    filename = f"{kind}-campaign-{campaign.pk}-{timezone.localdate():%Y-%m-%d}.csv"
    return csv_response(rows(campaign=campaign), filename=filename)


# Pledging -----------------------------------------------------------------------------------


@router.post("/pledges", response={201: schemas.PledgeReceiptOut, **ERRORS})
def pledge_create(request: HttpRequest, payload: schemas.PledgeIn) -> Status[schemas.PledgeReceiptOut]:
    """Pledge to an active campaign (signed in or not). Answers the pledge with its code (the
    M-Pesa account number) and how to pay it. Missing fields: 422 'Please fill in all required
    fields' with a message per field; a campaign that is not accepting pledges: 400."""
    plan = payload.plan.terms() if payload.plan else None
    pledge = services.pledge_create(**_giving_request(request, payload), plan=plan)
    return Status(201, schemas.PledgeReceiptOut.from_pledge(pledge))


class _GivingRequest(TypedDict):
    """What pledging and donating both pass on (``services.pledge_create``, ``services.donation_create``)."""

    campaign_id: int
    amount: float | None
    name: str | None
    email: str | None
    phone: str | None
    is_anonymous: bool
    viewer: User | None
    client_ip: str
    challenge_solution: str


def _giving_request(request: HttpRequest, payload: schemas.PledgeIn | schemas.DonationIn) -> _GivingRequest:
    """The giver and the amount from the form; who is signed in, their address and any challenge's
    solution from the request."""
    return _GivingRequest(
        campaign_id=payload.campaign_id,
        amount=payload.amount,
        name=payload.name,
        email=payload.email,
        phone=payload.phone,
        is_anonymous=payload.is_anonymous,
        viewer=request_user(request),
        client_ip=client_ip(request),
        challenge_solution=request.headers.get(SOLUTION_HEADER, ""),
    )


def _my_pledges(user: User) -> schemas.MyPledgesOut:
    mine = selectors.account_pledges(user=user)
    return schemas.MyPledgesOut.of(verified_phone=user.verified_phone, pledges=mine.pledges, claimable=mine.claimable)


@router.get("/my-pledges", response={200: schemas.MyPledgesOut, 401: ErrorOut}, auth=django_auth)
def my_pledges(request: HttpRequest) -> schemas.MyPledgesOut:
    """The signed-in user's pledges, and those made by USSD or SMS from their verified number that
    they may claim (none until the number is verified: POST /api/profile/phone-verification)."""
    return _my_pledges(signed_in_user(request))


@router.post("/my-pledges/claim", response={200: schemas.MyPledgesOut, 401: ErrorOut, **ERRORS}, auth=django_auth)
def my_pledges_claim(request: HttpRequest, payload: schemas.PledgeClaimIn) -> schemas.MyPledgesOut:
    """Make these pledges (made by phone from the verified number) the user's own. A code that is not
    claimable: 404, and nothing changes."""
    user = signed_in_user(request)
    services.pledges_claim(user=user, pledge_codes=payload.codes)
    return _my_pledges(user)


@router.get("/pledges", response={200: list[schemas.PledgeOut], **ERRORS}, openapi_extra=TOTAL_COUNT)
def pledge_list(
    request: HttpRequest, response: HttpResponse, filters: Query[schemas.PledgeListQuery]
) -> list[schemas.PledgeOut]:
    """A campaign's pledges, newest first, one page at a time (an array), masked for the viewer."""
    viewer = request_user(request)
    campaign = campaign_get(campaign_id=filters.campaign_id, user=viewer)
    manages = campaign.allows(viewer, Permission.SEE_PLEDGES)
    pledges, total = selectors.pledge_list(
        campaign=campaign,
        manages=manages,
        q=filters.q,
        status=filters.status,
        behind=filters.behind,
        page=filters.page,
        page_size=filters.page_size,
    )
    response["X-Total-Count"] = str(total)
    return [schemas.PledgeOut.for_viewer(pledge, manages=manages) for pledge in pledges]


@router.get("/pledges/export.csv", response={200: None, **MANAGE_ERRORS}, auth=django_auth, openapi_extra=CSV_OPENAPI)
def pledge_export(request: HttpRequest, filters: Query[schemas.CampaignQuery]) -> StreamingHttpResponse:
    """Every pledge of the campaign with contact details and payment state, as a spreadsheet."""
    return _campaign_export(request, filters, kind="pledges", rows=selectors.pledge_export_rows)


@router.get("/pledges/{code}", response={200: schemas.PledgeReceiptOut, **ERRORS})
def pledge_by_code(request: HttpRequest, code: str) -> schemas.PledgeReceiptOut:
    """The pledge with this code, as its pledger sees it: the page a reminder or receipt links to,
    with paid and remaining amounts and how to pay. Any case; spaces and dashes are ignored."""
    return schemas.PledgeReceiptOut.from_pledge(services.pledge_get_by_code(code=code, client_ip=client_ip(request)))


@router.put("/pledges/{code}/plan", response={200: schemas.PlanOut, **ERRORS})
def pledge_plan_set_by_code(request: HttpRequest, code: str, payload: schemas.PlanIn) -> schemas.PlanOut:
    """'Pay in instalments' on the pledge's own page: set or change its plan. The first instalment
    today or later; the last by the campaign's end date (or up to 24 months after it, where the
    campaign allows). 400 for a fully paid or cancelled pledge; 422 with a message per field."""
    plan = services.pledge_plan_set_by_code(code=code, client_ip=client_ip(request), terms=payload.terms())
    return schemas.PlanOut.from_plan(plan)


@router.post("/pledges/{code}/standing-order", response={201: schemas.PlanOut, **ERRORS})
def pledge_standing_order_start(
    request: HttpRequest, code: str, payload: schemas.StandingOrderIn
) -> Status[schemas.PlanOut]:
    """'Pay automatically with M-Pesa': a standing order (M-Pesa Ratiba) for the plan's instalments
    left, approved once with the M-Pesa PIN on the phone; each instalment then arrives as a paybill
    payment with the pledge code. Poll the pledge: its plan's ``standing_order`` turns active or
    failed. 400 where it is not offered (no plan, unequal instalments, behind, a till, no Ratiba) or
    M-Pesa refused it."""
    plan = services.pledge_standing_order_start(code=code, phone=payload.phone, client_ip=client_ip(request))
    return Status(201, schemas.PlanOut.from_plan(plan))


@router.post("/pledges/{code}/stk-push", response={201: PaymentOut, **ERRORS})
def pledge_stk_push(request: HttpRequest, code: str, payload: schemas.PledgeStkPushIn) -> Status[Payment]:
    """'Pay now with M-Pesa': a PIN prompt on the phone for the amount due (on a plan, the
    instalment due or what is overdue; else the remaining amount) or any other amount up to what is
    left, with the pledge code as account. Poll GET /api/payments/{reference}; once it has succeeded the
    pledge shows the payment. 400 when the pledge is already fully paid."""
    return _pledge_prompt_response(request, code, payload, start=services.pledge_stk_push_start)


def _pledge_prompt_response(
    request: HttpRequest, code: str, payload: schemas.PledgeStkPushIn, *, start: Callable[..., Payment]
) -> Status[Payment]:
    """A prompt to pay the pledge of ``code``, by M-Pesa or Airtel Money (``start``: that network's)."""
    payment = start(
        code=code,
        phone=payload.phone,
        amount=payload.amount,
        idempotency_key=payload.idempotency_key,
        viewer=request_user(request),
        client_ip=client_ip(request),
    )
    return Status(201, payment)


# Pledge Management --------------------------------------------------------------------------


@router.post(
    "/confirm-payment", response={200: schemas.ConfirmPaymentOut, 400: ErrorOut, **MANAGE_ERRORS}, auth=django_auth
)
def confirm_payment(request: HttpRequest, payload: schemas.ConfirmPaymentIn) -> dict[str, object]:
    """Confirm a pledge paid outside our paybill: the rest of its amount is entered in the ledger
    by ``method`` (default bank), received on ``received_on`` (default today), with ``reference``
    (an M-Pesa entry's receipt code is required), recorded by the signed-in organizer. Recorded
    payments can only be corrected by a reversing entry, with a reason. Confirming a fully paid
    pledge changes nothing. Only the campaign's organizer or an admin (403)."""
    user = signed_in_user(request)
    pledge = services.pledge_confirm(
        pledge_id=payload.pledgeId,
        user=user,
        method=payload.method,
        received_on=payload.received_on,
        reference=payload.reference,
    )
    return {
        "detail": _("Payment confirmed successfully!"),
        "pledge": schemas.PledgeOut.for_viewer(pledge, manages=True),
    }


@router.get(
    "/pledges/{pledge_id}/payments", response={200: list[schemas.PledgePaymentOut], **MANAGE_ERRORS}, auth=django_auth
)
def pledge_payment_list(request: HttpRequest, pledge_id: int) -> list[Payment]:
    """The payments counted towards a pledge, newest first."""
    pledge = selectors.pledge_managed_get(
        pledge_id=pledge_id, user=signed_in_user(request), permission=Permission.SEE_PLEDGES
    )
    return selectors.pledge_payment_list(pledge=pledge)


@router.post(
    "/pledges/{pledge_id}/payments", response={201: schemas.PledgeOut, 400: ErrorOut, **MANAGE_ERRORS}, auth=django_auth
)
def pledge_payment_record(
    request: HttpRequest, pledge_id: int, payload: schemas.ManualPaymentIn
) -> Status[schemas.PledgeOut]:
    """'Record a payment' (cash, bank, or M-Pesa to the organization's own number with its receipt
    code): enters it in the ledger (with who recorded it and the day received) and counts it
    towards the pledge; answers the pledge as it is now."""
    pledge = services.pledge_payment_record(pledge_id=pledge_id, user=signed_in_user(request), **payload.dict())
    return Status(201, schemas.PledgeOut.for_viewer(pledge, manages=True))


@router.post(
    "/pledges/{pledge_id}/correction",
    response={200: schemas.PledgeOut, 400: ErrorOut, 429: ErrorOut, **MANAGE_ERRORS},
    auth=django_auth,
)
def pledge_amount_correct(
    request: HttpRequest, pledge_id: int, payload: schemas.PledgeCorrectionIn
) -> schemas.PledgeOut:
    """Change the pledge's amount (never below what is paid), with a reason; audited, and the
    pledger gets a short message."""
    pledge = services.pledge_amount_correct(pledge_id=pledge_id, user=signed_in_user(request), **payload.dict())
    return schemas.PledgeOut.for_viewer(pledge, manages=True)


@router.post(
    "/pledges/{pledge_id}/cancellation",
    response={200: schemas.PledgeOut, 400: ErrorOut, 429: ErrorOut, **MANAGE_ERRORS},
    auth=django_auth,
)
def pledge_cancel(request: HttpRequest, pledge_id: int, payload: schemas.PledgeCancelIn) -> schemas.PledgeOut:
    """Cancel the pledge, with a reason: it leaves the totals, the summary and the reminders. Its
    payments move to another pledge or are kept as gifts (``payments_to``)."""
    pledge = services.pledge_cancel(pledge_id=pledge_id, user=signed_in_user(request), **payload.dict())
    return schemas.PledgeOut.for_viewer(pledge, manages=True)


@router.post(
    "/pledges/{pledge_id}/restoration",
    response={200: schemas.PledgeOut, 400: ErrorOut, 429: ErrorOut, **MANAGE_ERRORS},
    auth=django_auth,
)
def pledge_restore(request: HttpRequest, pledge_id: int, payload: schemas.PledgeRestoreIn) -> schemas.PledgeOut:
    """Restore a cancelled pledge, with a reason: it counts again as it stands."""
    pledge = services.pledge_restore(pledge_id=pledge_id, user=signed_in_user(request), reason=payload.reason)
    return schemas.PledgeOut.for_viewer(pledge, manages=True)


@router.put(
    "/pledges/{pledge_id}/instalment-plan",
    response={200: schemas.PledgeOut, 400: ErrorOut, **MANAGE_ERRORS},
    auth=django_auth,
)
def pledge_plan_set(request: HttpRequest, pledge_id: int, payload: schemas.PlanIn) -> schemas.PledgeOut:
    """A treasurer's or owner's instalment plan for the pledge, agreed with its pledger (audited);
    its first instalment may lie in the past. Answers the pledge with its plan and standing."""
    plan = services.pledge_plan_set(pledge_id=pledge_id, user=signed_in_user(request), terms=payload.terms())
    return schemas.PledgeOut.for_viewer(plan.pledge, manages=True)


@router.get(
    "/pledges/{pledge_id}/history",
    response={200: list[schemas.PledgeHistoryEntryOut], **MANAGE_ERRORS},
    auth=django_auth,
)
def pledge_history(request: HttpRequest, pledge_id: int) -> list[AuditEntry]:
    """What people did to the pledge and its payments, newest first, with the reasons given."""
    pledge = selectors.pledge_managed_get(
        pledge_id=pledge_id, user=signed_in_user(request), permission=Permission.SEE_PLEDGES
    )
    return selectors.pledge_history(pledge=pledge)


@router.post(
    "/pledges/{pledge_id}/assign-payment",
    response={200: schemas.PledgeOut, 400: ErrorOut, **MANAGE_ERRORS},
    auth=django_auth,
)
def pledge_payment_assign(request: HttpRequest, pledge_id: int, payload: schemas.AssignPaymentIn) -> schemas.PledgeOut:
    """Count one of the campaign's unmatched payments towards this pledge. 404 for a payment
    that is not in the campaign's unmatched list; 400 if it was assigned meanwhile."""
    pledge = services.pledge_payment_assign(
        pledge_id=pledge_id, reference=payload.reference, user=signed_in_user(request)
    )
    return schemas.PledgeOut.for_viewer(pledge, manages=True)


@router.get(
    "/campaigns/{campaign_id}/pledge-summary",
    response={200: schemas.PledgeSummaryOut, **MANAGE_ERRORS},
    auth=django_auth,
)
def pledge_summary(request: HttpRequest, campaign_id: int) -> dict[str, int]:
    """Pledge Management's summary: counts and sums by state, paid to date, unmatched payments."""
    user = signed_in_user(request)
    campaign = campaign_managed_get(campaign_id=campaign_id, user=user, permission=Permission.SEE_PLEDGES)
    return selectors.pledge_summary(campaign=campaign, user=user)


@router.get(
    "/campaigns/{campaign_id}/unmatched-payments",
    response={200: list[schemas.UnmatchedPaymentOut], **MANAGE_ERRORS},
    auth=django_auth,
    openapi_extra=TOTAL_COUNT,
)
def unmatched_payment_list(
    request: HttpRequest, response: HttpResponse, campaign_id: int, paging: Query[schemas.PageQuery]
) -> list[schemas.UnmatchedPaymentOut]:
    """Paybill payments whose account number matched no pledge code but is one typo away from
    this campaign's codes (admins also see those no campaign could be found for), newest first,
    each with the pledge it most likely meant."""
    user = signed_in_user(request)
    campaign = campaign_managed_get(campaign_id=campaign_id, user=user, permission=Permission.SEE_PLEDGES)
    rows, total = selectors.unmatched_payment_list(campaign=campaign, user=user, **paging.dict())
    response["X-Total-Count"] = str(total)
    return [schemas.UnmatchedPaymentOut.from_row(row) for row in rows]


@router.post(
    "/campaigns/{campaign_id}/unmatched-payments/set-aside",
    response={200: schemas.SetAsideOut, **MANAGE_ERRORS},
    auth=django_auth,
)
def unmatched_payments_set_aside(request: HttpRequest, campaign_id: int, payload: schemas.SetAsideIn) -> dict[str, int]:
    """'Not for a campaign': take these unmatched payments off the list for good (owners, treasurers)."""
    count = services.unmatched_payments_set_aside(
        campaign_id=campaign_id, user=signed_in_user(request), references=payload.references
    )
    return {"set_aside": count}


# Donations ----------------------------------------------------------------------------------


@router.post("/donations", response={201: schemas.DonationCreatedOut, **ERRORS})
def donation_create(request: HttpRequest, payload: schemas.DonationIn) -> Status[schemas.DonationCreatedOut]:
    """Donate by M-Pesa (a PIN prompt on ``phone``, or, where the campaign's accounts take none,
    ``payment_instructions`` with the payment's reference) or card (``payment.checkout_url``). Poll the
    payment; the campaign's raised total and donors grow only once it has succeeded."""
    donation = services.donation_create(
        **_giving_request(request, payload),
        method=payload.method,
        idempotency_key=payload.idempotency_key,
        return_path=payload.return_path,
    )
    return Status(201, schemas.DonationCreatedOut.from_donation(donation))


@router.get("/donations", response={200: list[schemas.DonationOut], **ERRORS}, openapi_extra=TOTAL_COUNT)
def donation_list(
    request: HttpRequest,
    response: HttpResponse,
    filters: Query[schemas.CampaignQuery],
    paging: Query[schemas.PageQuery],
) -> list[schemas.DonationOut]:
    """A campaign's paid donations, latest first, one page at a time, masked for the viewer."""
    viewer = request_user(request)
    campaign = campaign_get(campaign_id=filters.campaign_id, user=viewer)
    manages = campaign.allows(viewer, Permission.SEE_PLEDGES)
    donations, total = selectors.donation_list(campaign=campaign, **paging.dict())
    response["X-Total-Count"] = str(total)
    return [schemas.DonationOut.for_viewer(donation, manages=manages) for donation in donations]


@router.get("/donations/export.csv", response={200: None, **MANAGE_ERRORS}, auth=django_auth, openapi_extra=CSV_OPENAPI)
def donation_export(request: HttpRequest, filters: Query[schemas.CampaignQuery]) -> StreamingHttpResponse:
    """Every paid donation of the campaign with contact details, as a spreadsheet."""
    return _campaign_export(request, filters, kind="donations", rows=selectors.donation_export_rows)


# The static ministry page -------------------------------------------------------------------


@router.get("/ministry-campaign", response={200: schemas.MinistryCampaignOut, 404: ErrorOut})
def ministry_campaign(request: HttpRequest) -> dict[str, int]:
    """The campaign the /icc-imara-donate page's Donate and Pledge buttons lead to (settings)."""
    return {"campaign_id": selectors.ministry_campaign_get().pk}
