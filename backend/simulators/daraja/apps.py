"""The simulator's Daraja apps and what every request of theirs goes through: the OAuth token, the
bearer token's app, the security fields (BusinessShortCode, Timestamp, Password) and Daraja's error
answers."""

import base64
import binascii
import re
import secrets
import string
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from collection_accounts.selectors import collection_account_for_shortcode
from simulators.models import (
    SimulatedDarajaApp,
)
from simulators.parsing import json_body

NAIROBI = ZoneInfo("Africa/Nairobi")
TOKEN_SALT = "simulators.daraja.access-token"  # noqa: S105 - a signing namespace, not a secret
TOKEN_LIFETIME_SECONDS = 3599
PHONE = re.compile(r"^254[17]\d{8}$")
PAYBILL_ONLINE, BUY_GOODS_ONLINE = "CustomerPayBillOnline", "CustomerBuyGoodsOnline"
FORBIDDEN_URL_WORDS = ("mpesa", "safaricom")
# Daraja refuses a Timestamp this far from its own clock (Nairobi time).
TIMESTAMP_TOLERANCE = timedelta(hours=1)


def random_digits(length: int) -> str:
    return "".join(secrets.choice(string.digits) for _ in range(length))


def receipt_number() -> str:
    """An M-Pesa receipt number such as 'SLK4Q7T2XZ'."""
    return "S" + "".join(secrets.choice(string.ascii_uppercase + string.digits) for _ in range(9))


def now_stamp() -> str:
    return timezone.now().astimezone(NAIROBI).strftime("%Y%m%d%H%M%S")


def daraja_error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(
        {"requestId": f"{random_digits(5)}-{random_digits(8)}-1", "errorCode": code, "errorMessage": message},
        status=status,
    )


def bad_request(field: str) -> JsonResponse:
    return daraja_error(400, "400.002.02", f"Bad Request - Invalid {field}")


def platform_app() -> SimulatedDarajaApp:
    """The platform's own app, from the settings (never saved)."""
    till = settings.MPESA_TRANSACTION_TYPE == BUY_GOODS_ONLINE
    return SimulatedDarajaApp(
        consumer_key=settings.MPESA_CONSUMER_KEY,
        consumer_secret=settings.MPESA_CONSUMER_SECRET,
        shortcode=settings.MPESA_SHORTCODE,
        passkey=settings.MPESA_PASSKEY,
        till_number=settings.MPESA_SHORTCODE if till else "",
        organization_name="Harambee",
    )


def daraja_app_register(
    *, shortcode: str, consumer_key: str, consumer_secret: str, passkey: str, till_number: str = "", **fields: Any
) -> SimulatedDarajaApp:
    """Give an organization a Daraja app for ``shortcode`` (replacing one it had)."""
    app, _ = SimulatedDarajaApp.objects.update_or_create(
        shortcode=shortcode,
        defaults={
            "consumer_key": consumer_key,
            "consumer_secret": consumer_secret,
            "passkey": passkey,
            "till_number": till_number,
            **fields,
        },
    )
    return app


def app_by_key(consumer_key: str) -> SimulatedDarajaApp | None:
    platform = platform_app()
    if consumer_key == platform.consumer_key:
        return platform
    return SimulatedDarajaApp.objects.filter(consumer_key=consumer_key).first()


def app_paid_at(number: str) -> SimulatedDarajaApp | None:
    """The app whose paybill, or till, ``number`` is."""
    platform = platform_app()
    if number in (platform.shortcode, platform.till_number):
        return platform
    return SimulatedDarajaApp.objects.filter(shortcode=number).first() or (
        SimulatedDarajaApp.objects.filter(till_number=number).first() if number else None
    )


def token_app(request: HttpRequest) -> SimulatedDarajaApp | None:
    """The app a valid bearer token was issued to, or None."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme != "Bearer" or not token:
        return None
    try:
        issued = signing.loads(token, salt=TOKEN_SALT, max_age=TOKEN_LIFETIME_SECONDS)
    except signing.BadSignature:
        return None
    return app_by_key(str(issued.get("key", "")))


def acting_app(app: SimulatedDarajaApp, body: dict[str, Any]) -> SimulatedDarajaApp:
    """The app a prompt or query acts for. Until a connected collection account's own credentials are
    used (``payments.services.daraja_client_for``), the platform's app, with its passkey, may act for
    the paybill or till of an account connected to M-Pesa."""
    shortcode = str(body.get("BusinessShortCode", ""))
    if app.pk is not None or shortcode == app.shortcode:
        return app
    account = collection_account_for_shortcode(shortcode=shortcode)
    if account is None or not account.offers_stk_push:
        return app
    till = account.kind == "till"
    return SimulatedDarajaApp(
        consumer_key=app.consumer_key,
        consumer_secret=app.consumer_secret,
        shortcode=shortcode,
        passkey=app.passkey,
        till_number=account.till_number if till else "",
        organization_name=account.organization.name,
    )


def invalid_token() -> JsonResponse:
    return daraja_error(404, "404.001.03", "Invalid Access Token")


def security_refusal(body: dict[str, Any], app: SimulatedDarajaApp) -> JsonResponse | None:
    """Daraja's answer to an invalid BusinessShortCode (not this app's), Timestamp or Password
    (made with another passkey: "Wrong credentials", as Daraja words it), or None."""
    shortcode, stamp = str(body.get("BusinessShortCode", "")), str(body.get("Timestamp", ""))
    if shortcode != app.shortcode:
        return bad_request("BusinessShortCode")
    try:
        sent_at = datetime.strptime(stamp, "%Y%m%d%H%M%S").replace(tzinfo=NAIROBI)
    except ValueError:
        return bad_request("Timestamp")
    if abs(timezone.now() - sent_at) > TIMESTAMP_TOLERANCE:
        return bad_request("Timestamp")
    expected = base64.b64encode(f"{shortcode}{app.passkey}{stamp}".encode()).decode()
    if not constant_time_compare(str(body.get("Password", "")), expected):
        return daraja_error(500, "500.001.1001", "Wrong credentials")
    return None


@csrf_exempt
@require_GET
def oauth_generate(request: HttpRequest) -> JsonResponse:
    if request.GET.get("grant_type") != "client_credentials":
        return daraja_error(400, "400.008.02", "Invalid grant type passed")
    scheme, _, encoded = request.headers.get("Authorization", "").partition(" ")
    try:
        key, _, secret = base64.b64decode(encoded, validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        key = secret = ""
    app = app_by_key(key)
    valid = app is not None and constant_time_compare(secret, app.consumer_secret)
    if scheme != "Basic" or not valid:
        return daraja_error(400, "400.008.01", "Invalid Authentication passed")
    token = signing.dumps({"key": key, "nonce": secrets.token_hex(4)}, salt=TOKEN_SALT)
    return JsonResponse({"access_token": token, "expires_in": str(TOKEN_LIFETIME_SECONDS)})


def shortcode_request(request: HttpRequest) -> tuple[SimulatedDarajaApp, dict[str, Any]] | JsonResponse:
    """The app and body of a request about a shortcode (URL or Pull registration, Pull query), or
    Daraja's refusal: no valid token, no JSON, or a ShortCode that is not the token's app's."""
    if (app := token_app(request)) is None:
        return invalid_token()
    body = json_body(request)
    if body is None:
        return bad_request("Body")
    if str(body.get("ShortCode", "")) != app.shortcode:
        return bad_request("ShortCode")
    return app, body


def url_problem(url: Any) -> bool:
    text = str(url or "")
    return not re.match(r"^https?://[^\s]+$", text) or any(word in text.lower() for word in FORBIDDEN_URL_WORDS)
