"""Callbacks delivered at once, through the HTTP endpoint of a live server (PostgreSQL only:
SQLite serialises every write and cannot show what the row locks do)."""

import random
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from django.db import connection
from django.db.models import Sum

from payments.models import Payment, PaymentEvent
from payments.tests.support import pending_stk_intent, stk_callback

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (row locks and concurrent writers); CI runs it with DATABASE_URL set",
    ),
]


def test_parallel_callbacks_credit_every_intent_exactly_once(providers):
    intents = [pending_stk_intent(amount=100 + n, checkout_request_id=f"ws_CO_PARALLEL{n:03d}") for n in range(50)]
    bodies = [stk_callback(f"ws_CO_PARALLEL{n:03d}", amount=100 + n, receipt=f"SLKP{n:06d}") for n in range(50)]
    bodies += [bodies[0]] * 20  # one callback delivered 21 times in all
    random.Random(4).shuffle(bodies)  # noqa: S311 - a fixed order to reproduce, not a secret
    url = f"{providers.url}/api/payments/callbacks/stk/local-callback-token"

    with httpx.Client(timeout=30) as daraja, ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(lambda body: daraja.post(url, json=body), bodies))

    assert {answer.status_code for answer in answers} == {200}
    assert Payment.objects.filter(status=Payment.Status.SUCCEEDED).count() == 50
    assert Payment.objects.filter(receipt_number__isnull=False).count() == 50
    events = PaymentEvent.objects.filter(kind=PaymentEvent.Kind.STK_CALLBACK)
    assert events.filter(outcome=PaymentEvent.Outcome.CREDITED).count() == 50
    assert events.filter(outcome=PaymentEvent.Outcome.DUPLICATE).count() == 20
    assert events.filter(outcome=PaymentEvent.Outcome.CREDITED).values("payment").distinct().count() == 50
    ledger_total = Payment.objects.filter(status=Payment.Status.SUCCEEDED).aggregate(total=Sum("amount"))["total"]
    assert ledger_total == sum(intent.amount for intent in intents)
