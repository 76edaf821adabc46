"""Safaricom's Daraja API (M-Pesa) over HTTP.

Covers what the ledger needs: the OAuth client-credentials token, STK Push (the payer gets
a PIN prompt), the STK Push query (for prompts whose callback never came), C2B URL
registration (people paying the paybill themselves), and typed parsing of the bodies Daraja
posts to our callback URLs. Daraja signs nothing; the callers check every callback against
the intent we created.
"""

import base64
import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo

import httpx
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from payments.providers import MalformedBody, ProviderError, ProviderTimeout

NAIROBI = ZoneInfo("Africa/Nairobi")
TOKEN_PATH = "/oauth/v1/generate"  # noqa: S105 - a path, not a secret
STK_PUSH_PATH = "/mpesa/stkpush/v1/processrequest"
STK_QUERY_PATH = "/mpesa/stkpushquery/v1/query"
C2B_REGISTER_PATH = "/mpesa/c2b/v1/registerurl"
# A cached token is dropped this long before Daraja says it expires.
TOKEN_REFRESH_MARGIN_SECONDS = 60
ACCOUNT_REFERENCE_MAX_LENGTH = 12
TRANSACTION_DESC_MAX_LENGTH = 13
# Daraja answers an expired or unknown bearer token with HTTP 404 and this error code.
INVALID_TOKEN_ERROR_CODE = "404.001.03"  # noqa: S105 - an error code
# The STK query answers this error code while the payer has not yet answered the prompt.
STILL_PROCESSING_ERROR_CODE = "500.001.1001"
RESULT_CANCELLED_BY_USER = 1032
DARAJA_PHONE = re.compile(r"^254[17]\d{8}$")
TIMEOUT_SECONDS = 10.0


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


def _whole_shillings(value: Any) -> int:
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


def _text(body: dict[str, Any], key: str, *, required: bool = True) -> str:
    value = body.get(key)
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise MalformedBody(f"{key} is missing")
    return value.strip()


def _result_code(value: Any) -> int:
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
    result_code = _result_code(callback.get("ResultCode"))
    result = StkResult(
        checkout_request_id=_text(callback, "CheckoutRequestID"),
        merchant_request_id=_text(callback, "MerchantRequestID", required=False),
        result_code=result_code,
        result_desc=_text(callback, "ResultDesc", required=False)[:255],
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
        amount=_whole_shillings(values.get("Amount")),
        mpesa_receipt=_text(values, "MpesaReceiptNumber"),
        phone=_text(values, "PhoneNumber", required=False),
    )


def parse_c2b_notification(body: Any) -> C2BNotification:
    if not isinstance(body, dict):
        raise MalformedBody("not an object")
    return C2BNotification(
        trans_id=_text(body, "TransID"),
        trans_time=_text(body, "TransTime", required=False),
        amount=_whole_shillings(body.get("TransAmount")),
        shortcode=_text(body, "BusinessShortCode"),
        bill_ref_number=_text(body, "BillRefNumber", required=False)[:64],
        msisdn=_text(body, "MSISDN", required=False),
        first_name=_text(body, "FirstName", required=False)[:100],
    )


class DarajaClient:
    def __init__(
        self,
        *,
        base_url: str,
        consumer_key: str,
        consumer_secret: str,
        shortcode: str,
        passkey: str,
        transaction_type: str,
        timeout: float = 10.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.consumer_key = consumer_key
        self.consumer_secret = consumer_secret
        self.shortcode = shortcode
        self.passkey = passkey
        self.transaction_type = transaction_type
        self.timeout = timeout

    @classmethod
    def from_settings(cls) -> "DarajaClient":
        return cls(
            base_url=settings.MPESA_BASE_URL,
            consumer_key=settings.MPESA_CONSUMER_KEY,
            consumer_secret=settings.MPESA_CONSUMER_SECRET,
            shortcode=settings.MPESA_SHORTCODE,
            passkey=settings.MPESA_PASSKEY,
            transaction_type=settings.MPESA_TRANSACTION_TYPE,
            timeout=TIMEOUT_SECONDS,
        )

    @property
    def _token_cache_key(self) -> str:
        digest = hashlib.sha256(f"{self.base_url}|{self.consumer_key}".encode()).hexdigest()[:24]
        return f"payments:daraja-token:{digest}"

    def access_token(self) -> str:
        """A bearer token, from the shared cache until shortly before Daraja expires it."""
        token = cache.get(self._token_cache_key)
        if token:
            return str(token)
        try:
            response = httpx.get(
                f"{self.base_url}{TOKEN_PATH}",
                params={"grant_type": "client_credentials"},
                auth=(self.consumer_key, self.consumer_secret),
                timeout=self.timeout,
            )
        except httpx.HTTPError as exc:
            raise ProviderError(f"Daraja token request failed: {exc}") from exc
        if response.status_code != 200:
            raise ProviderError(f"Daraja refused the token request ({response.status_code}): {response.text[:200]}")
        try:
            body = response.json()
            token, expires_in = str(body["access_token"]), int(body["expires_in"])  # expires_in is a string
        except (ValueError, KeyError, TypeError):
            raise ProviderError("Daraja answered the token request in an unknown shape") from None
        cache.set(self._token_cache_key, token, timeout=max(expires_in - TOKEN_REFRESH_MARGIN_SECONDS, 1))
        return token

    def _post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        for attempt in range(2):
            headers = {"Authorization": f"Bearer {self.access_token()}"}
            try:
                response = httpx.post(f"{self.base_url}{path}", json=body, headers=headers, timeout=self.timeout)
            except (httpx.ReadTimeout, httpx.WriteTimeout) as exc:
                raise ProviderTimeout(f"Daraja {path} did not answer in time: {exc}") from exc
            except httpx.HTTPError as exc:
                raise ProviderError(f"Daraja {path} failed: {exc}") from exc
            if attempt or not (response.status_code == 401 or INVALID_TOKEN_ERROR_CODE in response.text):
                return response
            cache.delete(self._token_cache_key)  # revoked before its time: fetch a new one, once
        raise AssertionError("unreachable")

    def _secured(self) -> dict[str, str]:
        now = timestamp()
        return {
            "BusinessShortCode": self.shortcode,
            "Password": password(shortcode=self.shortcode, passkey=self.passkey, timestamp=now),
            "Timestamp": now,
        }

    @staticmethod
    def _json(response: httpx.Response) -> dict[str, Any]:
        try:
            body = response.json()
        except ValueError:
            raise ProviderError(f"Daraja answered {response.status_code} without JSON") from None
        if not isinstance(body, dict):
            raise ProviderError("Daraja answered in an unknown shape")
        return body

    def stk_push(
        self, *, phone: str, amount: int, account_reference: str, description: str, callback_url: str
    ) -> StkPushAccepted:
        """Send the PIN prompt to ``phone`` (E.164). Acceptance is not payment."""
        body = {
            **self._secured(),
            "TransactionType": self.transaction_type,
            "Amount": int(amount),
            "PartyA": daraja_phone(phone),
            "PartyB": self.shortcode,
            "PhoneNumber": daraja_phone(phone),
            "CallBackURL": callback_url,
            "AccountReference": account_reference[:ACCOUNT_REFERENCE_MAX_LENGTH],
            "TransactionDesc": description[:TRANSACTION_DESC_MAX_LENGTH],
        }
        response = self._post(STK_PUSH_PATH, body)
        answer = self._json(response)
        if response.status_code != 200 or str(answer.get("ResponseCode")) != "0":
            message = answer.get("errorMessage") or answer.get("ResponseDescription") or response.text[:200]
            raise ProviderError(f"Daraja refused the STK Push ({response.status_code}): {message}")
        try:
            return StkPushAccepted(
                merchant_request_id=str(answer["MerchantRequestID"]),
                checkout_request_id=str(answer["CheckoutRequestID"]),
                customer_message=str(answer.get("CustomerMessage", "")),
            )
        except KeyError:
            raise ProviderError("Daraja accepted the STK Push without a CheckoutRequestID") from None

    def stk_query(self, *, checkout_request_id: str) -> StkQueryAnswer:
        response = self._post(STK_QUERY_PATH, {**self._secured(), "CheckoutRequestID": checkout_request_id})
        answer = self._json(response)
        if answer.get("errorCode") == STILL_PROCESSING_ERROR_CODE:
            return StkQueryAnswer(body=answer, result=None)
        if response.status_code != 200 or "ResultCode" not in answer:
            message = answer.get("errorMessage") or response.text[:200]
            raise ProviderError(f"Daraja refused the STK query ({response.status_code}): {message}")
        try:
            result_code = _result_code(answer["ResultCode"])
        except MalformedBody:
            raise ProviderError("Daraja answered the STK query with an unknown ResultCode") from None
        result = StkResult(
            checkout_request_id=checkout_request_id,
            merchant_request_id=str(answer.get("MerchantRequestID", "")),
            result_code=result_code,
            result_desc=str(answer.get("ResultDesc", ""))[:255],
        )
        return StkQueryAnswer(body=answer, result=result)

    def register_c2b_urls(
        self, *, confirmation_url: str, validation_url: str, response_type: str = "Completed"
    ) -> dict[str, Any]:
        """Tell Daraja where to post paybill payments. The URLs must not mention M-Pesa or Safaricom."""
        body = {
            "ShortCode": self.shortcode,
            "ResponseType": response_type,
            "ConfirmationURL": confirmation_url,
            "ValidationURL": validation_url,
        }
        response = self._post(C2B_REGISTER_PATH, body)
        answer = self._json(response)
        if response.status_code != 200 or str(answer.get("ResponseCode", "0")) != "0":
            message = answer.get("errorMessage") or answer.get("ResponseDescription") or response.text[:200]
            raise ProviderError(f"Daraja refused the C2B registration ({response.status_code}): {message}")
        return answer
