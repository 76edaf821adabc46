"""Connected M-Pesa: an organization's own Daraja app on its paybill or till."""

from collections.abc import Callable, Collection
from datetime import timedelta
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from collection_accounts.services import collection_account_mpesa_connected_mark
from common import encryption
from common.errors import FieldValidationError, NotFoundError, ServiceError
from organizations.approvals import change_kind
from organizations.models import ChangeRequest, ChangeRequestStatus
from organizations.services import change_request_payload_set, change_request_submit
from payments import selectors
from payments.models import AirtelConnection, MpesaConnection
from payments.providers import ProviderError, daraja
from payments.services.core import T, _daraja_for, logger

# Connected M-Pesa: an organization's own Daraja app on its paybill or till -----------------------

PULL_EVERY = timedelta(minutes=10)
# Pull Transactions keeps 48 hours; asking for a minute less keeps clock differences from refusing it.
PULL_LOOKBACK = daraja.PULL_WINDOW - timedelta(minutes=1)


def _connection_of(account: CollectionAccount, *, lock: bool = True) -> MpesaConnection:
    connections = MpesaConnection.objects.select_for_update() if lock else MpesaConnection.objects
    connection = connections.filter(account=account).first()
    if connection is None:
        raise ServiceError(
            _("Enter the Daraja consumer key and secret, the passkey and the nominated number first."),
            code="mpesa_not_set_up",
        )
    connection.account = account
    return connection


# Setting credentials and connecting go through the two-person rule (registered in
# ``PaymentsConfig.ready``). A pending request holds the new credentials encrypted like the stored
# ones (never in clear), and drops them once it applies.
MPESA_CREDENTIALS_SET = "mpesa.credentials_set"
MPESA_CONNECT = "mpesa.connect"
CREDENTIAL_FIELDS = ("consumer_key", "consumer_secret", "passkey", "nominated_number")

ConnectionChange = MpesaConnection | ChangeRequest
# An organization's own app at a provider, set under the two-person rule.
Connection = TypeVar("Connection", MpesaConnection, AirtelConnection)


def _account_words(payload: dict[str, Any]) -> str:
    kind = CollectionAccountKind(str(payload["kind"]))
    return f"{kind.label} {payload['number']}"


def _account_payload(account: CollectionAccount) -> dict[str, Any]:
    return {"account_id": account.pk, "kind": account.kind, "number": account.number}


def _submit(*, user: User, account: CollectionAccount, kind: str, payload: dict[str, Any]) -> ChangeRequest:
    summary = change_kind(kind).describe(ChangeRequest(kind=kind, payload=payload))
    return change_request_submit(
        user=user, organization=account.organization, kind=kind, payload=payload, summary=summary
    )


@transaction.atomic
def mpesa_connection_save(
    *,
    user: User,
    organization_id: int,
    account_id: int,
    consumer_key: str,
    consumer_secret: str,
    passkey: str,
    nominated_number: str,
) -> ConnectionChange:
    """Ask to set or replace the Daraja credentials of a paybill or till, under the two-person rule:
    answers the pending ``ChangeRequest``, or the connection once set. A blank field keeps what is
    stored (nothing can be read back, so a form never holds it); a new connection needs every one.
    Audited by field name only: never a value."""
    account = selectors.mpesa_account_for_manager(
        user=user, organization_id=organization_id, account_id=account_id, lock=True
    )
    number = nominated_number.strip()
    errors: dict[str, str] = {}
    if number:
        if message := validators.check_kenyan_phone(number):
            errors["nominated_number"] = message
        else:
            number = validators.normalize_kenyan_phone(number)
    return _credentials_save(
        user=user,
        account=account,
        model=MpesaConnection,
        kind=MPESA_CREDENTIALS_SET,
        values={
            "consumer_key": consumer_key,
            "consumer_secret": consumer_secret,
            "passkey": passkey,
            "nominated_number": number,
        },
        required=CREDENTIAL_FIELDS,
        errors=errors,
    )


def _credentials_save(
    *,
    user: User,
    account: CollectionAccount,
    model: type[Connection],
    kind: str,
    values: dict[str, str],
    required: Collection[str],
    errors: dict[str, str] | None = None,
) -> Connection | ChangeRequest:
    """Ask to set the credentials of ``account``'s connection (``values``, stripped; a blank one keeps what
    is stored) under the two-person rule, once they are valid: ``errors`` holds what the caller found
    wrong, and a new connection needs every ``required`` field. Answers the pending ``ChangeRequest``,
    or the connection once set."""
    values = {name: value.strip() for name, value in values.items()}
    errors = dict(errors or {})
    if not model.objects.filter(account=account).exists():
        errors.update({name: _("This field is required.") for name in required if not values[name]})
    if errors:
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    request = _credentials_submit(user=user, account=account, kind=kind, values=values)
    return _connection_or_pending(request, account=account, model=model)


def _requested_account(request: ChangeRequest, *, lock: bool = True) -> CollectionAccount:
    accounts = CollectionAccount.objects.select_for_update() if lock else CollectionAccount.objects
    account = accounts.filter(organization=request.organization, pk=int(request.payload["account_id"])).first()
    if account is None:
        raise NotFoundError(_("Account not found."), code="not_found")
    if account.number != request.payload["number"]:
        raise ServiceError(
            _("This account was changed since the request was made: please ask again."), code="account_changed"
        )
    return account


def _credentials_submit(
    *, user: User, account: CollectionAccount, kind: str, values: dict[str, str]
) -> ChangeRequest | None:
    """Ask to set the filled-in credentials of a connection (a blank one keeps what is stored), under the
    two-person rule: they travel encrypted in the request. None when nothing was filled in."""
    changed = sorted(name for name, value in values.items() if value)
    if not changed:
        return None
    return _submit(
        user=user,
        account=account,
        kind=kind,
        payload={
            **_account_payload(account),
            "fields": changed,
            "encrypted": {name: encryption.encrypt(values[name]) for name in changed},
        },
    )


def _connection_or_pending(
    request: ChangeRequest | None, *, account: CollectionAccount, model: type[Connection]
) -> Connection | ChangeRequest:
    """What a change to a connection answers: the request while it waits for a second person, else the
    connection as it stands."""
    if request is not None and request.status == ChangeRequestStatus.PENDING:
        return request
    connection = model.objects.get(account=account)
    connection.account = account
    return connection


def _credentials_store(
    request: ChangeRequest, *, model: type[Connection], required: Collection[str], missing: ServiceError
) -> CollectionAccount:
    """Apply an approved credentials request: store the values on the account's connection (a new one
    needs every ``required`` field, else ``missing`` is raised), keep in the request which fields it
    replaced, not even their ciphertext, and audit their names. The account, locked."""
    account = _requested_account(request)
    values = {name: encryption.decrypt(value) for name, value in request.payload["encrypted"].items()}
    connection = model.objects.select_for_update().filter(account=account).first()
    if connection is None:
        if not set(required) <= set(values):
            raise missing
        model.objects.create(account=account, **values)
    else:
        for name, value in values.items():
            setattr(connection, name, value)
        connection.save()
    request.payload = {name: value for name, value in request.payload.items() if name != "encrypted"}
    change_request_payload_set(request_id=request.pk, payload=request.payload)
    action = AuditAction.MPESA_CREDENTIALS_SET if model is MpesaConnection else AuditAction.AIRTEL_CREDENTIALS_SET
    audit_record(actor=request.decided_by, action=action, target=account, after={"replaced": request.payload["fields"]})
    return account


@transaction.atomic
def _credentials_reencrypt(kind: str) -> int:
    """Encrypt again with the first key the ``kind`` credentials requests still hold (those waiting for
    approval, or withdrawn or lapsed before it: an applied one holds none); the number of values
    rewritten."""
    rewritten = 0
    held = ChangeRequest.objects.select_for_update().filter(kind=kind, payload__has_key="encrypted")
    for request in held:
        encrypted = {name: encryption.reencrypt(value) for name, value in request.payload["encrypted"].items()}
        change_request_payload_set(request_id=request.pk, payload={**request.payload, "encrypted": encrypted})
        rewritten += len(encrypted)
    return rewritten


def _mpesa_credentials_apply(request: ChangeRequest) -> None:
    _credentials_store(
        request,
        model=MpesaConnection,
        required=CREDENTIAL_FIELDS,
        missing=ServiceError(
            _("Enter the Daraja consumer key and secret, the passkey and the nominated number first."),
            code="mpesa_not_set_up",
        ),
    )


def pending_credentials_reencrypt() -> int:
    """The M-Pesa credentials requests' values encrypted again (``manage.py rotate_secrets_key``, registered
    in ``PaymentsConfig.ready``)."""
    return _credentials_reencrypt(MPESA_CREDENTIALS_SET)


def _mpesa_credentials_describe(request: ChangeRequest) -> str:
    names = {
        "consumer_key": _("consumer key"),
        "consumer_secret": _("consumer secret"),
        "passkey": _("passkey"),
        "nominated_number": _("nominated number"),
    }
    return _("Set the M-Pesa API credentials of %(account)s (%(fields)s).") % {
        "account": _account_words(request.payload),
        "fields": ", ".join(str(names[name]) for name in request.payload["fields"]),
    }


def _daraja_refusal_error(exc: ProviderError, account: CollectionAccount) -> ServiceError:
    """Each way a connection fails, in words a treasurer can act on."""
    shortcode = account.mpesa_shortcode
    if isinstance(exc, daraja.CredentialsRefused):
        return ServiceError(
            _("M-Pesa refused the consumer key and secret. Copy both again from your app on the Daraja portal."),
            code="mpesa_wrong_credentials",
        )
    if isinstance(exc, daraja.ShortcodeRefused):
        return ServiceError(
            _(
                "M-Pesa does not let this Daraja app use %(shortcode)s. Check the number, and that the app is "
                "linked to it."
            )
            % {"shortcode": shortcode},
            code="mpesa_wrong_shortcode",
        )
    if isinstance(exc, daraja.PasskeyRefused):
        return ServiceError(
            _("The passkey does not match %(shortcode)s. Enter the Lipa Na M-Pesa passkey Safaricom sent for it.")
            % {"shortcode": shortcode},
            code="mpesa_wrong_passkey",
        )
    return ServiceError(
        _("M-Pesa could not be reached. Nothing was changed; please try again in a few minutes."),
        code="provider_unavailable",
    )


def _daraja_call(account: CollectionAccount, call: Callable[[], T]) -> T:
    try:
        return call()
    except ProviderError as exc:
        # The exception names the refusal, never a credential.
        logger.warning("M-Pesa connection of collection account %s failed: %s", account.pk, exc)
        raise _daraja_refusal_error(exc, account) from exc


def mpesa_connection_test(*, user: User, organization_id: int, account_id: int) -> MpesaConnection:
    """Fetch a token and check the shortcode and passkey with them; registers nothing."""
    with transaction.atomic():
        account = selectors.mpesa_account_for_manager(
            user=user, organization_id=organization_id, account_id=account_id, lock=True
        )
        connection = _connection_of(account)
    _daraja_call(account, _daraja_for(connection).check_shortcode)
    MpesaConnection.objects.filter(pk=connection.pk).update(last_tested_at=timezone.now())
    connection.refresh_from_db(fields=["last_tested_at"])
    return connection


def mpesa_connection_connect(
    *, user: User, organization_id: int, account_id: int, reregister: bool = False
) -> ConnectionChange:
    """Ask to register the account's confirmation and validation URLs and Pull Transactions with
    Daraja, under the two-person rule: once, again only when asked to (``reregister``, e.g. after a
    new callback address). Answers the pending ``ChangeRequest``, or the connection once registered
    (Daraja's refusal, in words a treasurer can act on, registers nothing). Daraja is asked outside
    any transaction (``_mpesa_connect_call``)."""
    with transaction.atomic():
        account = selectors.mpesa_account_for_manager(
            user=user, organization_id=organization_id, account_id=account_id, lock=True
        )
        _connection_ready(account=account, reregister=reregister)
    request = _submit(
        user=user, account=account, kind=MPESA_CONNECT, payload={**_account_payload(account), "reregister": reregister}
    )
    if request.status == ChangeRequestStatus.PENDING:
        return request
    connection = MpesaConnection.objects.get(account=account)
    connection.account = CollectionAccount.objects.get(pk=account.pk)
    return connection


def _connection_ready(*, account: CollectionAccount, reregister: bool, lock: bool = True) -> MpesaConnection:
    connection = _connection_of(account, lock=lock)
    if connection.c2b_registered_at and not reregister:
        raise ServiceError(
            _("This account is already connected. Choose Re-register to register its addresses again."),
            code="mpesa_already_connected",
        )
    if not connection.nominated_number:
        raise FieldValidationError(
            _("Please correct the errors below"),
            field_errors={"nominated_number": _("Pull Transactions needs the organization's Safaricom number.")},
        )
    return connection


def _mpesa_connect_call(request: ChangeRequest) -> dict[str, object]:
    """Register the addresses with Daraja, before the approval's transaction (nothing is locked
    while Daraja answers): a refusal leaves the request pending, with the reason shown to the one
    who approved. Registering again what is registered changes nothing at Daraja."""
    account = _requested_account(request, lock=False)
    connection = _connection_ready(account=account, reregister=bool(request.payload["reregister"]), lock=False)
    client = _daraja_for(connection)
    urls = selectors.mpesa_callback_urls(connection)
    _daraja_call(
        account,
        lambda: client.register_c2b_urls(
            confirmation_url=urls["c2b_confirmation"], validation_url=urls["c2b_validation"]
        ),
    )
    # Missed confirmations are what Pull recovers: it calls back to the confirmation URL too.
    _daraja_call(account, lambda: client.register_pull(callback_url=urls["c2b_confirmation"]))
    return {}


def _mpesa_connect_apply(request: ChangeRequest) -> None:
    """Record what ``_mpesa_connect_call`` registered, once the account is checked again, locked."""
    account = _requested_account(request)
    reregister = bool(request.payload["reregister"])
    connection = _connection_ready(account=account, reregister=reregister)
    now = timezone.now()
    MpesaConnection.objects.filter(pk=connection.pk).update(c2b_registered_at=now, pull_registered_at=now)
    collection_account_mpesa_connected_mark(account_id=account.pk, at=now)
    audit_record(
        actor=request.decided_by,
        action=AuditAction.MPESA_REREGISTERED if reregister else AuditAction.MPESA_CONNECTED,
        target=account,
        after={"shortcode": account.mpesa_shortcode},
    )


def _mpesa_connect_describe(request: ChangeRequest) -> str:
    account = _account_words(request.payload)
    if request.payload["reregister"]:
        return _("Register the M-Pesa addresses of %(account)s again.") % {"account": account}
    return _("Connect %(account)s to M-Pesa's API: its payments reach Harambee and PIN prompts go to it.") % {
        "account": account
    }
