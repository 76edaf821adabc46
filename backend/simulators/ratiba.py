"""M-Pesa Ratiba (standing orders) in the local Daraja, beside ``simulators.daraja``.

``createStandingOrderExternal`` records an order and puts an approval prompt on the virtual phone
(``GET daraja/phone``), answered by itself after the usual delay by the phone number's last digits
as an STK prompt is (ending 1032: declined; 1037: no answer; 0000: waits for Approve or Decline),
then posts the result to the order's CallBackURL.

Not Daraja: ``POST daraja/ratiba/clock {"Today": "YYYYMMDD", "Missed": ["YYYYMMDD", ...]}`` moves the
simulator's clock to ``Today`` and runs every execution of every active order that fell due since
its last run, in date order: each an ordinary paybill payment with the order's account reference,
confirmed to the shortcode's registered URLs (validation, then confirmation) one after another, so
a year of instalments runs in seconds. An execution on a ``Missed`` date fails (the payer's balance
was short) and pays nothing.
"""

import uuid
from datetime import date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from pledges.instalments import add_months
from simulators.daraja.apps import NAIROBI, PHONE, app_paid_at, bad_request, invalid_token, token_app, url_problem
from simulators.daraja.c2b import c2b_payment_record
from simulators.daraja.stk import MANUAL_SUFFIX, STK_OUTCOMES_BY_SUFFIX, STK_SUCCESS, stk_outcome
from simulators.delivery import deliver_c2b_series_later, deliver_later
from simulators.models import SimulatedC2BRegistration, SimulatedStandingOrder
from simulators.parsing import json_body, whole_amount

PAYBILL = ("Standing Order Customer Pay Bill", "4")
TILL = ("Standing Order Customer Pay Marchant", "2")
ONCE, DAILY, WEEKLY = "1", "2", "3"
# Frequencies counted in months: monthly, every two months, quarterly, half-yearly, yearly.
MONTHS_APART = {"4": 1, "5": 2, "6": 3, "7": 6, "8": 12}
DUPLICATE_NAME = ("1050", "Customer already has a standing order with the same name")
EXECUTION_TIME = time(9)


def _answer(status: int, code: str, description: str) -> JsonResponse:
    reference = str(uuid.uuid4())
    return JsonResponse(
        {
            "ResponseHeader": {
                "responseRefID": reference,
                "responseCode": code,
                "responseDescription": description,
                "ResultDesc": description,
            },
            "ResponseBody": {"responseDescription": description, "responseCode": code},
        },
        status=status,
    )


def _date(value: Any) -> date | None:
    try:
        return datetime.strptime(str(value), "%Y%m%d").replace(tzinfo=NAIROBI).date()
    except ValueError:
        return None


def _problem(body: dict[str, Any], *, shortcode: str, till_number: str) -> str | None:
    """The first field Ratiba would refuse, or None."""
    kind = (body.get("TransactionType"), str(body.get("ReceiverPartyIdentifierType", "")))
    paid_to = str(body.get("BusinessShortCode", ""))
    if kind not in (PAYBILL, TILL) or paid_to != (till_number if kind == TILL else shortcode):
        return "TransactionType" if kind not in (PAYBILL, TILL) else "BusinessShortCode"
    if not 1 <= len(str(body.get("StandingOrderName", "")).strip()) <= 64:
        return "StandingOrderName"
    if whole_amount(body.get("Amount")) is None:
        return "Amount"
    if not PHONE.match(str(body.get("PartyA", ""))):
        return "PartyA"
    start, end = _date(body.get("StartDate")), _date(body.get("EndDate"))
    if start is None or start < timezone.localdate(timezone=NAIROBI):
        return "StartDate"
    if end is None or end < start:
        return "EndDate"
    if str(body.get("Frequency", "")) not in {ONCE, DAILY, WEEKLY, *MONTHS_APART}:
        return "Frequency"
    if url_problem(body.get("CallBackURL")):
        return "CallBackURL"
    if not 1 <= len(str(body.get("AccountReference", ""))) <= 12:
        return "AccountReference"
    if not 1 <= len(str(body.get("TransactionDesc", ""))) <= 13:
        return "TransactionDesc"
    return None


@csrf_exempt
@require_POST
def create(request: HttpRequest) -> JsonResponse:
    if (app := token_app(request)) is None:
        return invalid_token()
    body = json_body(request)
    if body is None:
        return bad_request("Body")
    if problem := _problem(body, shortcode=app.shortcode, till_number=app.till_number):
        return bad_request(problem)
    phone, name = str(body["PartyA"]), str(body["StandingOrderName"]).strip()
    start_on, end_on = _date(body["StartDate"]), _date(body["EndDate"])
    if start_on is None or end_on is None:  # already refused by _problem; for the type checker
        return bad_request("StartDate")
    if SimulatedStandingOrder.objects.filter(phone=phone, name=name).exists():
        return _answer(400, *DUPLICATE_NAME)
    order = SimulatedStandingOrder.objects.create(
        name=name,
        request_ref=str(uuid.uuid4()),
        shortcode=app.shortcode,
        paid_to=str(body["BusinessShortCode"]),
        phone=phone,
        amount=whole_amount(body["Amount"]) or 0,
        frequency=str(body["Frequency"]),
        start_on=start_on,
        end_on=end_on,
        account_reference=str(body["AccountReference"]),
        callback_url=str(body["CallBackURL"]),
    )
    if not phone.endswith(MANUAL_SUFFIX):
        auto_url = request.build_absolute_uri(reverse("simulators:daraja-ratiba-auto", args=[order.request_ref]))
        deliver_later(auto_url, b"{}", delay=settings.SIMULATOR_CALLBACK_DELAY_SECONDS)
    return _answer(200, "200", "Request accepted for processing")


def callback_body(order: SimulatedStandingOrder, outcome: tuple[int, str]) -> dict[str, Any]:
    code, description = outcome
    created = code == 0
    return {
        "responseHeader": {
            "responseRefID": str(uuid.uuid4()),
            "requestRefID": order.request_ref,
            "responseCode": str(code),
            "responseDescription": "Standing order created successfully" if created else description,
        },
        "responseBody": {
            "responseData": [
                {"name": "TransactionID", "value": f"{order.pk:07d}"},
                {"name": "responseCode", "value": str(code)},
                {"name": "Status", "value": "OKAY" if created else "ERROR"},
                {"name": "Msisdn", "value": f"254******{order.phone[-3:]}"},
            ]
        },
    }


def _settle(order: SimulatedStandingOrder, outcome: tuple[int, str]) -> None:
    """Record the payer's answer unless there already is one; then post the callback."""
    code = outcome[0]
    answered = SimulatedStandingOrder.objects.filter(pk=order.pk, status="pending").update(
        status="active" if code == 0 else "declined", result_code=str(code)
    )
    if answered:
        deliver_later(order.callback_url, JsonResponse(callback_body(order, outcome)).content, delay=0)


@csrf_exempt
@require_POST
def auto_answer(request: HttpRequest, request_ref: str) -> HttpResponse:
    order = get_object_or_404(SimulatedStandingOrder, request_ref=request_ref)
    outcome = stk_outcome(order.phone)
    # The balance is not asked for at approval: only a decline or no answer fails it.
    _settle(order, outcome if outcome[0] in (1032, 1037) else STK_SUCCESS)
    return HttpResponse(status=204)


@require_POST
def phone_answer(request: HttpRequest, request_ref: str) -> HttpResponse:
    order = get_object_or_404(SimulatedStandingOrder, request_ref=request_ref)
    approve = request.POST.get("action") == "approve"
    _settle(order, STK_SUCCESS if approve else STK_OUTCOMES_BY_SUFFIX["1032"])
    return HttpResponseRedirect(reverse("simulators:daraja-phone"))


def execution_dates(order: SimulatedStandingOrder) -> list[date]:
    """Every date the order pays on, from its start to its end: a monthly one on the start's day, or
    the last day of a shorter month."""
    if order.frequency == ONCE:
        return [order.start_on]
    dates: list[date] = []
    index = 0
    while True:
        if order.frequency in MONTHS_APART:
            day = add_months(order.start_on, index * MONTHS_APART[order.frequency])
        else:
            day = order.start_on + timedelta(days=index * (7 if order.frequency == WEEKLY else 1))
        if day > order.end_on:
            return dates
        dates.append(day)
        index += 1


@csrf_exempt
@require_POST
def clock(request: HttpRequest) -> JsonResponse:
    body = json_body(request)
    today = _date(body.get("Today")) if body else None
    if body is None or today is None:
        return bad_request("Today")
    missed = {_date(value) for value in body.get("Missed") or []}
    executed: list[dict[str, Any]] = []
    for order in SimulatedStandingOrder.objects.filter(status="active").order_by("pk"):
        due = [day for day in execution_dates(order) if day <= today and day > (order.executed_through or date.min)]
        app = app_paid_at(order.paid_to)
        if app is None:  # the organization's Daraja app is gone: nothing can be paid to it
            continue
        registration = SimulatedC2BRegistration.objects.filter(shortcode=order.shortcode).first()
        bodies = []
        for day in due:
            if day in missed:
                executed.append({"Name": order.name, "Date": day.strftime("%Y%m%d"), "TransID": ""})
                continue
            transaction, notification = c2b_payment_record(
                app=app,
                paid_to=order.paid_to,
                amount=order.amount,
                bill_ref_number=order.account_reference,
                msisdn=order.phone,
                first_name="Ratiba",
                paid_at=datetime.combine(day, EXECUTION_TIME, tzinfo=NAIROBI),
                confirmation_dropped=registration is None,
            )
            bodies.append(notification)
            executed.append({"Name": order.name, "Date": day.strftime("%Y%m%d"), "TransID": transaction.trans_id})
        order.executed_through = max(today, order.executed_through or today)
        order.executions += len(bodies)
        order.save(update_fields=["executed_through", "executions"])
        if bodies and registration is not None:
            deliver_c2b_series_later(
                validation_url=registration.validation_url,
                confirmation_url=registration.confirmation_url,
                bodies=bodies,
                response_type=registration.response_type,
                delay=settings.SIMULATOR_CALLBACK_DELAY_SECONDS,
            )
    return JsonResponse({"Today": today.strftime("%Y%m%d"), "Executions": executed})
