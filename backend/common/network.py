"""Nothing waits on the network while it holds the database.

A call to a provider (Daraja, Paystack, Africa's Talking, the mail server) or to the page renderer
can take seconds. Made inside ``transaction.atomic`` it holds the transaction's locks all that time:
row locks on PostgreSQL, and on SQLite the whole database, so a simulator answering from this same
process (``make run``) cannot write until the call has timed out. The rule is: call, then record
what came back in a short transaction. Every adapter calls ``network_call_check`` just before it
goes out, so breaking the rule fails at once outside production (and is logged in production,
where failing the request would not undo the call).
"""

import logging
import threading

from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)


class NetworkCallInTransaction(RuntimeError):
    """A programming error: a network call was made inside a database transaction."""


def _holds_transaction() -> bool:
    """Whether this thread is inside ``transaction.atomic`` on any database.

    Two kinds of block are not the code's own: the ones Django's TestCase wraps each test in
    (``_from_testcase``), and, where tests share one in-memory SQLite connection between the test
    and the live server's threads, blocks another thread opened (``opened_in_thread``, set by the
    tests' conftest.py; production never shares a connection between threads)."""
    this_thread = threading.get_ident()
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            continue
        for block in connection.atomic_blocks:
            if getattr(block, "_from_testcase", False):
                continue
            if getattr(block, "opened_in_thread", this_thread) == this_thread:
                return True
    return False


def network_call_check(what: str) -> None:
    """Refuse to call ``what`` (e.g. "Daraja /mpesa/c2b/v2/registerurl") from inside a transaction."""
    if not _holds_transaction():
        return
    message = f"{what} was called inside a database transaction: call first, then record in a short one."
    if settings.IS_PRODUCTION:
        logger.error(message, stack_info=True)
        return
    raise NetworkCallInTransaction(message)
