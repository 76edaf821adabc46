"""Paystack's hosted checkout over HTTP.

Why Paystack: it serves Kenya in KES, its hosted checkout takes cards and M-Pesa on the
same page, and its API is public and small (initialize, verify, one signed webhook), so
the local simulator can speak it faithfully. An organization's card payments settle to its own
bank account through a subaccount (Paystack's split payments): created once with the bank's code
and the account number, then named in each transaction it should receive. Amounts travel in the currency's subunit
(KES x 100). Webhooks carry ``x-paystack-signature``: HMAC-SHA512 of the raw body keyed
with the secret key. A webhook is only a hint: we verify the transaction before crediting.
"""

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from common.network import network_call_check
from payments.providers import MalformedBody, ProviderError, provider_request

SUBACCOUNT_PATH = "/subaccount"
INITIALIZE_PATH = "/transaction/initialize"
VERIFY_PATH = "/transaction/verify/{reference}"
CURRENCY = "KES"
SUBUNITS_PER_SHILLING = 100
CHARGE_SUCCESS = "charge.success"
TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class Checkout:
    authorization_url: str
    access_code: str
    reference: str


@dataclass(frozen=True)
class Subaccount:
    subaccount_code: str
    settlement_bank: str
    account_number: str


@dataclass(frozen=True)
class Transaction:
    """What ``verify`` says. ``status`` is success, failed, abandoned (not paid yet), ongoing, pending or reversed."""

    body: dict[str, Any]
    reference: str
    status: str
    amount_subunit: int
    currency: str
    transaction_id: str
    gateway_response: str

    def pays(self, amount_kes: int) -> bool:
        return self.currency == CURRENCY and self.amount_subunit == amount_kes * SUBUNITS_PER_SHILLING


class PaystackRefused(ProviderError):
    """Paystack answered and said no (``message`` is its reason, e.g. 'Account details are invalid')."""

    def __init__(self, path: str, status_code: int, message: str) -> None:
        super().__init__(f"Paystack refused {path} ({status_code}): {message}")
        self.message = message


def parse_webhook(body: Any) -> tuple[str, str]:
    """The event name and the transaction reference of a webhook body."""
    try:
        event, reference = body["event"], body["data"]["reference"]
    except (KeyError, TypeError):
        raise MalformedBody("no event or data.reference") from None
    if not isinstance(event, str) or not isinstance(reference, str) or not reference:
        raise MalformedBody("event or data.reference is not text")
    return event, reference


class PaystackClient:
    def __init__(self, *, base_url: str, secret_key: str, timeout: float = 10.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.secret_key = secret_key
        self.timeout = timeout

    @classmethod
    def from_settings(cls) -> "PaystackClient":
        return cls(
            base_url=settings.PAYSTACK_BASE_URL, secret_key=settings.PAYSTACK_SECRET_KEY, timeout=TIMEOUT_SECONDS
        )

    def signature_is_valid(self, *, raw_body: bytes, signature: str) -> bool:
        if not self.secret_key or not signature:
            return False
        expected = hmac.new(self.secret_key.encode(), raw_body, hashlib.sha512).hexdigest()
        return hmac.compare_digest(expected, signature.strip().lower())

    def _request(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        network_call_check(f"Paystack {path}")
        headers = {"Authorization": f"Bearer {self.secret_key}"}
        response = provider_request(
            "Paystack", method, f"{self.base_url}{path}", path=path, headers=headers, timeout=self.timeout, **kwargs
        )
        try:
            answer = response.json()
        except ValueError:
            raise ProviderError(f"Paystack answered {path} without JSON") from None
        if response.status_code >= 500 or not isinstance(answer, dict):
            raise ProviderError(f"Paystack failed {path} ({response.status_code})")
        if response.status_code != 200 or answer.get("status") is not True:
            raise PaystackRefused(path, response.status_code, str(answer.get("message") or ""))
        data = answer.get("data")
        if not isinstance(data, dict):
            raise ProviderError(f"Paystack answered {path} without data")
        return data

    def subaccount_create(
        self, *, business_name: str, settlement_bank: str, account_number: str, percentage_charge: float
    ) -> Subaccount:
        """A subaccount settling to ``account_number`` at the bank whose code is ``settlement_bank``;
        ``percentage_charge`` is the share of each payment the platform's own account keeps."""
        data = self._request(
            "POST",
            SUBACCOUNT_PATH,
            json={
                "business_name": business_name,
                "settlement_bank": settlement_bank,
                "account_number": account_number,
                "percentage_charge": percentage_charge,
            },
        )
        code = data.get("subaccount_code")
        if not isinstance(code, str) or not code:
            raise ProviderError("Paystack created a subaccount without a subaccount_code")
        return Subaccount(
            subaccount_code=code,
            settlement_bank=str(data.get("settlement_bank") or settlement_bank),
            account_number=str(data.get("account_number") or account_number),
        )

    def initialize(
        self,
        *,
        email: str,
        amount_kes: int,
        reference: str,
        callback_url: str,
        metadata: dict[str, Any],
        subaccount: str = "",
    ) -> Checkout:
        """Open a hosted checkout for ``amount_kes``; the payer goes to ``authorization_url``. With a
        ``subaccount`` code the payment settles to that subaccount's bank account, less Paystack's fee."""
        data = self._request(
            "POST",
            INITIALIZE_PATH,
            json={
                "email": email,
                "amount": amount_kes * SUBUNITS_PER_SHILLING,
                "currency": CURRENCY,
                "reference": reference,
                "callback_url": callback_url,
                "metadata": metadata,
                # The organization, whose money it is, bears Paystack's fee on it.
                **({"subaccount": subaccount, "bearer": "subaccount"} if subaccount else {}),
            },
        )
        try:
            return Checkout(
                authorization_url=str(data["authorization_url"]),
                access_code=str(data["access_code"]),
                reference=str(data["reference"]),
            )
        except KeyError:
            raise ProviderError("Paystack opened a checkout without an authorization_url") from None

    def verify(self, reference: str) -> Transaction:
        data = self._request("GET", VERIFY_PATH.format(reference=reference))
        try:
            return Transaction(
                body=data,
                reference=str(data["reference"]),
                status=str(data["status"]),
                amount_subunit=int(data["amount"]),
                currency=str(data.get("currency", "")),
                transaction_id=str(data["id"]),
                gateway_response=str(data.get("gateway_response") or "")[:255],
            )
        except (KeyError, TypeError, ValueError):
            raise ProviderError("Paystack answered verify in an unknown shape") from None
