"""POST /api/pledges/{code}/airtel-push: pay a pledge from an Airtel line (``pledges.airtel``)."""

from django.http import HttpRequest
from ninja import Router, Status

from payments.models import Payment
from payments.schemas import PaymentOut
from pledges import airtel
from pledges.api import ERRORS, _pledge_prompt_response
from pledges.schemas import PledgeStkPushIn

router = Router(tags=["pledges"])


@router.post("/pledges/{code}/airtel-push", response={201: PaymentOut, **ERRORS})
def pledge_airtel_push(request: HttpRequest, code: str, payload: PledgeStkPushIn) -> Status[Payment]:
    """'Pay with Airtel Money': a USSD push asking for the Airtel Money PIN, for the amount due or any
    amount up to what is left, with the pledge code as reference. Poll GET /api/payments/{reference}.
    400 (airtel_unavailable) when the campaign has no Airtel Money account with credentials."""
    return _pledge_prompt_response(request, code, payload, start=airtel.pledge_airtel_push_start)
