"""Pull Transactions in the local Daraja: registration with a nominated number, and the query that lists
a shortcode's C2B payments of the last 48 hours, page by page."""

from datetime import datetime, timedelta
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from simulators.daraja.apps import (
    NAIROBI,
    PHONE,
    bad_request,
    daraja_error,
    random_digits,
    shortcode_request,
    url_problem,
)
from simulators.models import (
    SimulatedC2BTransaction,
    SimulatedPullRegistration,
)

# Pull Transactions lists only this far back, this many rows an answer.
PULL_WINDOW = timedelta(hours=48)
PULL_PAGE_SIZE = 100
PULL_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


@csrf_exempt
@require_POST
def pull_register(request: HttpRequest) -> JsonResponse:
    """Pull Transactions registration: once per shortcode (``1000``), again answered ``1001``."""
    checked = shortcode_request(request)
    if isinstance(checked, JsonResponse):
        return checked
    app, body = checked
    if body.get("RequestType") != "Pull":
        return bad_request("RequestType")
    if not PHONE.match(str(body.get("NominatedNumber", ""))):
        return bad_request("NominatedNumber")
    if url_problem(body.get("CallBackURL")):
        return bad_request("CallBackURL")
    _, created = SimulatedPullRegistration.objects.get_or_create(
        shortcode=app.shortcode,
        defaults={"nominated_number": body["NominatedNumber"], "callback_url": body["CallBackURL"]},
    )
    return JsonResponse(
        {
            "ResponseRefID": f"{random_digits(5)}-{random_digits(7)}-1",
            "ResponseStatus": "1000" if created else "1001",
            "ShortCode": app.shortcode,
            "ResponseDescription": "Shortcode registered successfully" if created else "Shortcode already registered",
        }
    )


def _pull_date(value: Any) -> datetime | None:
    try:
        return datetime.strptime(str(value), PULL_DATE_FORMAT).replace(tzinfo=NAIROBI)
    except ValueError:
        return None


PULL_TYPES = {"Buy Goods": "c2b-buy-goods-debit", "Pay Bill Online": "c2b-pay-bill-online-debit"}


def _pulled(transaction: SimulatedC2BTransaction, organization_name: str) -> dict[str, Any]:
    return {
        "transactionId": transaction.trans_id,
        "trxDate": transaction.paid_at.astimezone(NAIROBI).replace(microsecond=0).isoformat(),
        "msisdn": transaction.msisdn,
        "sender": "",
        "transactiontype": PULL_TYPES.get(transaction.transaction_type, "c2b-pay-bill-debit"),
        "billreference": transaction.bill_ref_number,
        "amount": f"{transaction.amount}.0",
        "organizationname": organization_name,
    }


@csrf_exempt
@require_POST
def pull_query(request: HttpRequest) -> JsonResponse:
    """The C2B payments of a registered shortcode between StartDate and EndDate (Nairobi time),
    ``PULL_PAGE_SIZE`` rows from OffSetValue; nothing older than 48 hours is kept."""
    checked = shortcode_request(request)
    if isinstance(checked, JsonResponse):
        return checked
    app, body = checked
    if not SimulatedPullRegistration.objects.filter(shortcode=app.shortcode).exists():
        return daraja_error(400, "400.002.02", "Bad Request - ShortCode not registered for Pull Transactions")
    start, end = _pull_date(body.get("StartDate")), _pull_date(body.get("EndDate"))
    if start is None:
        return bad_request("StartDate")
    if end is None or end < start:
        return bad_request("EndDate")
    offset = str(body.get("OffSetValue", ""))
    if not offset.isdigit():
        return bad_request("OffSetValue")
    transactions = SimulatedC2BTransaction.objects.filter(
        shortcode=app.shortcode, paid_at__gte=max(start, timezone.now() - PULL_WINDOW), paid_at__lte=end
    )[int(offset) : int(offset) + PULL_PAGE_SIZE]
    reference = f"{random_digits(5)}-{random_digits(7)}-1"
    if not transactions:
        return JsonResponse(
            {
                "ResponseRefID": reference,
                "ResponseCode": "1001",
                "ResponseMessage": "No transactions found",
                "Response": [],
            }
        )
    rows = [_pulled(transaction, app.organization_name) for transaction in transactions]
    # As in Safaricom's examples: the list of transactions inside a list.
    return JsonResponse(
        {"ResponseRefID": reference, "ResponseCode": "1000", "ResponseMessage": "Success", "Response": [rows]}
    )
