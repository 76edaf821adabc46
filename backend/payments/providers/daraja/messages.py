"""What Daraja posts to our callbacks and answers our requests, typed and parsed.

Nothing here makes a request: the client (``client``) sends, these values carry what came back, and the
parsers turn a callback's body into them or raise ``MalformedBody``.
"""

import base64
import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from payments.providers import MalformedBody, ProviderError

NAIROBI = ZoneInfo("Africa/Nairobi")
RESULT_CANCELLED_BY_USER = 1032
DARAJA_PHONE = re.compile(r"^254[17]\d{8}$")
# Ratiba's frequencies, as a standing order's terms name them and as Daraja numbers them.
STANDING_ORDER_FREQUENCIES = {"weekly": "3", "monthly": "4"}


@dataclass(frozen=True)
class StkPushAccepted:
    """Daraja took the request; the outcome comes later by callback (or query)."""

    merchant_request_id: str
    checkout_request_id: str
    customer_message: str


@dataclass(frozen=True)
class StkResult:
    """The outcome of one STK Push, from its callback or from a query.

    ``amount``, ``mpesa_receipt`` and ``phone`` (as Daraja writes it, e.g. 254712345678) come
    only with a successful callback; a query answers just the result code.
    """

    checkout_request_id: str
    merchant_request_id: str
    result_code: int
    result_desc: str
    amount: int | None = None
    mpesa_receipt: str = ""
    phone: str = ""

    @property
    def succeeded(self) -> bool:
        return self.result_code == 0


@dataclass(frozen=True)
class StkQueryAnswer:
    body: dict[str, Any]
    result: StkResult | None  # None while the prompt is still open


@dataclass(frozen=True)
class C2BNotification:
    """A validation or confirmation body for a payment someone made to the paybill or till."""

    trans_id: str
    trans_time: str
    amount: int
    shortcode: str
    bill_ref_number: str
    msisdn: str  # masked by Safaricom since 2022: never use it to match a payer
    first_name: str


@dataclass(frozen=True)
class StandingOrderTerms:
    """A Ratiba standing order to ask a payer for: ``amount`` whole KES to the credentials'
    paybill, with ``account_reference``, every week or month from ``start_on`` to ``end_on``."""

    name: str  # unique among the payer's standing orders
    phone: str  # E.164
    amount: int
    frequency: str  # a key of STANDING_ORDER_FREQUENCIES
    start_on: date
    end_on: date
    account_reference: str
    description: str


@dataclass(frozen=True)
class StandingOrderResult:
    """The payer's answer to a standing order, from its callback: ``0`` is created (active)."""

    result_code: str
    result_desc: str
    transaction_id: str = ""

    @property
    def succeeded(self) -> bool:
        return self.result_code == "0"


def timestamp(now: datetime | None = None) -> str:
    """Daraja's Timestamp: Nairobi time as YYYYMMDDHHMMSS."""
    return (now or timezone.now()).astimezone(NAIROBI).strftime("%Y%m%d%H%M%S")


def password(*, shortcode: str, passkey: str, timestamp: str) -> str:
    return base64.b64encode(f"{shortcode}{passkey}{timestamp}".encode()).decode()


def daraja_phone(e164: str) -> str:
    """+254712345678 -> 254712345678, the form PartyA and PhoneNumber take."""
    phone = e164.lstrip("+")
    if not DARAJA_PHONE.match(phone):
        raise ValueError(f"not a Kenyan mobile number in E.164 form: {e164!r}")
    return phone


def whole_shillings(value: Any) -> int:
    """Amounts arrive as 500, 500.0 or "500.00"; anything but a whole positive number is malformed."""
    if isinstance(value, bool):
        raise MalformedBody("amount is not a number")
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        raise MalformedBody("amount is not a number") from None
    if not amount.is_finite() or amount != amount.to_integral_value() or amount < 1:
        raise MalformedBody("amount is not a whole number of shillings")
    return int(amount)


def text_field(body: dict[str, Any], key: str, *, required: bool = True) -> str:
    value = body.get(key)
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise MalformedBody(f"{key} is missing")
    return value.strip()


def parse_result_code(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise MalformedBody("ResultCode is not a number")


def parse_stk_callback(body: Any) -> StkResult:
    """``{"Body": {"stkCallback": {...}}}`` as Daraja posts it to the CallBackURL."""
    try:
        callback = body["Body"]["stkCallback"]
    except (KeyError, TypeError):
        raise MalformedBody("no Body.stkCallback") from None
    if not isinstance(callback, dict):
        raise MalformedBody("stkCallback is not an object")
    result_code = parse_result_code(callback.get("ResultCode"))
    result = StkResult(
        checkout_request_id=text_field(callback, "CheckoutRequestID"),
        merchant_request_id=text_field(callback, "MerchantRequestID", required=False),
        result_code=result_code,
        result_desc=text_field(callback, "ResultDesc", required=False)[:255],
    )
    if result_code != 0:
        return result
    # CallbackMetadata comes only with success: [{"Name": "Amount", "Value": 500}, ...].
    try:
        items = callback["CallbackMetadata"]["Item"]
        values = {item["Name"]: item.get("Value") for item in items}
    except (KeyError, TypeError):
        raise MalformedBody("a successful callback without CallbackMetadata") from None
    return StkResult(
        checkout_request_id=result.checkout_request_id,
        merchant_request_id=result.merchant_request_id,
        result_code=0,
        result_desc=result.result_desc,
        amount=whole_shillings(values.get("Amount")),
        mpesa_receipt=text_field(values, "MpesaReceiptNumber"),
        phone=text_field(values, "PhoneNumber", required=False),
    )


def parse_c2b_notification(body: Any) -> C2BNotification:
    if not isinstance(body, dict):
        raise MalformedBody("not an object")
    return C2BNotification(
        trans_id=text_field(body, "TransID"),
        trans_time=text_field(body, "TransTime", required=False),
        amount=whole_shillings(body.get("TransAmount")),
        shortcode=text_field(body, "BusinessShortCode"),
        bill_ref_number=text_field(body, "BillRefNumber", required=False)[:64],
        msisdn=text_field(body, "MSISDN", required=False),
        first_name=text_field(body, "FirstName", required=False)[:100],
    )


def case_blind(mapping: Any, key: str) -> Any:
    """``mapping[key]`` in any case: Safaricom's examples write the same field as ``responseHeader``
    and ``ResponseHeader``, ``name`` and ``Name``."""
    if not isinstance(mapping, dict):
        return None
    return next((value for name, value in mapping.items() if str(name).lower() == key.lower()), None)


def parse_standing_order_callback(body: Any) -> StandingOrderResult:
    """``{"responseHeader": {"responseCode", "responseDescription", ...}, "responseBody":
    {"responseData": [{"name", "value"}, ...]}}`` as Ratiba posts it to the CallBackURL."""
    header = case_blind(body, "responseHeader")
    if not isinstance(header, dict):
        raise MalformedBody("no responseHeader")
    code = case_blind(header, "responseCode")
    if isinstance(code, bool) or not isinstance(code, int | str) or not str(code).strip():
        raise MalformedBody("responseCode is missing")
    data = case_blind(case_blind(body, "responseBody"), "responseData") or []
    if not isinstance(data, list):
        raise MalformedBody("responseData is not a list")
    values = {str(case_blind(item, "name")): case_blind(item, "value") for item in data if isinstance(item, dict)}
    return StandingOrderResult(
        result_code=str(code).strip(),
        result_desc=str(case_blind(header, "responseDescription") or "")[:255],
        transaction_id=str(values.get("TransactionID") or "")[:32],
    )


@dataclass(frozen=True)
class PulledTransaction:
    """One C2B payment as Pull Transactions lists it."""

    trans_id: str
    trans_time: datetime
    amount: int
    shortcode: str
    bill_ref_number: str
    msisdn: str  # masked, like a confirmation's
    transaction_type: str

    def as_c2b_notification(self) -> C2BNotification:
        """The confirmation Daraja would have posted, so a pulled payment is credited by the same rules."""
        return C2BNotification(
            trans_id=self.trans_id,
            trans_time=self.trans_time.astimezone(NAIROBI).strftime("%Y%m%d%H%M%S"),
            amount=self.amount,
            shortcode=self.shortcode,
            bill_ref_number=self.bill_ref_number,
            msisdn=self.msisdn,
            first_name="",
        )


def pulled_time(value: Any) -> datetime:
    """``trxDate`` comes as ISO 8601, with or without an offset; without one it is Nairobi time."""
    try:
        moment = datetime.fromisoformat(str(value).strip().replace(" ", "T"))
    except ValueError:
        raise MalformedBody("trxDate is not a date") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=NAIROBI)


def parse_pulled_transactions(answer: dict[str, Any], *, shortcode: str) -> list[PulledTransaction]:
    """The ``Response`` of a Pull query: a list of transactions, which Safaricom's own examples nest
    one level deeper (a list holding the list), so both are read."""
    rows = answer.get("Response") or []
    if not isinstance(rows, list):
        raise ProviderError("Pull Transactions answered in an unknown shape")
    flat = [item for row in rows for item in (row if isinstance(row, list) else [row])]
    try:
        return [
            PulledTransaction(
                trans_id=text_field(row, "transactionId"),
                trans_time=pulled_time(row.get("trxDate")),
                amount=whole_shillings(row.get("amount")),
                shortcode=shortcode,
                bill_ref_number=text_field(row, "billreference", required=False)[:64],
                msisdn=text_field(row, "msisdn", required=False),
                transaction_type=text_field(row, "transactiontype", required=False),
            )
            for row in flat
        ]
    except (MalformedBody, AttributeError) as exc:
        raise ProviderError(f"Pull Transactions listed a transaction in an unknown shape: {exc}") from None
