"""Writes to the payments ledger: the only code that changes an amount or a status.

The flow: an intent (a pending ``Payment``) -> the provider (STK prompt or hosted checkout)
-> a callback, a webhook or our own query -> the ledger -> the purpose's effect. Each write
runs in one transaction with the payment row locked, and the effect (campaign activation,
subscription, the ``payment_succeeded`` receivers) runs inside that same transaction, so a
credit and its effect happen together exactly once. Calls to providers happen outside any
transaction: a slow provider never holds a lock.

Rules every callback path follows: success is never undone (a failure arriving after it is a
duplicate); a success after a failure or expiry still credits (the money moved); a success
for another amount is recorded and flagged, never credited; unknown ids change nothing.

The package's modules follow the ledger's parts: ``core`` (constants and the crediting primitives),
``intents``, ``stk``, ``c2b`` and ``card_payments`` (crediting what each channel reports), ``recording``
(hand entries, the desk, reversals), ``statements`` (the ledger's side of imports), ``stale`` (intents
nobody answered), ``connections`` and ``pull`` (an organization's own M-Pesa), ``cards`` (card
subaccounts) and ``standing_orders`` (M-Pesa Ratiba). Every public name is re-exported here:
``from payments.services import X`` is how callers write.
"""

from payments.services.attribution import ATTRIBUTION_FIELDS, payments_attribute, payments_attribute_where
from payments.services.c2b import payment_record_c2b_confirmation, payment_validate_c2b
from payments.services.card_payments import payment_confirm_card, payment_record_card_webhook
from payments.services.cards import (
    BANK_CODE,
    CARD_SUBACCOUNT_SET,
    MPESA_RATIBA_SET,
    PLATFORM_CARD_SHARE_PERCENT,
    AccountChange,
    card_subaccount_set,
)
from payments.services.connections import (
    CREDENTIAL_FIELDS,
    MPESA_CONNECT,
    MPESA_CREDENTIALS_SET,
    PULL_EVERY,
    PULL_LOOKBACK,
    ConnectionChange,
    mpesa_connection_connect,
    mpesa_connection_save,
    mpesa_connection_test,
    pending_credentials_reencrypt,
)
from payments.services.core import (
    BULK_BATCH_SIZE,
    C2B_INVALID_ACCOUNT,
    C2B_INVALID_AMOUNT,
    C2B_INVALID_SHORTCODE,
    EXPIRE_AFTER,
    GIVING_PURPOSES,
    QUERY_AFTER,
    QUERY_THROTTLE_SECONDS,
    REJECTED_BODY_HEAD_BYTES,
    STK_DESCRIPTIONS,
    STK_NO_ANSWER,
    UNANSWERED_PUSH_WINDOW,
    Outcome,
    Status,
    c2b_callback_urls,
    card_return_url,
    safe_return_path,
    stk_callback_url,
)
from payments.services.intents import (
    daraja_client_for,
    payment_checkout_start,
    payment_fee_checkout_start,
    payment_fee_stk_push_start,
    payment_instructed_intent_create,
    payment_stk_push_limit_enforce,
    payment_stk_push_start,
)
from payments.services.pull import mpesa_pull_due, mpesa_pull_now, mpesa_pull_run
from payments.services.recording import (
    MPESA_RECEIPT_PATTERN,
    RECEIVED_TIME,
    REVERSAL_REASON_MAX_LENGTH,
    mpesa_receipt_normalize,
    payment_record_at_desk,
    payment_record_manual,
    payment_reverse,
    payment_take_as_donation,
    payment_with_receipt_locked,
)
from payments.services.stale import (
    mpesa_c2b_urls_register,
    payment_expire_stale,
    payment_status_check,
    payments_personal_data_erase,
    payments_reconcile,
)
from payments.services.standing_orders import (
    mpesa_ratiba_set,
    register_payment_detail_change_kinds,
    standing_order_record,
    standing_order_record_callback,
    standing_order_send,
    standing_orders_phone_erase,
)
from payments.services.statements import (
    PROVIDER_REPORTS,
    STATEMENT_RECORD_ATTEMPTS,
    BankStatementPayment,
    StatementPayment,
    payments_record_from_bank_statement,
    payments_record_from_statement,
    payments_reverse_imported,
)
from payments.services.stk import payment_record_stk_callback, payment_record_stk_query_result, payment_stk_query

__all__ = [
    "ATTRIBUTION_FIELDS",
    "BANK_CODE",
    "BULK_BATCH_SIZE",
    "C2B_INVALID_ACCOUNT",
    "C2B_INVALID_AMOUNT",
    "C2B_INVALID_SHORTCODE",
    "CARD_SUBACCOUNT_SET",
    "CREDENTIAL_FIELDS",
    "EXPIRE_AFTER",
    "GIVING_PURPOSES",
    "MPESA_CONNECT",
    "MPESA_CREDENTIALS_SET",
    "MPESA_RATIBA_SET",
    "MPESA_RECEIPT_PATTERN",
    "PLATFORM_CARD_SHARE_PERCENT",
    "PROVIDER_REPORTS",
    "PULL_EVERY",
    "PULL_LOOKBACK",
    "QUERY_AFTER",
    "QUERY_THROTTLE_SECONDS",
    "RECEIVED_TIME",
    "REJECTED_BODY_HEAD_BYTES",
    "REVERSAL_REASON_MAX_LENGTH",
    "STATEMENT_RECORD_ATTEMPTS",
    "STK_DESCRIPTIONS",
    "STK_NO_ANSWER",
    "UNANSWERED_PUSH_WINDOW",
    "AccountChange",
    "BankStatementPayment",
    "ConnectionChange",
    "Outcome",
    "StatementPayment",
    "Status",
    "c2b_callback_urls",
    "card_return_url",
    "card_subaccount_set",
    "daraja_client_for",
    "mpesa_c2b_urls_register",
    "mpesa_connection_connect",
    "mpesa_connection_save",
    "mpesa_connection_test",
    "mpesa_pull_due",
    "mpesa_pull_now",
    "mpesa_pull_run",
    "mpesa_ratiba_set",
    "mpesa_receipt_normalize",
    "payment_checkout_start",
    "payment_confirm_card",
    "payment_expire_stale",
    "payment_fee_checkout_start",
    "payment_fee_stk_push_start",
    "payment_instructed_intent_create",
    "payment_record_at_desk",
    "payment_record_c2b_confirmation",
    "payment_record_card_webhook",
    "payment_record_manual",
    "payment_record_stk_callback",
    "payment_record_stk_query_result",
    "payment_reverse",
    "payment_status_check",
    "payment_stk_push_limit_enforce",
    "payment_stk_push_start",
    "payment_stk_query",
    "payment_take_as_donation",
    "payment_validate_c2b",
    "payment_with_receipt_locked",
    "payments_attribute",
    "payments_attribute_where",
    "payments_personal_data_erase",
    "payments_reconcile",
    "payments_record_from_bank_statement",
    "payments_record_from_statement",
    "payments_reverse_imported",
    "pending_credentials_reencrypt",
    "register_payment_detail_change_kinds",
    "safe_return_path",
    "standing_order_record",
    "standing_order_record_callback",
    "standing_order_send",
    "standing_orders_phone_erase",
    "stk_callback_url",
]
