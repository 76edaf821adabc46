"""The client: the OAuth token, STK Push and its query, C2B URL registration, Pull Transactions and
Ratiba standing orders, each a request signed with one Daraja app's credentials."""

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import httpx
from django.conf import settings

from payments.providers import BearerTokenClient, MalformedBody, ProviderError
from payments.providers.daraja.messages import (
    NAIROBI,
    STANDING_ORDER_FREQUENCIES,
    PulledTransaction,
    StandingOrderTerms,
    StkPushAccepted,
    StkQueryAnswer,
    StkResult,
    case_blind,
    daraja_phone,
    parse_pulled_transactions,
    parse_result_code,
    password,
    timestamp,
)

TOKEN_PATH = "/oauth/v1/generate"  # noqa: S105 - a path, not a secret
STK_PUSH_PATH = "/mpesa/stkpush/v1/processrequest"
STK_QUERY_PATH = "/mpesa/stkpushquery/v1/query"
C2B_REGISTER_PATH = "/mpesa/c2b/v1/registerurl"
PULL_REGISTER_PATH = "/pulltransactions/v1/register"
PULL_QUERY_PATH = "/pulltransactions/v1/query"
# M-Pesa Ratiba (standing orders) has its own path family, outside /mpesa/.
STANDING_ORDER_PATH = "/standingorder/v1/createStandingOrderExternal"
# Pull Transactions answers: registered now or before; transactions found or none in the period.
PULL_REGISTERED = ("1000", "1001")
PULL_FOUND, PULL_NONE = "1000", "1001"
# Only this far back can be pulled.
PULL_WINDOW = timedelta(hours=48)
PULL_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
# A safety stop for the paging loop, far above what one shortcode takes in 48 hours.
PULL_MAX_PAGES = 100
# A cached token is dropped this long before Daraja says it expires.
TOKEN_REFRESH_MARGIN_SECONDS = 60
ACCOUNT_REFERENCE_MAX_LENGTH = 12
TRANSACTION_DESC_MAX_LENGTH = 13
# Daraja answers an expired or unknown bearer token with HTTP 404 and this error code.
INVALID_TOKEN_ERROR_CODE = "404.001.03"  # noqa: S105 - an error code
# The token request's answer to a wrong consumer key or secret.
INVALID_CREDENTIALS_ERROR_CODE = "400.008.01"
# The STK query answers this error code while the payer has not yet answered the prompt (and, with
# another message, to a wrong passkey: the message tells them apart).
STILL_PROCESSING_ERROR_CODE = "500.001.1001"
# errorMessage of a BusinessShortCode (or PartyB) the app may not use, and of a Password made with
# the wrong passkey, as Daraja words them.
SHORTCODE_REFUSALS = (
    "Invalid BusinessShortCode",
    "Invalid ShortCode",
    "Invalid PartyB",
    "Merchant does not exist",
)
PASSKEY_REFUSAL = "Wrong credentials"
# A CheckoutRequestID nobody was given: querying it checks the shortcode and passkey and pays nothing.
PROBE_CHECKOUT_REQUEST_ID = "ws_CO_HARAMBEE_CONNECTION_TEST"
# Ratiba: the transaction types and receiver kinds of a paybill and a till.
STANDING_ORDER_PAYBILL, STANDING_ORDER_TILL = "Standing Order Customer Pay Bill", "Standing Order Customer Pay Marchant"
RECEIVER_PAYBILL, RECEIVER_TILL = "4", "2"
# The create call answers in HTTP style (``200``: accepted); its callback answers ``0`` when the
# payer approved and the order is active.
STANDING_ORDER_ACCEPTED = "200"
STANDING_ORDER_NAME_MAX_LENGTH = 64
TIMEOUT_SECONDS = 10.0
PAYBILL, TILL = "paybill", "till"
PAYBILL_ONLINE, BUY_GOODS_ONLINE = "CustomerPayBillOnline", "CustomerBuyGoodsOnline"


@dataclass(frozen=True)
class DarajaCredentials:
    """One Daraja app and the M-Pesa account it serves: the platform's own (``from_settings``, for
    fees) or an organization's (its connected collection account).

    ``shortcode`` is what the app is linked to and what Daraja calls BusinessShortCode: the paybill
    number, or for a till its store (head office) number; ``till_number`` is the till payers pay
    (STK Push's PartyB). The secrets stay out of ``repr``, so a credentials value in a log line or
    a traceback shows none of them.
    """

    consumer_key: str = field(repr=False)
    consumer_secret: str = field(repr=False)
    shortcode: str
    passkey: str = field(default="", repr=False)
    kind: str = PAYBILL
    till_number: str = ""
    # The organization's Safaricom number Pull Transactions is registered with.
    nominated_number: str = ""

    @classmethod
    def from_settings(cls) -> "DarajaCredentials":
        till = settings.MPESA_TRANSACTION_TYPE == BUY_GOODS_ONLINE
        return cls(
            consumer_key=settings.MPESA_CONSUMER_KEY,
            consumer_secret=settings.MPESA_CONSUMER_SECRET,
            shortcode=settings.MPESA_SHORTCODE,
            passkey=settings.MPESA_PASSKEY,
            kind=TILL if till else PAYBILL,
            till_number=settings.MPESA_SHORTCODE if till else "",
        )

    @property
    def transaction_type(self) -> str:
        return BUY_GOODS_ONLINE if self.kind == TILL else PAYBILL_ONLINE

    @property
    def party_b(self) -> str:
        """Where an STK Push sends the money: the paybill, or the till."""
        return self.till_number if self.kind == TILL else self.shortcode

    @property
    def cache_key(self) -> str:
        """Per app and account: a replaced key or secret never reuses the old app's token."""
        material = f"{self.consumer_key}|{self.consumer_secret}|{self.shortcode}"
        return hashlib.sha256(material.encode()).hexdigest()[:32]


class CredentialsRefused(ProviderError):
    """Daraja gave no token: the consumer key or secret is wrong."""


class ShortcodeRefused(ProviderError):
    """Daraja does not know the shortcode, or it is not this app's."""


class PasskeyRefused(ProviderError):
    """The shortcode is right but the Lipa Na M-Pesa passkey is not (the STK Password is refused)."""


class DarajaClient(BearerTokenClient[DarajaCredentials]):
    provider = "Daraja"
    token_path = TOKEN_PATH
    token_refresh_margin_seconds = TOKEN_REFRESH_MARGIN_SECONDS

    @classmethod
    def from_settings(cls) -> "DarajaClient":
        """The platform's own Daraja app, which takes the fees."""
        return cls.for_credentials(DarajaCredentials.from_settings())

    @classmethod
    def for_credentials(cls, credentials: DarajaCredentials) -> "DarajaClient":
        return cls(base_url=settings.MPESA_BASE_URL, credentials=credentials, timeout=TIMEOUT_SECONDS)

    @property
    def shortcode(self) -> str:
        return self.credentials.shortcode

    def _token_request(self) -> httpx.Response:
        return httpx.get(
            f"{self.base_url}{TOKEN_PATH}",
            params={"grant_type": "client_credentials"},
            auth=(self.credentials.consumer_key, self.credentials.consumer_secret),
            timeout=self.timeout,
        )

    def _token_refused(self, response: httpx.Response) -> ProviderError | None:
        if response.status_code == 400 and INVALID_CREDENTIALS_ERROR_CODE in response.text:
            return CredentialsRefused("Daraja refused the consumer key and secret (400)")
        return None

    def _token_expired(self, response: httpx.Response) -> bool:
        return super()._token_expired(response) or INVALID_TOKEN_ERROR_CODE in response.text

    def _post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return self._authorized("POST", path, body)

    def _secured(self) -> dict[str, str]:
        now = timestamp()
        return {
            "BusinessShortCode": self.shortcode,
            "Password": password(shortcode=self.shortcode, passkey=self.credentials.passkey, timestamp=now),
            "Timestamp": now,
        }

    @staticmethod
    def _refused_credentials(answer: dict[str, Any]) -> ProviderError | None:
        """Daraja's answer to a shortcode not of this app, or to a Password built with the wrong passkey."""
        message = str(answer.get("errorMessage", ""))
        if any(words in message for words in SHORTCODE_REFUSALS):
            return ShortcodeRefused(f"Daraja refused the shortcode: {message}")
        if PASSKEY_REFUSAL in message:
            return PasskeyRefused(f"Daraja refused the STK password: {message}")
        return None

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
            "TransactionType": self.credentials.transaction_type,
            "Amount": int(amount),
            "PartyA": daraja_phone(phone),
            "PartyB": self.credentials.party_b,
            "PhoneNumber": daraja_phone(phone),
            "CallBackURL": callback_url,
            "AccountReference": account_reference[:ACCOUNT_REFERENCE_MAX_LENGTH],
            "TransactionDesc": description[:TRANSACTION_DESC_MAX_LENGTH],
        }
        response = self._post(STK_PUSH_PATH, body)
        answer = self._json(response)
        if refusal := self._refused_credentials(answer):
            raise refusal
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

    def standing_order_create(self, terms: StandingOrderTerms, *, callback_url: str) -> None:
        """Ask the payer (an approval prompt on their phone) for a Ratiba standing order to this
        app's paybill or till. Acceptance is not approval: the callback tells. Needs Safaricom to
        have enabled Ratiba for the shortcode."""
        till = self.credentials.kind == TILL
        body = {
            "StandingOrderName": terms.name[:STANDING_ORDER_NAME_MAX_LENGTH],
            "StartDate": terms.start_on.strftime("%Y%m%d"),
            "EndDate": terms.end_on.strftime("%Y%m%d"),
            "BusinessShortCode": self.credentials.party_b,
            "TransactionType": STANDING_ORDER_TILL if till else STANDING_ORDER_PAYBILL,
            "ReceiverPartyIdentifierType": RECEIVER_TILL if till else RECEIVER_PAYBILL,
            "Amount": str(int(terms.amount)),
            "PartyA": daraja_phone(terms.phone),
            "CallBackURL": callback_url,
            "AccountReference": terms.account_reference[:ACCOUNT_REFERENCE_MAX_LENGTH],
            "TransactionDesc": terms.description[:TRANSACTION_DESC_MAX_LENGTH],
            "Frequency": STANDING_ORDER_FREQUENCIES[terms.frequency],
        }
        response = self._post(STANDING_ORDER_PATH, body)
        answer = self._json(response)
        if refusal := self._refused_credentials(answer):
            raise refusal
        header = case_blind(answer, "ResponseHeader")
        code = str(case_blind(header, "responseCode") or "")
        if response.status_code != 200 or code != STANDING_ORDER_ACCEPTED:
            message = case_blind(header, "responseDescription") or answer.get("errorMessage") or response.text[:200]
            raise ProviderError(f"Daraja refused the standing order ({response.status_code}): {message}")

    def stk_query(self, *, checkout_request_id: str) -> StkQueryAnswer:
        response = self._post(STK_QUERY_PATH, {**self._secured(), "CheckoutRequestID": checkout_request_id})
        answer = self._json(response)
        if refusal := self._refused_credentials(answer):
            raise refusal
        if answer.get("errorCode") == STILL_PROCESSING_ERROR_CODE:
            return StkQueryAnswer(body=answer, result=None)
        if response.status_code != 200 or "ResultCode" not in answer:
            message = answer.get("errorMessage") or response.text[:200]
            raise ProviderError(f"Daraja refused the STK query ({response.status_code}): {message}")
        try:
            result_code = parse_result_code(answer["ResultCode"])
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
        if refusal := self._refused_credentials(answer):
            raise refusal
        if response.status_code != 200 or str(answer.get("ResponseCode", "0")) != "0":
            message = answer.get("errorMessage") or answer.get("ResponseDescription") or response.text[:200]
            raise ProviderError(f"Daraja refused the C2B registration ({response.status_code}): {message}")
        return answer

    def check_shortcode(self) -> None:
        """Test the connection: a token (the key and secret), then an STK query for a checkout nobody
        was given, which Daraja answers only after checking the shortcode and the passkey's Password.
        Pays nothing and changes nothing; raises CredentialsRefused, ShortcodeRefused, PasskeyRefused
        or ProviderError (Daraja unreachable or answering nonsense)."""
        response = self._post(STK_QUERY_PATH, {**self._secured(), "CheckoutRequestID": PROBE_CHECKOUT_REQUEST_ID})
        if refusal := self._refused_credentials(self._json(response)):
            raise refusal
        if response.status_code >= 500:
            raise ProviderError(f"Daraja failed the connection test ({response.status_code})")

    def register_pull(self, *, callback_url: str) -> str:
        """Register the shortcode for Pull Transactions with the organization's nominated number.
        Registering again is harmless (``1001``, already registered); the answer's description."""
        body = {
            "ShortCode": self.shortcode,
            "RequestType": "Pull",
            "NominatedNumber": self.credentials.nominated_number,
            "CallBackURL": callback_url,
        }
        response = self._post(PULL_REGISTER_PATH, body)
        answer = self._json(response)
        if refusal := self._refused_credentials(answer):
            raise refusal
        if response.status_code != 200 or str(answer.get("ResponseStatus")) not in PULL_REGISTERED:
            message = answer.get("errorMessage") or answer.get("ResponseDescription") or response.text[:200]
            raise ProviderError(
                f"Daraja refused the Pull Transactions registration ({response.status_code}): {message}"
            )
        return str(answer.get("ResponseDescription", ""))

    def pull_transactions(self, *, start: datetime, end: datetime) -> list[PulledTransaction]:
        """Every C2B payment to the shortcode between ``start`` and ``end`` (at most 48 hours ago),
        page after page (``OffSetValue`` counts rows) until Daraja has none left."""
        pulled: list[PulledTransaction] = []
        for _page in range(PULL_MAX_PAGES):
            body = {
                "ShortCode": self.shortcode,
                "StartDate": start.astimezone(NAIROBI).strftime(PULL_DATE_FORMAT),
                # Whole seconds: rounded up, so a payment in the last second is not left out.
                "EndDate": (end + timedelta(microseconds=-end.microsecond % 1_000_000))
                .astimezone(NAIROBI)
                .strftime(PULL_DATE_FORMAT),
                "OffSetValue": str(len(pulled)),
            }
            response = self._post(PULL_QUERY_PATH, body)
            answer = self._json(response)
            code = str(answer.get("ResponseCode", ""))
            if response.status_code != 200 or code not in (PULL_FOUND, PULL_NONE):
                message = answer.get("errorMessage") or answer.get("ResponseMessage") or response.text[:200]
                raise ProviderError(f"Daraja refused the Pull Transactions query ({response.status_code}): {message}")
            page = parse_pulled_transactions(answer, shortcode=self.shortcode) if code == PULL_FOUND else []
            if not page:
                return pulled
            pulled.extend(page)
        raise ProviderError(f"Pull Transactions kept answering after {PULL_MAX_PAGES} pages")
