"""Paying a pledge bit by bit through the real flow: the pledge page offers what is due (on a plan,
the instalment due or what is overdue) and its PIN prompt takes any amount up to what is left; the
simulator plays Safaricom over HTTP."""

from datetime import timedelta

import pytest
from django.utils import timezone

from payments.models import Payment
from payments.tests.support import settled
from payments.tests.test_c2b import registered
from pledges.instalments import PlanTerms
from pledges.models import Pledge, PledgePayment
from pledges.services import pledge_plan_set
from pledges.tests.test_reconciliation import make_pledge, paid, stk_push

__all__ = ["registered"]  # the fixture that registers our C2B URLs with the simulator

pytestmark = pytest.mark.django_db(transaction=True)


def weekly_plan(instalment: int, first_due_in_days: int) -> dict[str, object]:
    first_due_on = timezone.localdate() + timedelta(days=first_due_in_days)
    return {"instalment": instalment, "frequency": "weekly", "first_due_on": str(first_due_on)}


def test_a_plan_s_pledge_answers_the_instalment_due_and_a_pledge_without_one_all_that_is_left(visitor_client, campaign):
    on_plan = make_pledge(visitor_client, campaign, amount=12_000, plan=weekly_plan(4_000, first_due_in_days=3))
    without = make_pledge(visitor_client, campaign, amount=12_000, phone="0712000111")

    assert (on_plan["amount_due"], on_plan["remaining_amount"]) == (4_000, 12_000)
    assert visitor_client.get(f"/api/pledges/{without['code']}").json()["amount_due"] == 12_000


def test_a_pledger_behind_their_plan_is_offered_all_that_is_overdue(visitor_client, organizer, campaign):
    code = make_pledge(visitor_client, campaign, amount=12_000)["code"]
    pledge = Pledge.objects.get(code=code)
    # A treasurer records a weekly plan that began ten days ago: two instalments missed.
    pledge_plan_set(
        pledge_id=pledge.pk,
        user=organizer,
        terms=PlanTerms(3_000, "weekly", timezone.localdate() - timedelta(days=10)),
    )

    assert visitor_client.get(f"/api/pledges/{code}").json()["amount_due"] == 6_000


def test_a_prompt_for_less_than_what_is_left_is_accepted_and_credits_that_amount_once(
    registered, visitor_client, campaign
):
    code = make_pledge(visitor_client, campaign, amount=12_000, plan=weekly_plan(4_000, first_due_in_days=3))["code"]

    first = stk_push(visitor_client, code, amount=2_500)
    again = stk_push(visitor_client, code, amount=2_500)  # the same attempt sent twice (a double tap)

    assert first.status_code == 201, first.content
    assert (first.json()["amount"], again.json()["reference"]) == (2_500, first.json()["reference"])
    assert settled(first.json()["reference"]).status == "succeeded"
    pledge = paid(code, 2_500)
    assert (pledge.status, PledgePayment.objects.filter(pledge=pledge).count()) == ("partly_paid", 1)
    receipt = visitor_client.get(f"/api/pledges/{code}").json()
    assert (receipt["paid_amount"], receipt["remaining_amount"], receipt["amount_due"]) == (2_500, 9_500, 1_500)
    assert Payment.objects.filter(account_reference=code).count() == 1


def test_a_prompt_without_an_amount_asks_for_the_amount_due(registered, visitor_client, campaign):
    code = make_pledge(visitor_client, campaign, amount=12_000, plan=weekly_plan(4_000, first_due_in_days=3))["code"]

    answer = stk_push(visitor_client, code)

    assert (answer.status_code, answer.json()["amount"]) == (201, 4_000)


@pytest.mark.parametrize("amount", [12_001, 0, -5])
def test_a_prompt_for_more_than_what_is_left_or_nothing_is_refused_and_sends_nothing(visitor_client, campaign, amount):
    code = make_pledge(visitor_client, campaign, amount=12_000)["code"]

    answer = stk_push(visitor_client, code, amount=amount)

    assert answer.status_code == 422
    assert answer.json()["detail"] == "Please correct the errors below"
    assert answer.json()["field_errors"] == {"amount": "Please enter an amount from Ksh 1 to Ksh 12,000."}
    assert not Payment.objects.filter(account_reference=code).exists()
