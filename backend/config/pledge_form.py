"""Pledging without JavaScript: POST /campaign/{id}/pledge, the pledge page's form sent by the browser.

The page (config/spa.py) renders the app's pledge form as a plain HTML form with its visitor's CSRF
token; with JavaScript the app sends it to POST /api/pledges instead. This reads the form's fields
(named as in features/pledges/PledgeForm.tsx) and records the pledge with the same service and the
same rules and limits, except that no browser challenge can let it past the per-address limit
(common/challenges.py): past it the post is refused with the limit's message and ``Retry-After``,
and the limits per phone, e-mail and account apply as always. A signed-in visitor's pledge is theirs.

Recorded: 303 to the pledge's own page (/pledges/{code}). Refused: the pledge page again with the
values typed and the messages the API would give (its status: 400, 404, 422 or 429).

The pledge's own page has a 'Pay now' form (features/pledges/PayNowPanel.tsx) that posts the same way,
to POST /pledges/{code}: the PIN prompt goes out through the service the API uses
(``pledge_stk_push_start``, same rules and limits), for the amount typed, any from 1 to what is left
(the page offers the amount due; left empty, the amount due). Sent or refused, the pledge's page comes
back with what was typed and, refused, the API's messages (and status). Its form carries a fresh
idempotency key, so sending it again (a reload) sends no second prompt.
"""

import math
import uuid
from datetime import date

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from accounts.auth import request_user
from common.errors import FieldValidationError, RateLimitedError, ServiceError
from common.ratelimit import client_ip
from config.spa import PayNowFormState, PledgeFormState, spa, spa_page
from pledges.instalments import PlanTerms
from pledges.services import pledge_create, pledge_stk_push_start

TEXT_FIELDS = ("name", "email", "phone", "amount", "instalment", "frequency", "firstDueOn")
CHECKBOXES = ("isAnonymous", "payInInstalments")
FIELD_MAX_LENGTH = 500  # as PledgeIn's fields
IDEMPOTENCY_KEY_LENGTHS = range(8, 65)  # as PledgeStkPushIn's


def _whole(text: str) -> float | None:
    """Shillings typed as the app takes them ("5,000"): None when empty, NaN when not a number (the
    service then refuses it with its own message)."""
    digits = text.replace(",", "").replace(" ", "")
    if not digits:
        return None
    return float(digits) if digits.isdigit() and len(digits) <= 12 else math.nan


def _plan(values: dict[str, str | bool]) -> PlanTerms | None:
    """The instalment plan chosen with the pledge, if any; a first due date that is not a date is refused here."""
    if not values["payInInstalments"]:
        return None
    try:
        first_due_on = date.fromisoformat(str(values["firstDueOn"]))
    except ValueError:
        message = _("Please choose when the first instalment falls due.")
        raise FieldValidationError(
            _("Please correct the errors below"), field_errors={"first_due_on": message}
        ) from None
    instalment = _whole(str(values["instalment"]))
    whole_instalment = int(instalment) if instalment is not None and instalment.is_integer() else 0
    return PlanTerms(whole_instalment, str(values["frequency"]), first_due_on)


def pledge_page(request: HttpRequest, campaign_id: str) -> HttpResponse:
    """GET: the pledge page (the app's); POST: its form, sent without JavaScript."""
    if request.method != "POST":
        return spa(request)
    return pledge_form_submit(request, campaign_id=int(campaign_id) if len(campaign_id) <= 18 else 0)


def _api_error(refusal: ServiceError) -> dict[str, object]:
    """A refusal in the API's error shape (config/api.py), as the app shows the API's."""
    return {"detail": refusal.message, "code": refusal.code, "field_errors": refusal.field_errors or {}}


def _refused_page(
    request: HttpRequest,
    refusal: ServiceError,
    *,
    pledge_form: PledgeFormState | None = None,
    pay_now: PayNowFormState | None = None,
) -> HttpResponse:
    """The page of a form sent without JavaScript and refused, answered with the refusal's status."""
    response = spa_page(request, pledge_form=pledge_form, pay_now=pay_now, status=refusal.status)
    if isinstance(refusal, RateLimitedError) and refusal.retry_after:
        response["Retry-After"] = str(refusal.retry_after)
    return response


def pledge_form_submit(request: HttpRequest, *, campaign_id: int) -> HttpResponse:
    values: dict[str, str | bool] = {
        field: request.POST.get(field, "").strip()[:FIELD_MAX_LENGTH] for field in TEXT_FIELDS
    } | {field: field in request.POST for field in CHECKBOXES}
    try:
        pledge = pledge_create(
            campaign_id=campaign_id,
            amount=_whole(str(values["amount"])),
            name=str(values["name"]),
            email=str(values["email"]),
            phone=str(values["phone"]),
            is_anonymous=bool(values["isAnonymous"]),
            viewer=request_user(request),
            client_ip=client_ip(request),
            plan=_plan(values),
        )
    except ServiceError as refusal:
        return _refused_page(request, refusal, pledge_form=PledgeFormState(values=values, error=_api_error(refusal)))
    return HttpResponse(status=303, headers={"Location": f"/pledges/{pledge.code}"})


def pledge_receipt_page(request: HttpRequest, code: str) -> HttpResponse:
    """GET: a pledge's page (the app's); POST: its 'Pay now' form, sent without JavaScript."""
    if request.method != "POST":
        return spa(request)
    return pay_now_form_submit(request, code=code)


def pay_now_form_submit(request: HttpRequest, *, code: str) -> HttpResponse:
    amount_typed = request.POST.get("amount", "").strip()[:FIELD_MAX_LENGTH]
    key = request.POST.get("key", "")
    amount = _whole(amount_typed)
    try:
        pledge_stk_push_start(
            code=code,
            phone=request.POST.get("phone", "").strip()[:FIELD_MAX_LENGTH],
            # Not a whole number: 0, which the service refuses with its message (from Ksh 1 to what is left).
            amount=None if amount is None else int(amount) if amount.is_integer() else 0,
            idempotency_key=key if len(key) in IDEMPOTENCY_KEY_LENGTHS else uuid.uuid4().hex,
            viewer=request_user(request),
            client_ip=client_ip(request),
        )
    except ServiceError as refusal:
        return _refused_page(request, refusal, pay_now=PayNowFormState(amount=amount_typed, error=_api_error(refusal)))
    return spa_page(request, pay_now=PayNowFormState(amount=amount_typed, sent=True))
