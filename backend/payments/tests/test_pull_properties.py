"""A confirmation Safaricom never delivered is credited by Pull Transactions exactly once, however
often Pull runs and whichever order it and late confirmations of the same payments arrive in."""

from datetime import UTC, datetime
from typing import Any
from unittest import mock

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import connected_paybill
from payments import services
from payments.models import MpesaConnection, Payment, PaymentEvent
from payments.providers.daraja import DarajaClient, PulledTransaction
from pledges.models import Pledge
from pledges.tests.factories import make_pledge

pytestmark = pytest.mark.django_db

PAYMENTS = [("SLK0000001", 300), ("SLK0000002", 450), ("SLK0000003", 125)]
steps = st.lists(
    st.one_of(
        st.tuples(st.just("pay"), st.integers(0, len(PAYMENTS) - 1)),
        st.tuples(st.just("confirm"), st.integers(0, len(PAYMENTS) - 1)),
        st.tuples(st.just("pull"), st.just(0)),
    ),
    max_size=14,
)


@pytest.fixture
def church() -> tuple[MpesaConnection, Pledge]:
    campaign = CampaignFactory.create()
    account = connected_paybill(campaign.organization)
    connection = MpesaConnection.objects.create(
        account=account, consumer_key="k", consumer_secret="s", passkey="p", nominated_number="+254722000111"
    )
    return connection, make_pledge(campaign, amount=5000)


def confirmation(receipt: str, amount: int, code: str) -> dict[str, Any]:
    return {
        "TransactionType": "Pay Bill",
        "TransID": receipt,
        "TransTime": "20261124103000",
        "TransAmount": f"{amount}.00",
        "BusinessShortCode": "600100",
        "BillRefNumber": code,
        "MSISDN": "2547 ***** 149",
        "FirstName": "Njeri",
    }


@hypothesis_settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps)
def test_each_payment_is_credited_once_whatever_the_order_of_pulls_and_late_confirmations(church, steps):
    connection, pledge = church
    paid: list[int] = []  # what M-Pesa lists: payments made so far, their confirmations lost or late

    def pull_transactions(self: DarajaClient, **period: Any) -> list[PulledTransaction]:
        return [
            PulledTransaction(
                trans_id=PAYMENTS[i][0],
                trans_time=datetime(2026, 11, 24, 7, 30, tzinfo=UTC),
                amount=PAYMENTS[i][1],
                shortcode="600100",
                bill_ref_number=pledge.code,
                msisdn="2547 ***** 149",
                transaction_type="c2b-pay-bill-debit",
            )
            for i in paid
        ]

    with transaction.atomic(), mock.patch.object(DarajaClient, "pull_transactions", pull_transactions):
        for action, i in steps:
            if action == "pay" and i not in paid:
                paid.append(i)
            elif action == "confirm" and i in paid:
                receipt, amount = PAYMENTS[i]
                services.payment_record_c2b_confirmation(
                    body=confirmation(receipt, amount, pledge.code), remote_addr="127.0.0.1", connection=connection
                )
            elif action == "pull":
                services.mpesa_pull_run(connection=connection)
        services.mpesa_pull_run(connection=connection)  # the next scheduled run, after everything

        receipts = [PAYMENTS[i][0] for i in paid]
        credited = PaymentEvent.objects.filter(outcome=PaymentEvent.Outcome.CREDITED)
        assert sorted(str(receipt) for receipt in credited.values_list("payment__mpesa_receipt", flat=True)) == sorted(
            receipts
        )
        assert Payment.objects.filter(mpesa_receipt__in=receipts).count() == len(receipts)
        pledge.refresh_from_db()
        assert pledge.paid_amount == sum(PAYMENTS[i][1] for i in paid)
        transaction.set_rollback(True)
