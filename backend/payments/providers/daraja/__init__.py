"""Safaricom's Daraja API (M-Pesa) over HTTP.

Covers what the ledger needs: the OAuth client-credentials token, STK Push (the payer gets
a PIN prompt), the STK Push query (for prompts whose callback never came), C2B URL
registration (people paying the paybill themselves), Pull Transactions, Ratiba standing orders,
and typed parsing of the bodies Daraja posts to our callback URLs. Daraja signs nothing; the
callers check every callback against the intent we created.

``client`` sends (the credentials, the refusals and ``DarajaClient``); ``messages`` types and parses
what comes back. Every public name is re-exported here: ``from payments.providers.daraja import X``
is how callers write.
"""

from payments.providers.daraja.client import (
    PAYBILL,
    PULL_WINDOW,
    TILL,
    CredentialsRefused,
    DarajaClient,
    DarajaCredentials,
    PasskeyRefused,
    ShortcodeRefused,
)
from payments.providers.daraja.messages import (
    RESULT_CANCELLED_BY_USER,
    C2BNotification,
    PulledTransaction,
    StandingOrderResult,
    StandingOrderTerms,
    StkPushAccepted,
    StkQueryAnswer,
    StkResult,
    parse_c2b_notification,
    parse_standing_order_callback,
    parse_stk_callback,
    password,
    timestamp,
)

__all__ = [
    "PAYBILL",
    "PULL_WINDOW",
    "RESULT_CANCELLED_BY_USER",
    "TILL",
    "C2BNotification",
    "CredentialsRefused",
    "DarajaClient",
    "DarajaCredentials",
    "PasskeyRefused",
    "PulledTransaction",
    "ShortcodeRefused",
    "StandingOrderResult",
    "StandingOrderTerms",
    "StkPushAccepted",
    "StkQueryAnswer",
    "StkResult",
    "parse_c2b_notification",
    "parse_standing_order_callback",
    "parse_stk_callback",
    "password",
    "timestamp",
]
