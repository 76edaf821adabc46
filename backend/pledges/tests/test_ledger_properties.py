"""The ledger invariant, for any sequence of pledges, payments and provider callbacks.

A Hypothesis state machine drives the real services: pledges; STK Pushes for pledges and
donations; card checkouts; paybill (C2B) confirmations to a pledge code, a typo of one or nobody's
account, often delivered twice; cash payments and confirmations by the organizer; assignments of
unmatched payments by the organizer or an admin; STK callbacks and queries (successes, failures,
cancellations and wrong amounts, repeated and in any order); card verifications and webhooks;
donation rows recorded after their payment's callback; expiry of stale intents (a late success
still credits); and the corrections: amounts changed, pledges cancelled (their payments moved to
another pledge or kept as gifts) and restored, M-Pesa receipts entered by hand from the same pool
as the paybill's (one receipt, one credit), backdated entries, reversing entries, and pledge
ceilings changed under the pledgers' feet; instalment plans set by the pledger or a treasurer; entries typed at an event's desk (pledge
cards, with a plan or not; cash gifts; M-Pesa gifts whose receipts come from the paybill's pool, so
typed before or after their confirmation or twice), their idempotency keys from a small pool so
that deliveries repeat; statements imported (their receipts from the paybill's pool, so often already credited, or imported
twice), bank statements imported (references from a small pool, so often overlapping) and whole
imports undone; and the seams between reporters of one payment (#44): PIN prompts whose callback nobody
vouched for, confirmed by query, then listed by Pull Transactions and on the statement with their receipt; a
second organization whose paybill confirms receipts from the same pool (the same receipt there is another
payment); a statement imported, undone and imported again. After every step every campaign's counters must add
up to its counted payments and live pledges, every pledge's status must follow from its amount
and payments, and no payment may count twice; every plan must add up to its pledge, and its
standing must follow from the payments counted in order; a desk entry's key answers its first
entry, and no two desk gifts credit one payment; each real payment credits once whichever reporters
tell of it, undo restores the books as they were, and importing again credits what the first import did.

Only the providers' side is replaced: the STK Push and checkout answers, and what Paystack says
about a transaction.
"""

import hashlib
import hmac
import json
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from datetime import date, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, Sum
from django.utils import timezone
from hypothesis import HealthCheck, event
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, multiple, rule, run_state_machine_as_test

from accounts.tests.factories import UserFactory
from campaigns.models import Campaign
from campaigns.selectors import campaign_card_account, campaign_stk_account
from campaigns.services import campaign_update
from campaigns.tests.factories import CampaignFactory
from collection_accounts.models import CollectionAccount
from collection_accounts.tests.factories import TEST_PAYBILL, connected_paybill
from common.errors import ServiceError
from desk import services as desk
from desk.actors import DeskActor
from desk.models import DeskEntry
from events.tests.factories import open_event
from payments import services as payments
from payments.models import MANUAL_PROVIDERS, MpesaConnection, Payment, PaymentEvent, PaymentReversal
from payments.providers import daraja, paystack
from payments.providers.daraja import DarajaClient, PulledTransaction, StkPushAccepted, StkQueryAnswer, StkResult
from payments.providers.paystack import PaystackClient
from payments.tests.support import stk_callback
from pledges import services as pledges
from pledges.instalments import PlanTerms, Standing
from pledges.models import Donation, InstalmentPlan, Pledge, PledgeChannel, PledgePayment
from simulators.statements import BankLine, Line, bank_statement_csv, statement_csv
from statements import services as statements
from statements.models import ImportedPayment, StatementImport
from statements.parsing import BankColumns

SUCCEEDED = Payment.Status.SUCCEEDED
CAMPAIGNS = 2
NO_LIMIT = (1_000_000, 600)

amounts = st.integers(min_value=1, max_value=5_000)
campaign_index = st.integers(min_value=0, max_value=CAMPAIGNS - 1)


def prompt_receipt(payment: Payment) -> str:
    """The M-Pesa receipt of a PIN prompt's payment, as its callback, Pull and the statement tell it."""
    return f"SLK{payment.pk:07d}"


def typo(code: str) -> str:
    return code[:3] + ("Z" if code[3] != "Z" else "Y") + code[4:]


def statement_lines(*, receipts: int) -> st.SearchStrategy[list[tuple[int, int, str]]]:
    """One to four lines of a statement: which of ``receipts`` receipts (or references) each is, its
    amount, and whom it pays (``paid_to``)."""
    return st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=receipts - 1), amounts, st.sampled_from(["code", "typo", "nobody"])
        ),
        min_size=1,
        max_size=4,
    )


def paid_to(pledge: Pledge, whom: str) -> str:
    """A statement line's account: the pledge's code, a typo of it, or nobody's."""
    return {"code": pledge.code, "typo": typo(pledge.code), "nobody": "BUILDING"}[whom]


def paybill_statement_rows(pledge: Pledge, lines: list[tuple[int, int, str]], *, at: datetime) -> list[Line]:
    """The paybill statement's rows of ``lines``, their receipts from the paybill's pool (one receipt, one credit)."""
    return [
        Line(f"SLKC2B{trans:04d}", at, amount, account_number=paid_to(pledge, whom)) for trans, amount, whom in lines
    ]


@contextmanager
def refusable(operation: str) -> Iterator[None]:
    """A refusal (fully paid, already assigned...) is a valid answer; the invariant checks it changed nothing."""
    try:
        yield
    except ServiceError as refusal:
        event(f"{operation} refused: {refusal.code}")


class Ledger(RuleBasedStateMachine):
    pledges = Bundle("pledges")
    stk_intents = Bundle("stk_intents")
    card_intents = Bundle("card_intents")

    def __init__(self) -> None:
        super().__init__()
        # Each run in a savepoint of the test's transaction, rolled back in teardown.
        self.cleanup = ExitStack()
        self.cleanup.enter_context(transaction.atomic())
        self.cleanup.callback(transaction.set_rollback, True)
        self.cleanup.enter_context(mock.patch.object(DarajaClient, "stk_push", side_effect=self.daraja_stk_push))
        self.cleanup.enter_context(
            mock.patch.object(PaystackClient, "initialize", side_effect=self.paystack_initialize)
        )
        self.cleanup.enter_context(mock.patch.object(PaystackClient, "verify", side_effect=self.paystack_verify))
        self.organizer = UserFactory.create()
        self.admin = UserFactory.create(is_staff=True, is_superuser=True)
        # One church, its campaigns all paid into its connected paybill.
        self.campaigns = [
            CampaignFactory.create(
                organizer=self.organizer, paybill=TEST_PAYBILL, cards=True, instalments_past_end=c == 0
            )
            for c in range(CAMPAIGNS)
        ]
        self.connection = MpesaConnection.objects.get(account__paybill_number=TEST_PAYBILL)
        # Another church, on another paybill: its receipts come from the same pool (one of the two mistyped).
        other = CampaignFactory.create(organizer=UserFactory.create())
        self.other_connection = MpesaConnection.objects.get(account=connected_paybill(other.organization, "600900"))
        self.unattached: list[tuple[Payment, Campaign]] = []
        self.paystack_says: dict[str, tuple[str, int]] = {}  # reference -> (status, amount in subunits)
        self.pushes = 0
        self.receipts: dict[int, str | None] = {}  # payment id -> receipt number, from its first success on
        # The church's bank account, and how often each (day, amount, reference) stood on one bank statement.
        self.bank = self.campaigns[0].organization.collection_accounts.create(
            kind="bank", bank_name="KCB", account_name="Church", account_number="1100223344"
        )
        self.bank_rows_most: Counter[tuple[date, int, str]] = Counter()
        # Tonight's event of each campaign, its desk kept by the organizer; each key's first entry.
        self.events = [open_event(campaign) for campaign in self.campaigns]
        self.desk_entries: dict[str, int] = {}

    def teardown(self) -> None:
        try:
            # Every donation row is recorded in the end, whatever came first.
            while self.unattached:
                self.attach_donation(0)
            self.ledger_adds_up()
        finally:
            self.cleanup.close()

    # The providers' side --------------------------------------------------------------------

    def daraja_stk_push(self, **kwargs: Any) -> StkPushAccepted:
        self.pushes += 1
        return StkPushAccepted(
            merchant_request_id=f"mr-{self.pushes}", checkout_request_id=f"ws_CO_{self.pushes}", customer_message="OK"
        )

    def paystack_initialize(self, *, reference: str, **kwargs: Any) -> paystack.Checkout:
        return paystack.Checkout(
            authorization_url=f"https://checkout.test/{reference}", access_code="x", reference=reference
        )

    def paystack_verify(self, reference: str) -> paystack.Transaction:
        payment = Payment.objects.get(reference=reference)
        status, subunits = self.paystack_says.get(reference, ("abandoned", payment.amount * 100))
        return paystack.Transaction(
            body={"reference": reference, "status": status},
            reference=reference,
            status=status,
            amount_subunit=subunits,
            currency="KES",
            transaction_id=f"tx-{payment.pk}",
            gateway_response=status,
        )

    # Pledges and intents --------------------------------------------------------------------

    @rule(target=pledges, c=campaign_index, amount=amounts, channel=st.sampled_from(["web", "signed_in", "ussd"]))
    def pledge(self, c: int, amount: int, channel: str) -> Any:
        with refusable("pledge"):  # above the campaign's largest pledge
            if channel == "ussd":  # the phone channel: the number the network gave, nothing else
                return pledges.pledge_create_by_phone(
                    campaign_id=self.campaigns[c].pk,
                    amount=amount,
                    phone="0711000345",
                    is_anonymous=False,
                    channel=PledgeChannel.USSD,
                )
            return pledges.pledge_create(
                campaign_id=self.campaigns[c].pk,
                amount=amount,
                name="Njeri Wanjiru",
                email="njeri@example.com",
                phone="0711000222",
                is_anonymous=False,
                viewer=self.organizer if channel == "signed_in" else None,
                client_ip="203.0.113.9",
            )
        return multiple()

    @rule(target=stk_intents, pledge=pledges, amount=st.none() | amounts)
    def stk_push_for_pledge(self, pledge: Pledge, amount: int | None) -> Any:
        with refusable("stk_push_for_pledge"):
            return pledges.pledge_stk_push_start(
                code=pledge.code,
                phone="",
                amount=amount,
                idempotency_key=f"key-{self.pushes}",
                viewer=None,
                client_ip="203.0.113.9",
            )
        return multiple()

    @rule(target=stk_intents, c=campaign_index, amount=amounts)
    def stk_push_for_donation(self, c: int, amount: int) -> Payment:
        return self.donation_intent(
            payments.payment_stk_push_start, c, campaign_stk_account, amount, phone="0711000222"
        )

    @rule(target=card_intents, c=campaign_index, amount=amounts)
    def card_checkout_for_donation(self, c: int, amount: int) -> Payment:
        return self.donation_intent(
            payments.payment_checkout_start, c, campaign_card_account, amount, email="donor@example.com"
        )

    def donation_intent(
        self,
        start: Callable[..., Payment],
        c: int,
        account: Callable[..., CollectionAccount | None],
        amount: int,
        **payer: str,
    ) -> Payment:
        """A donation's payment started (``start``) to the campaign's ``account`` for it: donation_create's
        two steps apart, so a callback may come before the donation row."""
        campaign = self.campaigns[c]
        payment = start(
            purpose=Payment.Purpose.DONATION,
            amount=amount,
            campaign=campaign,
            collection_account=account(campaign=campaign),
            **payer,
        )
        self.unattached.append((payment, campaign))
        return payment

    @rule(i=st.integers(min_value=0, max_value=20))
    def attach_donation(self, i: int) -> None:
        if self.unattached:
            payment, campaign = self.unattached.pop(i % len(self.unattached))
            pledges.donation_attach_payment(
                payment=payment, campaign=campaign, name="Donor", email="", phone="", is_anonymous=False
            )

    # What the providers tell us -----------------------------------------------------------------

    @rule(
        payment=stk_intents,
        outcome=st.sampled_from(["success", "failed", "cancelled", "wrong_amount"]),
        vouched=st.booleans(),  # from an address on MPESA_ALLOWED_IPS, or not (then the query decides)
    )
    def stk_callback(self, payment: Payment, outcome: str, vouched: bool) -> None:
        code = {"success": 0, "wrong_amount": 0, "cancelled": daraja.RESULT_CANCELLED_BY_USER}.get(outcome, 1)
        amount = payment.amount + (1 if outcome == "wrong_amount" else 0)
        body = stk_callback(
            payment.checkout_request_id or "", result_code=code, amount=amount, receipt=prompt_receipt(payment)
        )
        remote_addr = "127.0.0.1" if vouched else "203.0.113.77"
        recorded = payments.payment_record_stk_callback(body=body, remote_addr=remote_addr)
        event(f"stk callback: {recorded.outcome}")

    @rule(payment=stk_intents, outcome=st.sampled_from(["success", "failed", "still_pending"]))
    def stk_query(self, payment: Payment, outcome: str) -> None:
        result = None
        if outcome != "still_pending":
            result = StkResult(
                checkout_request_id=payment.checkout_request_id or "",
                merchant_request_id="",
                result_code=0 if outcome == "success" else 1,
                result_desc=outcome,
            )
        payments.payment_record_stk_query_result(payment=payment, answer=StkQueryAnswer(body={}, result=result))

    @rule(payment=card_intents, status=st.sampled_from(["success", "failed", "abandoned", "wrong_amount"]))
    def card_paid_at_paystack(self, payment: Payment, status: str) -> None:
        subunits = (payment.amount + (1 if status == "wrong_amount" else 0)) * 100
        self.paystack_says[payment.reference] = ("success" if status == "wrong_amount" else status, subunits)

    @rule(payment=card_intents, by_webhook=st.booleans())
    def card_confirmed(self, payment: Payment, by_webhook: bool) -> None:
        if not by_webhook:
            payments.payment_confirm_card(reference=payment.reference)
            return
        raw = json.dumps({"event": paystack.CHARGE_SUCCESS, "data": {"reference": payment.reference}}).encode()
        signature = hmac.new(settings.PAYSTACK_SECRET_KEY.encode(), raw, hashlib.sha512).hexdigest()
        payments.payment_record_card_webhook(raw_body=raw, signature=signature, remote_addr=None)

    @rule(
        pledge=pledges,
        account=st.sampled_from(["code", "typo", "nobody"]),
        amount=amounts,
        trans=st.integers(min_value=0, max_value=7),  # a small pool: the same TransID often comes again
    )
    def paybill(self, pledge: Pledge, account: str, amount: int, trans: int) -> None:
        bill_ref = {"code": pledge.code.lower(), "typo": typo(pledge.code), "nobody": "SOMETHING ELSE"}[account]
        body = {
            "TransactionType": "Pay Bill",
            "TransID": f"SLKC2B{trans:04d}",
            "TransTime": "20261122103000",
            "TransAmount": f"{amount}.00",
            "BusinessShortCode": TEST_PAYBILL,
            "BillRefNumber": bill_ref,
            "MSISDN": "2547 ***** 149",
            "FirstName": "John",
        }
        # Confirmed to the church's connection's own URL (as Safaricom sends it), or found by Pull.
        recorded = payments.payment_record_c2b_confirmation(body=body, remote_addr=None, connection=self.connection)
        event(f"paybill: {recorded.outcome}")

    @rule()
    def expire_stale_intents(self) -> None:
        payments.payment_expire_stale(older_than=timedelta(0))

    @rule(payment=stk_intents, by_pull=st.booleans(), on_statement=st.booleans())
    def prompt_listed_by_mpesa(self, payment: Payment, by_pull: bool, on_statement: bool) -> None:
        """A paid PIN prompt is in Pull Transactions and on the statement like any payment into the paybill,
        with its receipt and the account reference it carried."""
        payment.refresh_from_db()
        if (
            payment.status != SUCCEEDED
            or payment.flagged
            or payment.collection_account_id != self.connection.account_id
        ):
            return
        receipt, reference = prompt_receipt(payment), payment.account_reference or payment.reference
        at = timezone.now()
        if by_pull:
            pulled = PulledTransaction(receipt, at, payment.amount, TEST_PAYBILL, reference, "2547 ***** 149", "c2b")
            with mock.patch.object(DarajaClient, "pull_transactions", return_value=[pulled]):
                payments.mpesa_pull_run(connection=self.connection)
            event("prompt pulled")
        if on_statement:
            self.import_statement([Line(receipt, at, payment.amount, account_number=reference)])
            event("prompt on a statement")

    @rule(
        pledge=pledges,
        amount=amounts,
        trans=st.integers(min_value=0, max_value=7),  # the first church's pool: another organization's receipts
    )
    def other_organization_paybill(self, pledge: Pledge, amount: int, trans: int) -> None:
        receipt = f"SLKC2B{trans:04d}"
        body = {
            "TransactionType": "Pay Bill",
            "TransID": receipt,
            "TransTime": "20261122103000",
            "TransAmount": f"{amount}.00",
            "BusinessShortCode": "600900",
            "BillRefNumber": pledge.code,  # the first church's code: nobody's there
            "MSISDN": "2547 ***** 149",
            "FirstName": "John",
        }
        payments.payment_record_c2b_confirmation(body=body, remote_addr=None, connection=self.other_connection)
        # Whatever the first church recorded under this receipt, this church's payment is its own.
        organization_id = self.other_connection.account.organization_id
        assert Payment.objects.filter(
            mpesa_receipt=receipt, collection_account__organization_id=organization_id, status=SUCCEEDED
        ).exists()

    @rule(pledge=pledges, lines=statement_lines(receipts=8))
    def statement_import_undo_and_again(self, pledge: Pledge, lines: list[tuple[int, int, str]]) -> None:
        """Undo is confirm's exact inverse: the books are as they were, and the same file credits the same again."""
        at = timezone.now() - timedelta(hours=1)
        rows = paybill_statement_rows(pledge, lines, at=at)
        before = self.books()
        first = self.import_statement(rows)
        after_first = self.books()
        account = self.connection.account
        statements.statement_import_undo(
            user=self.organizer, organization_id=account.organization_id, import_id=first.pk, reason="Wrong file"
        )
        assert self.books() == before
        self.import_statement(rows)
        assert self.books() == after_first
        event("statement imported, undone and imported again")

    def import_statement(self, rows: list[Line]) -> StatementImport:
        account = self.connection.account
        upload = SimpleUploadedFile("statement.csv", statement_csv(rows, shortcode=account.paybill_number))
        previewed = statements.statement_import_upload(
            user=self.organizer, organization_id=account.organization_id, account_id=account.pk, file=upload
        )
        return statements.statement_import_confirm(
            user=self.organizer, organization_id=account.organization_id, import_id=previewed.pk
        )

    def books(self) -> tuple[Any, ...]:
        """What a treasurer reads: pledges paid, campaigns' counters, the unmatched and set-aside payments."""
        live = Payment.objects.filter(status=SUCCEEDED, reversal__isnull=True, purpose=Payment.Purpose.PLEDGE_PAYMENT)
        return (
            dict(Pledge.objects.values_list("pk", "paid_amount")),
            list(Campaign.objects.order_by("pk").values_list("raised_total", "pledged_total", "donor_count")),
            Counter(
                live.filter(pledge_link__isnull=True).values_list("mpesa_receipt", "amount", "set_aside", "campaign")
            ),
        )

    # What organizers and admins do -----------------------------------------------------------------

    @rule(pledge=pledges, amount=amounts, days_ago=st.sampled_from([0, 0, 3]))
    def cash_payment(self, pledge: Pledge, amount: int, days_ago: int) -> None:
        with refusable("cash_payment"):  # to a cancelled pledge
            self.payment_recorded_by_hand(
                pledge, amount, method="cash", reference="", received_on=timezone.localdate() - timedelta(days=days_ago)
            )

    @rule(
        pledge=pledges,
        amount=amounts,
        trans=st.integers(min_value=0, max_value=7),  # the paybill's pool: one receipt, one credit
    )
    def mpesa_entered_by_hand(self, pledge: Pledge, amount: int, trans: int) -> None:
        with refusable("mpesa_entered_by_hand"):
            self.payment_recorded_by_hand(pledge, amount, method="mpesa_manual", reference=f"SLKC2B{trans:04d}")

    def payment_recorded_by_hand(self, pledge: Pledge, amount: int, **entry: Any) -> None:
        """'Record a payment' by the organizer: ``method``, ``reference`` and, for a backdated one, ``received_on``."""
        pledges.pledge_payment_record(pledge_id=pledge.pk, user=self.organizer, amount=amount, note="", **entry)

    @rule(pledge=pledges, method=st.sampled_from(["bank", "cash", "mpesa_manual"]), trans=st.integers(0, 7))
    def confirm(self, pledge: Pledge, method: str, trans: int) -> None:
        with refusable("confirm"):
            pledges.pledge_confirm(
                pledge_id=pledge.pk, user=self.organizer, method=method, reference=f"SLKC2B{trans:04d}"
            )

    @rule(pledge=pledges, amount=amounts)
    def correct(self, pledge: Pledge, amount: int) -> None:
        with refusable("correct"):  # below what is paid, the same, above the ceiling, cancelled
            pledges.pledge_amount_correct(pledge_id=pledge.pk, user=self.organizer, amount=amount, reason="Typo")

    @rule(pledge=pledges, to=pledges, as_gift=st.booleans())
    def cancel(self, pledge: Pledge, to: Pledge, as_gift: bool) -> None:
        with refusable("cancel"):
            pledges.pledge_cancel(
                pledge_id=pledge.pk,
                user=self.organizer,
                reason="Duplicate",
                payments_to="gift" if as_gift else "pledge",
                to_pledge_id=to.pk,
            )
            event("cancelled")

    @rule(pledge=pledges)
    def restore(self, pledge: Pledge) -> None:
        with refusable("restore"):
            pledges.pledge_restore(pledge_id=pledge.pk, user=self.organizer, reason="Not a duplicate")

    @rule(i=st.integers(min_value=0, max_value=20))
    def reverse(self, i: int) -> None:
        succeeded = list(Payment.objects.filter(status=SUCCEEDED, campaign__isnull=False).order_by("pk"))
        if succeeded:
            with refusable("reverse"):  # paid through a provider, or reversed already
                payments.payment_reverse(
                    reference=succeeded[i % len(succeeded)].reference, user=self.organizer, reason="Mistake"
                )
                event("reversed")

    @rule(pledge=pledges, lines=statement_lines(receipts=8), days_ago=st.sampled_from([0, 10]))
    def statement_import(self, pledge: Pledge, lines: list[tuple[int, int, str]], days_ago: int) -> None:
        at = timezone.now() - timedelta(days=days_ago, hours=1)
        self.import_statement(paybill_statement_rows(pledge, lines, at=at))
        event("statement imported")

    @rule(pledge=pledges, lines=statement_lines(receipts=4), days_ago=st.sampled_from([0, 10]))
    def bank_statement_import(self, pledge: Pledge, lines: list[tuple[int, int, str]], days_ago: int) -> None:
        on = timezone.localdate() - timedelta(days=days_ago)
        rows = [
            BankLine(on, amount, f"FT{trans:04d}", f"MPESA C2B {paid_to(pledge, whom)}")
            for trans, amount, whom in lines
        ]
        for key, count in Counter((row.on, row.amount, row.reference) for row in rows).items():
            self.bank_rows_most[key] = max(self.bank_rows_most[key], count)
        previewed = statements.statement_import_upload(
            user=self.organizer,
            organization_id=self.bank.organization_id,
            account_id=self.bank.pk,
            file=SimpleUploadedFile("bank.csv", bank_statement_csv(rows)),
            bank_columns=BankColumns(
                date="Transaction Date",
                amount="Credit",
                debit="Debit",
                description="Narrative",
                reference="Transaction Reference",
            ),
        )
        statements.statement_import_confirm(
            user=self.organizer, organization_id=self.bank.organization_id, import_id=previewed.pk
        )
        event("bank statement imported")

    @rule(i=st.integers(min_value=0, max_value=20))
    def statement_import_undo(self, i: int) -> None:
        confirmed = list(StatementImport.objects.filter(status=StatementImport.Status.CONFIRMED).order_by("pk"))
        if confirmed:
            chosen = confirmed[i % len(confirmed)]
            statements.statement_import_undo(
                user=self.organizer, organization_id=chosen.organization_id, import_id=chosen.pk, reason="Wrong file"
            )
            event("statement import undone")

    @rule(
        pledge=pledges,
        instalment=st.integers(min_value=1, max_value=2_500),
        frequency=st.sampled_from(["weekly", "monthly"]),
        starts_in=st.integers(min_value=-60, max_value=30),
        by_treasurer=st.booleans(),
    )
    def plan(self, pledge: Pledge, instalment: int, frequency: str, starts_in: int, by_treasurer: bool) -> None:
        terms = PlanTerms(instalment, frequency, timezone.localdate() + timedelta(days=starts_in))
        with refusable("plan"):  # fully paid, cancelled, past the campaign's end, in the past for a pledger
            if by_treasurer:
                pledges.pledge_plan_set(pledge_id=pledge.pk, user=self.organizer, terms=terms)
            else:
                pledges.pledge_plan_set_by_code(code=pledge.code, client_ip="203.0.113.9", terms=terms)
            event("plan set")

    @rule(c=campaign_index, largest=st.integers(min_value=1, max_value=6_000))
    def set_ceiling(self, c: int, largest: int) -> None:
        campaign_update(campaign=self.campaigns[c], user=self.organizer, largest_pledge=largest)

    @rule(pledge=pledges, i=st.integers(min_value=0, max_value=20), by_admin=st.booleans())
    def assign_unmatched(self, pledge: Pledge, i: int, by_admin: bool) -> None:
        unmatched = list(
            Payment.objects.filter(purpose=Payment.Purpose.PLEDGE_PAYMENT, pledge_link__isnull=True).order_by("pk")
        )
        if unmatched:
            with refusable("assign"):
                pledges.pledge_payment_assign(
                    pledge_id=pledge.pk,
                    reference=unmatched[i % len(unmatched)].reference,
                    user=self.admin if by_admin else self.organizer,
                )
                event("assigned")

    # The ushers' desk --------------------------------------------------------------------------------

    def desk_entry(
        self, *, c: int, key: int, kind: str, amount: int, mpesa_receipt: str = "", plan: PlanTerms | None = None
    ) -> DeskEntry | None:
        """An entry typed at campaign ``c``'s desk; its key from a small pool, so a delivery is often
        repeated (whatever the body says then, the first entry answers)."""
        idempotency_key = f"desk-key-{key}"
        first = self.desk_entries.get(idempotency_key)
        with refusable(f"desk {kind}"):  # above the ceiling, a receipt's other amount, a plan refused
            entry, created = desk.desk_entry_record(
                actor=DeskActor(user=self.organizer),
                event_id=self.events[c].pk,
                idempotency_key=idempotency_key,
                kind=kind,
                amount=amount,
                name="",
                phone="0711000222",
                is_anonymous=False,
                mpesa_receipt=mpesa_receipt,
                plan=plan,
            )
            assert (created, entry.pk) == ((True, entry.pk) if first is None else (False, first))
            self.desk_entries[idempotency_key] = entry.pk
            event(f"desk {kind}: {'new' if created else 'repeated'}")
            return entry
        return None

    @rule(
        target=pledges,
        c=campaign_index,
        key=st.integers(min_value=0, max_value=14),
        amount=amounts,
        instalment=st.none() | st.integers(min_value=1, max_value=2_500),
    )
    def desk_pledge_card(self, c: int, key: int, amount: int, instalment: int | None) -> Any:
        plan = None if instalment is None else PlanTerms(instalment, "weekly", timezone.localdate())
        entry = self.desk_entry(c=c, key=key, kind="pledge", amount=amount, plan=plan)
        return entry.pledge if entry is not None and entry.pledge is not None else multiple()

    @rule(c=campaign_index, key=st.integers(min_value=0, max_value=14), amount=amounts)
    def desk_cash_gift(self, c: int, key: int, amount: int) -> None:
        self.desk_entry(c=c, key=key, kind="cash", amount=amount)

    @rule(
        c=campaign_index,
        key=st.integers(min_value=0, max_value=14),
        amount=amounts,
        trans=st.integers(min_value=0, max_value=7),  # the paybill's pool: one receipt, one credit
        as_in_the_books=st.booleans(),
    )
    def desk_mpesa_gift(self, c: int, key: int, amount: int, trans: int, as_in_the_books: bool) -> None:
        receipt = f"SLKC2B{trans:04d}"
        # Mostly the amount M-Pesa recorded for a receipt already in the books (else it is refused).
        in_the_books = Payment.objects.filter(mpesa_receipt=receipt).values_list("amount", flat=True).first()
        if as_in_the_books and in_the_books is not None:
            amount = in_the_books
        self.desk_entry(c=c, key=key, kind="mpesa", amount=amount, mpesa_receipt=receipt.lower())

    # The invariant ----------------------------------------------------------------------------

    @invariant()
    def ledger_adds_up(self) -> None:
        unreversed = Q(reversal__isnull=True)
        for campaign in Campaign.objects.all():
            counted = (
                Payment.objects.filter(unreversed, campaign=campaign, status=SUCCEEDED)
                .filter(
                    Q(donation__isnull=False)
                    | Q(pledge_link__pledge__cancelled_at__isnull=True, pledge_link__isnull=False)
                )
                .distinct()
            )
            live_pledges = Pledge.objects.live().filter(campaign=campaign)
            paid_donations = Donation.objects.filter(campaign=campaign, counted_at__isnull=False)
            assert campaign.raised_total == (counted.aggregate(total=Sum("amount"))["total"] or 0)
            # The analytics read the same money from the counted payments alone.
            assert set(counted) == set(Payment.objects.filter(campaign=campaign, counted_at__isnull=False))
            assert campaign.pledged_total == (live_pledges.aggregate(total=Sum("amount"))["total"] or 0)
            vouched = live_pledges.filter(Q(user__isnull=False) | Q(paid_amount__gt=0))
            assert campaign.pledged_signed_in_or_paid_total == (vouched.aggregate(total=Sum("amount"))["total"] or 0)
            assert campaign.donor_count == paid_donations.count() + live_pledges.filter(paid_amount__gt=0).count()

        linked = dict(
            PledgePayment.objects.filter(payment__reversal__isnull=True)
            .values("pledge")
            .annotate(total=Sum("payment__amount"))
            .values_list("pledge", "total")
        )
        for pledge in Pledge.objects.all():
            assert pledge.paid_amount == linked.get(pledge.pk, 0)
            assert pledge.status == pledge.derived_status()
            assert (pledge.confirmed_at is not None) == pledge.is_confirmed
            # A cancelled pledge's payments went to another pledge or became gifts.
            assert pledge.is_live or pledge.paid_amount == 0
        assert not PledgePayment.objects.exclude(payment__status=SUCCEEDED).exists()
        assert not PledgePayment.objects.exclude(payment__campaign=F("pledge__campaign")).exists()
        for donation in Donation.objects.select_related("payment"):
            counts = (
                donation.payment.status == SUCCEEDED
                and not PaymentReversal.objects.filter(payment=donation.payment).exists()
            )
            assert (donation.counted_at is not None) == counts
        for plan in InstalmentPlan.objects.select_related("pledge"):
            schedule = plan.schedule()
            assert sum(part.amount for part in schedule) == plan.pledge.amount
            assert all(part.amount == plan.instalment for part in schedule[:-1])
            assert 1 <= schedule[-1].amount <= plan.instalment
            for today in (schedule[0].due_on, timezone.localdate(), schedule[-1].due_on):
                where = plan.standing(today=today)
                owed = sum(part.amount for part in schedule if part.due_on <= today)
                assert (where.standing == Standing.BEHIND) == (plan.pledge.paid_amount < owed)
                assert where.behind_amount == max(owed - plan.pledge.paid_amount, 0)
        # An undone import took back every payment it recorded but those M-Pesa confirmed since with the
        # same amount and account (that money stands on M-Pesa's word); a contradicting report vouches for
        # nothing.
        confirmed_since = PaymentEvent.objects.filter(
            payment=OuterRef("pk"), kind__in=payments.PROVIDER_REPORTS, outcome=PaymentEvent.Outcome.DUPLICATE
        )
        for statement_import in StatementImport.objects.filter(status=StatementImport.Status.UNDONE):
            recorded = Payment.objects.filter(statement_import_link__statement_import=statement_import)
            assert not recorded.filter(reversal__isnull=True).exclude(Exists(confirmed_since)).exists()
        # A bank row is recorded by imports no more often than it stood on one statement, undone ones aside.
        imported = Counter(
            (timezone.localdate(link.payment.received_at), link.payment.amount, link.bank_reference)
            for link in ImportedPayment.objects.filter(
                payment__provider=Payment.Provider.BANK, payment__reversal__isnull=True
            ).select_related("payment")
        )
        assert all(count <= self.bank_rows_most[key] for key, count in imported.items())
        # A desk gift's payment is credited by that gift alone; one whose receipt was in the books is its own.
        gifts = DeskEntry.objects.filter(payment__isnull=False, already_in_books=False).values("payment")
        assert not gifts.annotate(n=Count("id")).filter(n__gt=1).exists()
        assert not DeskEntry.objects.filter(donation__isnull=False).exclude(donation__payment=F("payment")).exists()
        # Only entries made by hand are reversed.
        assert not PaymentReversal.objects.exclude(payment__provider__in=MANUAL_PROVIDERS).exists()
        # A payment pays for one thing, and at most one provider answer credits it (a card webhook
        # repeats the outcome of the verification it triggered).
        assert not Payment.objects.filter(donation__isnull=False, pledge_link__isnull=False).exists()
        credits = (
            PaymentEvent.objects.filter(outcome=PaymentEvent.Outcome.CREDITED)
            .exclude(kind=PaymentEvent.Kind.CARD_WEBHOOK)
            .values("payment")
        )
        assert not credits.annotate(n=Count("id")).filter(n__gt=1).exists()
        # Each real payment credits once, whichever reporters told of it: a paid PIN prompt (its receipt
        # known or not) and any payment of its organization holding its receipt are one.
        prompts = Payment.objects.filter(provider=Payment.Provider.MPESA_STK, status=SUCCEEDED, flagged=False)
        for prompt in prompts.filter(organization__isnull=False):
            organization_id = prompt.organization_id
            same = Payment.objects.filter(
                status=SUCCEEDED, reversal__isnull=True, mpesa_receipt=prompt_receipt(prompt)
            ).filter(
                Q(collection_account__organization_id=organization_id) | Q(campaign__organization_id=organization_id)
            )
            assert not same.exclude(pk=prompt.pk).exists(), prompt_receipt(prompt)
        # A success is never undone, nor its receipt changed.
        succeeded = dict(Payment.objects.filter(status=SUCCEEDED).values_list("pk", "receipt_number"))
        assert all(succeeded.get(pk) == receipt for pk, receipt in self.receipts.items())
        self.receipts.update(succeeded)


@pytest.mark.django_db
@pytest.mark.no_cover  # like the API fuzzing: generated steps, not lines, and costly to trace
@pytest.mark.slow  # 40 runs of 40 steps: the longest single test of the suite
def test_paid_totals_equal_the_succeeded_payments_and_no_payment_counts_twice(settings: Any) -> None:
    settings.RATE_LIMIT_PLEDGE = settings.RATE_LIMIT_PLEDGE_LOOKUP = settings.RATE_LIMIT_PLEDGE_STK_PUSH = NO_LIMIT
    settings.RATE_LIMIT_STK_PUSH_PHONE = settings.RATE_LIMIT_STK_PUSH_IP = settings.RATE_LIMIT_DONATION = NO_LIMIT
    settings.RATE_LIMIT_GIVING_CONTACT = settings.RATE_LIMIT_GIVING_ACCOUNT = settings.RATE_LIMIT_DESK_ENTRY = NO_LIMIT
    run_state_machine_as_test(
        Ledger,
        settings=hypothesis_settings(
            max_examples=40, stateful_step_count=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
        ),
    )
