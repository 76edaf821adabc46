"""The Airtel Africa Open API (Airtel Money collections, Kenya) over HTTP.

What the ledger needs, as Airtel documents it (developers.airtel.africa, "Collection APIs"):

- ``POST /auth/oauth2/token`` with JSON ``{client_id, client_secret, grant_type: client_credentials}``
  answers ``{access_token, expires_in, token_type}`` (``expires_in`` a string of seconds);
- ``POST /merchant/v1/payments/`` (the USSD push) with headers ``X-Country: KE`` and ``X-Currency: KES``
  and the body ``{reference, subscriber{country, currency, msisdn}, transaction{amount, country,
  currency, id}}``, ``msisdn`` without the country code, ``id`` ours (unique per merchant);
- the collection callback Airtel posts to the URL set in the app's portal:
  ``{transaction{id, message, status_code: TS|TF, airtel_money_id}}``; with callback authentication on,
  a ``hash`` beside it: base64 HMAC-SHA256 of the ``transaction`` object (compact JSON, keys in the
  documented order) under the app's callback private key;
- ``GET /standard/v1/payments/{id}`` (the transaction enquiry, for a callback that never came):
  ``data.transaction{id, status: TS|TF|TIP|TA, message, airtel_money_id}``.

Message signing (``x-signature``/``x-key``: the body AES-encrypted under a key sent RSA-encrypted) is
an option Airtel switches on per merchant app for disbursements; collections as used here do not
need it, and this adapter does not implement it (an app with it on refuses the push, which the
treasurer sees when testing the connection).
"""

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass, field
from typing import Any

import httpx

from payments.providers import BearerTokenClient, MalformedBody, ProviderError

TOKEN_PATH = "/auth/oauth2/token"  # noqa: S105 - a path, not a secret
PUSH_PATH = "/merchant/v1/payments/"
ENQUIRY_PATH = "/standard/v1/payments/{id}"
COUNTRY, CURRENCY = "KE", "KES"
TOKEN_REFRESH_MARGIN_SECONDS = 30
# Transaction statuses: successful, failed, in progress, ambiguous (ask again later).
SUCCESSFUL, FAILED, IN_PROGRESS, AMBIGUOUS = "TS", "TF", "TIP", "TA"
# The push's answer: accepted and in progress (the payer has the prompt).
PUSH_IN_PROGRESS = "DP00800001006"
REFERENCE_MAX_LENGTH = 64


class CredentialsRefused(ProviderError):
    """Airtel refused the client id and secret."""


@dataclass(frozen=True)
class AirtelCredentials:
    client_id: str
    client_secret: str = field(repr=False)

    @property
    def cache_key(self) -> str:
        return hashlib.sha256(f"{self.client_id}|{self.client_secret}".encode()).hexdigest()[:24]


@dataclass(frozen=True)
class PushAccepted:
    transaction_id: str
    response_code: str
    message: str


@dataclass(frozen=True)
class AirtelResult:
    """How a collection ended, from a callback or an enquiry."""

    transaction_id: str
    status: str
    message: str
    airtel_money_id: str

    @property
    def succeeded(self) -> bool:
        return self.status == SUCCESSFUL

    @property
    def failed(self) -> bool:
        return self.status == FAILED

    @property
    def settled(self) -> bool:
        return self.status in (SUCCESSFUL, FAILED)


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def parse_callback(body: Any) -> AirtelResult:
    """The collection callback's ``transaction`` object; MalformedBody for any other shape."""
    transaction = body.get("transaction") if isinstance(body, dict) else None
    if not isinstance(transaction, dict):
        raise MalformedBody("no transaction object")
    result = AirtelResult(
        transaction_id=_text(transaction.get("id")),
        status=_text(transaction.get("status_code")).upper(),
        message=_text(transaction.get("message"))[:255],
        airtel_money_id=_text(transaction.get("airtel_money_id"))[:32],
    )
    if not result.transaction_id or result.status not in (SUCCESSFUL, FAILED):
        raise MalformedBody("missing id or status_code")
    if result.succeeded and not result.airtel_money_id:
        raise MalformedBody("a success without airtel_money_id")
    return result


def callback_hash(transaction: dict[str, Any], *, key: str) -> str:
    """The ``hash`` of an authenticated callback: base64 HMAC-SHA256 of its ``transaction`` object."""
    message = json.dumps(transaction, separators=(",", ":")).encode()
    return base64.b64encode(hmac.new(key.encode(), message, hashlib.sha256).digest()).decode()


def callback_hash_valid(body: Any, *, key: str) -> bool:
    if not isinstance(body, dict) or not isinstance(body.get("transaction"), dict):
        return False
    return hmac.compare_digest(str(body.get("hash", "")), callback_hash(body["transaction"], key=key))


def parse_enquiry(body: Any) -> AirtelResult:
    data = body.get("data") if isinstance(body, dict) else None
    transaction = data.get("transaction") if isinstance(data, dict) else None
    if not isinstance(transaction, dict):
        raise MalformedBody("no data.transaction")
    return AirtelResult(
        transaction_id=_text(transaction.get("id")),
        status=_text(transaction.get("status")).upper(),
        message=_text(transaction.get("message"))[:255],
        airtel_money_id=_text(transaction.get("airtel_money_id"))[:32],
    )


@dataclass(frozen=True)
class Enquiry:
    result: AirtelResult
    body: dict[str, Any]


class AirtelClient(BearerTokenClient[AirtelCredentials]):
    provider = "Airtel"
    token_path = TOKEN_PATH
    token_refresh_margin_seconds = TOKEN_REFRESH_MARGIN_SECONDS

    def _token_request(self) -> httpx.Response:
        return httpx.post(
            f"{self.base_url}{TOKEN_PATH}",
            json={
                "client_id": self.credentials.client_id,
                "client_secret": self.credentials.client_secret,
                "grant_type": "client_credentials",
            },
            headers={"Accept": "*/*"},
            timeout=self.timeout,
        )

    def _token_refused(self, response: httpx.Response) -> ProviderError | None:
        if response.status_code in (400, 401):
            return CredentialsRefused(f"Airtel refused the client id and secret ({response.status_code})")
        return None

    def _headers(self) -> dict[str, str]:
        return {"Accept": "*/*", "X-Country": COUNTRY, "X-Currency": CURRENCY, **super()._headers()}

    def _send(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        response = self._authorized(method, path, body)
        try:
            answer = response.json()
        except ValueError:
            raise ProviderError(f"Airtel {path} answered {response.status_code} without JSON") from None
        if response.status_code != 200 or not isinstance(answer, dict):
            raise ProviderError(f"Airtel {path} refused ({response.status_code}): {str(answer)[:200]}")
        return answer

    def push(self, *, msisdn: str, amount: int, transaction_id: str, reference: str) -> PushAccepted:
        """Send the USSD push: the payer's phone asks for their Airtel Money PIN."""
        answer = self._send(
            "POST",
            PUSH_PATH,
            {
                "reference": reference[:REFERENCE_MAX_LENGTH],
                "subscriber": {"country": COUNTRY, "currency": CURRENCY, "msisdn": msisdn},
                "transaction": {"amount": amount, "country": COUNTRY, "currency": CURRENCY, "id": transaction_id},
            },
        )
        status: dict[str, Any] = answer["status"] if isinstance(answer.get("status"), dict) else {}
        if not status.get("success"):
            raise ProviderError(f"Airtel refused the push: {status.get('message', '')}")
        return PushAccepted(
            transaction_id=transaction_id,
            response_code=_text(status.get("response_code")),
            message=_text(status.get("message"))[:255],
        )

    def enquiry(self, *, transaction_id: str) -> Enquiry:
        """How the collection ``transaction_id`` (ours) ended, or that it is still in progress."""
        answer = self._send("GET", ENQUIRY_PATH.format(id=transaction_id))
        try:
            return Enquiry(result=parse_enquiry(answer), body=answer)
        except MalformedBody as exc:
            raise ProviderError(f"Airtel answered the enquiry in an unknown shape: {exc}") from None
