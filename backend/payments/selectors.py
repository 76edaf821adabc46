from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from collection_accounts.models import MPESA_KINDS, CollectionAccount, CollectionAccountKind
from common.errors import NotFoundError, PermissionDeniedError, ServiceError
from organizations.roles import Permission
from organizations.selectors import membership_of
from payments.models import AirtelConnection, MpesaConnection, MpesaStandingOrder, Payment, Subscription


def payment_get_for_viewer(*, reference: str, user: User | None) -> Payment:
    """A payment made by a signed-in user is theirs alone; an anonymous one, anyone's who holds
    its reference (it is unguessable). Anything else is answered as not found."""
    payment = Payment.objects.filter(reference=reference.strip().upper()).first()
    if payment is None or (payment.user_id is not None and (user is None or payment.user_id != user.pk)):
        raise NotFoundError(_("Payment not found."), code="not_found")
    return payment


def payments_awaiting_outcome(*, older_than: timedelta) -> QuerySet[Payment]:
    """Pending STK and card intents old enough that their callback may never come."""
    return Payment.objects.filter(
        status=Payment.Status.PENDING,
        flagged=False,
        created_at__lt=timezone.now() - older_than,
        provider__in=[Payment.Provider.MPESA_STK, Payment.Provider.CARD, Payment.Provider.AIRTEL],
    ).exclude(provider=Payment.Provider.MPESA_STK, checkout_request_id__isnull=True)


# A PIN prompt is paid within a day of being sent (see ``services.UNANSWERED_PUSH_WINDOW``); clocks differ by
# a few minutes at most.
PROMPT_PAID_WITHIN = timedelta(days=1)
CLOCK_SKEW = timedelta(minutes=5)


@dataclass(frozen=True)
class ReceiptReport:
    """A report of money paid into an account with its M-Pesa receipt: a paybill confirmation, a Pull
    Transactions line or a statement row."""

    mpesa_receipt: str
    amount: int
    account_reference: str
    paid_at: datetime


def prompts_awaiting_receipts(
    *, account_id: int, reports: list[ReceiptReport], lock: bool = False
) -> dict[str, Payment]:
    """The PIN-prompt payments into the account that these reports are (by receipt): succeeded without a
    receipt (Daraja's query confirmed them and no callback told the receipt), of the report's amount and
    account reference, paid within a day of the prompt. Each prompt is one report's, the earliest
    prompt first, so two equal prompts take two equal reports. One query; ``lock`` locks the prompts."""
    if not reports:
        return {}
    times = [report.paid_at for report in reports]
    waiting = Payment.objects.filter(
        provider=Payment.Provider.MPESA_STK,
        collection_account_id=account_id,
        status=Payment.Status.SUCCEEDED,
        mpesa_receipt__isnull=True,
        reversed_at__isnull=True,
        created_at__range=(min(times) - PROMPT_PAID_WITHIN, max(times) + CLOCK_SKEW),
    ).order_by("created_at", "pk")
    free = list(waiting.select_for_update(of=("self",)) if lock else waiting)
    found: dict[str, Payment] = {}
    for report in sorted(reports, key=lambda report: report.paid_at):
        reference = report.account_reference.strip().upper()
        for payment in free:
            if (
                payment.amount == report.amount
                and (payment.account_reference or payment.reference).upper() == reference
                and payment.created_at - CLOCK_SKEW <= report.paid_at <= payment.created_at + PROMPT_PAID_WITHIN
            ):
                found[report.mpesa_receipt] = payment
                free.remove(payment)
                break
    return found


def user_has_paid(*, user: User) -> bool:
    """A subscriber: a paid subscription period covers the present moment."""
    now = timezone.now()
    return Subscription.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).exists()


def payment_status_for_email(*, user: User, email: str) -> dict[str, bool]:
    """``GET /api/organizations?action=payment-status``: only ever about the signed-in user."""
    if User.normalize_email_address(email) != User.normalize_email_address(user.email):
        raise PermissionDeniedError(_("You can only check your own payment status."), code="forbidden")
    return {"has_paid": user_has_paid(user=user)}


def payments_made_by(*, user: User) -> QuerySet[Payment]:
    """Payments made while signed in, and those credited to the user's pledges (a paybill payment
    with the pledge code may come from someone else's phone: see ``payments_personal_data_export``).
    A user's pledges are those made signed in (``pledges.selectors.pledges_made_by``)."""
    return Payment.objects.filter(Q(user=user) | Q(pledge_link__pledge__user=user))


def payments_personal_data_export(*, user: User) -> dict[str, object]:
    """The user's payments and subscriptions, for their download (``privacy``). A payment credited
    to one of their pledges from someone else's phone is listed without that payer's number and
    address."""
    payments = list(payments_made_by(user=user).distinct().order_by("created_at", "id"))
    for payment in payments:
        if payment.user_id != user.pk:
            payment.payer_phone = payment.payer_email = ""  # for the download only; never saved
    return {
        "payments": payments,
        "subscriptions": list(
            Subscription.objects.filter(user=user).select_related("payment").order_by("starts_at", "id")
        ),
    }


# Connected M-Pesa -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _PaymentDetails:
    """Payment details a manager sets up on an account (card payments, an M-Pesa or an Airtel Money
    connection): the kinds of account that take them, and the words refusing a member who may not set
    them up (403) and an account of another kind (400, ``wrong_kind_code``)."""

    kinds: Collection[str]
    refusal: Promise
    wrong_kind: Promise
    wrong_kind_code: str


_CARD_PAYMENTS = _PaymentDetails(
    (CollectionAccountKind.BANK,),
    gettext_lazy("Only the organization's owners and treasurers can set up card payments."),
    gettext_lazy("Card payments settle to a bank account: choose one."),
    "not_bank_account",
)
_MPESA_CONNECTION = _PaymentDetails(
    MPESA_KINDS,
    gettext_lazy("Only the organization's owners and treasurers can connect its M-Pesa account."),
    gettext_lazy("Only an M-Pesa paybill or till can be connected."),
    "not_mpesa_account",
)
_AIRTEL_CONNECTION = _PaymentDetails(
    (CollectionAccountKind.AIRTEL_MONEY,),
    gettext_lazy("Only the organization's owners and treasurers can connect its Airtel Money account."),
    gettext_lazy("Only an Airtel Money account takes Airtel API credentials."),
    "not_airtel_account",
)


def _account_for_manager(
    details: _PaymentDetails, *, user: User, organization_id: int, account_id: int, lock: bool
) -> CollectionAccount:
    """The organization's account ``user`` may set ``details`` up on (with its organization): 404 for
    outsiders and unknown accounts, 403 for members who may not change payment details, 400 for an
    account of another kind."""
    membership = membership_of(user=user, organization_id=organization_id)
    if not membership.allows(Permission.MANAGE_PAYMENT_DETAILS):
        raise PermissionDeniedError(str(details.refusal), code="not_owner_or_treasurer")
    accounts = CollectionAccount.objects.select_for_update() if lock else CollectionAccount.objects.all()
    account = (
        accounts.filter(organization_id=organization_id, pk=account_id).first() if 1 <= account_id < 2**63 else None
    )
    if account is None:
        raise NotFoundError(_("Account not found."), code="not_found")
    if account.kind not in details.kinds:
        raise ServiceError(str(details.wrong_kind), code=details.wrong_kind_code)
    account.organization = membership.organization
    return account


def card_account_for_manager(*, user: User, organization_id: int, account_id: int) -> CollectionAccount:
    """The bank account ``user`` may set card payments up on (cards settle to a bank): as
    ``_account_for_manager``."""
    return _account_for_manager(
        _CARD_PAYMENTS, user=user, organization_id=organization_id, account_id=account_id, lock=False
    )


def mpesa_account_for_manager(
    *, user: User, organization_id: int, account_id: int, lock: bool = False
) -> CollectionAccount:
    """The paybill or till ``user`` may connect (locked with ``lock``): as ``_account_for_manager``, M-Pesa's
    API serving no bank, cash or bank's collection paybill."""
    return _account_for_manager(
        _MPESA_CONNECTION, user=user, organization_id=organization_id, account_id=account_id, lock=lock
    )


def mpesa_callback_urls(connection: MpesaConnection) -> dict[str, str]:
    """The account's own callback URLs, told apart from the platform's and every other's by its token."""
    base, token = settings.MPESA_CALLBACK_BASE_URL, connection.callback_token
    return {
        name: base + reverse(f"api:payments_{name}", kwargs={"token": token})
        for name in ("c2b_confirmation", "c2b_validation", "stk_callback")
    }


def standing_order_connection(account: CollectionAccount | None) -> MpesaConnection | None:
    """The connection that takes standing orders to ``account``: a connected paybill whose Ratiba
    setting is on; None otherwise."""
    if account is None or account.kind != CollectionAccountKind.PAYBILL or not account.offers_stk_push:
        return None
    connection = MpesaConnection.objects.filter(account=account, ratiba_enabled=True).first()
    if connection is not None:
        connection.account = account
    return connection


def standing_order_callback_url(*, connection: MpesaConnection, order: MpesaStandingOrder) -> str:
    """Where Ratiba posts the payer's answer to ``order``: the account's token, then the order."""
    path = reverse(
        "api:payments_standing_order_callback",
        kwargs={"token": connection.callback_token, "reference": order.reference},
    )
    return settings.MPESA_CALLBACK_BASE_URL + path


def mpesa_connection_status(*, account: CollectionAccount, connection: MpesaConnection | None) -> dict[str, Any]:
    """What a treasurer sees of a connection: whether each secret is set, never the secret."""
    urls = mpesa_callback_urls(connection) if connection else {}
    return {
        "account_id": account.pk,
        "shortcode": account.mpesa_shortcode,
        "connected_at": account.mpesa_connected_at,
        "has_consumer_key": bool(connection and connection.consumer_key),
        "has_consumer_secret": bool(connection and connection.consumer_secret),
        "has_passkey": bool(connection and connection.passkey),
        "nominated_number": connection.nominated_number if connection else "",
        "c2b_registered_at": connection.c2b_registered_at if connection else None,
        "pull_registered_at": connection.pull_registered_at if connection else None,
        "last_tested_at": connection.last_tested_at if connection else None,
        "last_pulled_at": connection.last_pulled_at if connection else None,
        "confirmation_url": urls.get("c2b_confirmation", ""),
        "validation_url": urls.get("c2b_validation", ""),
        "ratiba_enabled": bool(connection and connection.ratiba_enabled),
    }


def mpesa_connection_for_manager(*, user: User, organization_id: int, account_id: int) -> dict[str, Any]:
    account = mpesa_account_for_manager(user=user, organization_id=organization_id, account_id=account_id)
    return mpesa_connection_status(account=account, connection=MpesaConnection.objects.filter(account=account).first())


def mpesa_connection_for_token(token: str) -> MpesaConnection | None:
    """The connected account a callback URL's token names, or None."""
    if not token or len(token) > 64:
        return None
    return MpesaConnection.objects.select_related("account").filter(callback_token=token).first()


# Airtel Money ------------------------------------------------------------------------------------


def airtel_account_for_manager(
    *, user: User, organization_id: int, account_id: int, lock: bool = False
) -> CollectionAccount:
    """The Airtel Money account ``user`` may set API credentials on: as ``_account_for_manager``."""
    return _account_for_manager(
        _AIRTEL_CONNECTION, user=user, organization_id=organization_id, account_id=account_id, lock=lock
    )


def airtel_connection_for_token(token: str) -> AirtelConnection | None:
    """The connection whose callback URL carries ``token`` (None for any other)."""
    if not token or len(token) > 64:
        return None
    return AirtelConnection.objects.select_related("account").filter(callback_token=token).first()


def airtel_callback_url(connection: AirtelConnection) -> str:
    """The URL the treasurer enters as the app's callback URL in Airtel's portal."""
    return settings.SITE_URL + reverse("api:payments_airtel_callback", kwargs={"token": connection.callback_token})


def airtel_connection_status(*, account: CollectionAccount, connection: AirtelConnection | None) -> dict[str, Any]:
    """What a manager sees of an Airtel connection: never a secret, only whether each is set."""
    return {
        "account": account,
        "credentials_set": connection is not None,
        "callback_signed": bool(connection and connection.callback_key),
        "callback_url": airtel_callback_url(connection) if connection else "",
        "connected_at": account.airtel_connected_at,
    }


def airtel_connection_for_manager(*, user: User, organization_id: int, account_id: int) -> dict[str, Any]:
    account = airtel_account_for_manager(user=user, organization_id=organization_id, account_id=account_id)
    connection = AirtelConnection.objects.filter(account=account).first()
    return airtel_connection_status(account=account, connection=connection)
