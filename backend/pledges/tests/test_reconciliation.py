"""Automatic reconciliation through the real flow: the simulator plays Safaricom over HTTP,
paybill payers type the pledge code (or a typo of it), and 'Pay now with M-Pesa' sends an STK
Push whose callback arrives from another thread."""

import pytest

from campaigns.models import Campaign
from campaigns.services import campaign_close_early
from payments.models import Payment
from payments.tests.support import settled, wait_for
from payments.tests.test_c2b import pay_bill, registered
from pledges.models import Pledge, PledgePayment

__all__ = ["registered"]  # the fixture that registers our C2B URLs with the simulator

pytestmark = pytest.mark.django_db(transaction=True)

SUCCESS_MSISDN = "254708374149"


def make_pledge(client, campaign, amount=10_000, **fields):
    body = {
        "campaign_id": campaign.pk,
        "amount": amount,
        "name": "Mwangi Kariuki",
        "email": "mwangi@example.com",
        "phone": "0708374149",  # the simulator approves STK prompts to this number
        **fields,
    }
    response = client.post("/api/pledges", body)
    assert response.status_code == 201, response.content
    return response.json()


def paid(code: str, amount: int) -> Pledge:
    """The pledge once its paid amount has reached ``amount`` (callbacks come from another thread)."""
    wait_for(lambda: Pledge.objects.filter(code=code, paid_amount=amount).exists())
    return Pledge.objects.get(code=code)


def totals(campaign):
    campaign = Campaign.objects.get(pk=campaign.pk)
    return campaign.pledged_total, campaign.raised_total, campaign.donor_count


def stk_push(client, code, **fields):
    return client.post(f"/api/pledges/{code}/stk-push", {"idempotency_key": "pay-pledge-0001", **fields})


def test_a_paybill_part_payment_then_an_stk_push_for_the_rest_confirm_the_pledge_by_itself(
    registered, visitor_client, campaign
):
    created = make_pledge(visitor_client, campaign)
    code = created["code"]

    pay_bill(registered, BillRefNumber=code.lower(), Amount=4000, MSISDN=SUCCESS_MSISDN)

    pledge = paid(code, 4000)
    assert pledge.status == "partly_paid"
    assert (
        visitor_client.get(f"/api/pledges/{code}").json() | {"remaining_amount": 6000}
        == visitor_client.get(f"/api/pledges/{code}").json()
    )
    assert totals(campaign) == (10_000, 4000, 1)

    response = stk_push(visitor_client, code)

    assert response.status_code == 201, response.content
    assert response.json() | {"amount": 6000, "purpose": "pledge_payment", "status": "pending"} == response.json()
    payment = settled(response.json()["reference"])
    assert (payment.status, payment.account_reference, payment.campaign) == ("succeeded", code, campaign)
    pledge = paid(code, 10_000)
    assert (pledge.status, pledge.confirmed_by) == ("confirmed", None)
    assert pledge.confirmed_at is not None
    assert visitor_client.get(f"/api/payments/{payment.reference}").json()["status"] == "succeeded"
    receipt = visitor_client.get(f"/api/pledges/{code}").json()
    assert (receipt["status"], receipt["remaining_amount"], receipt["stk_push_available"]) == ("confirmed", 0, False)
    assert totals(campaign) == (10_000, 10_000, 1)
    assert set(Payment.objects.values_list("provider", flat=True)) == {"mpesa_c2b", "mpesa_stk"}
    assert PledgePayment.objects.filter(pledge=pledge).count() == 2


def test_an_overpayment_confirms_the_pledge_and_is_shown(registered, visitor_client, organizer_client, campaign):
    code = make_pledge(visitor_client, campaign, amount=2000)["code"]

    pay_bill(registered, BillRefNumber=f" {code} ", Amount=2500, MSISDN=SUCCESS_MSISDN)

    pledge = paid(code, 2500)
    assert pledge.status == "confirmed"
    [row] = organizer_client.get(f"/api/pledges?campaign_id={campaign.pk}").json()
    assert (row["paid_amount"], row["remaining_amount"], row["overpaid_amount"]) == (2500, 0, 500)
    assert totals(campaign) == (2000, 2500, 1)
    answer = stk_push(visitor_client, code)
    assert (answer.status_code, answer.json()["detail"]) == (400, "This pledge is already fully paid. Thank you!")


def test_a_mistyped_account_number_is_left_for_the_organizer(registered, visitor_client, organizer_client, campaign):
    code = make_pledge(visitor_client, campaign)["code"]
    typo = code[:5] + ("Z" if code[5] != "Z" else "Y") + code[6]

    pay_bill(registered, BillRefNumber=typo, Amount=3000, MSISDN=SUCCESS_MSISDN, FirstName="Mwangi")

    payment = wait_for(lambda: Payment.objects.filter(account_reference=typo, campaign=campaign).first())
    assert payment is not None and payment.status == "succeeded"
    assert Pledge.objects.get(code=code).paid_amount == 0
    assert totals(campaign) == (10_000, 0, 0)
    [row] = organizer_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments").json()
    assert (row["payer_name"], row["suggested_pledge"]["code"]) == ("Mwangi", code)

    organizer_client.post(
        f"/api/pledges/{row['suggested_pledge']['id']}/assign-payment", {"reference": row["reference"]}
    )

    assert Pledge.objects.get(code=code).paid_amount == 3000
    assert totals(campaign) == (10_000, 3000, 1)


def test_a_keyword_payment_is_kept_but_never_listed_while_a_near_miss_of_a_code_is(
    registered, visitor_client, organizer_client, campaign
):
    code = make_pledge(visitor_client, campaign)["code"]
    typo = code[:5] + ("Z" if code[5] != "Z" else "Y") + code[6]
    keywords = organizer_client.put(
        f"/api/orgs/{campaign.organization_id}/account-keywords",
        {"keywords": ["TITHE", "SADAKA"]},
        content_type="application/json",
    )
    assert keywords.status_code == 200

    pay_bill(registered, BillRefNumber="Sadaka ", Amount=500, MSISDN=SUCCESS_MSISDN)
    pay_bill(registered, BillRefNumber=typo, Amount=3000, MSISDN=SUCCESS_MSISDN)

    wait_for(lambda: Payment.objects.filter(account_reference=typo, status="succeeded").exists())
    kept = wait_for(lambda: Payment.objects.filter(account_reference__iexact="sadaka").first())
    assert kept is not None and kept.status == "succeeded"
    rows = organizer_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments").json()
    assert [row["suggested_pledge"]["code"] for row in rows] == [code]
    assert totals(campaign) == (10_000, 0, 0)


def test_a_payment_to_an_unknown_account_number_matches_nothing(registered, visitor_client, campaign):
    make_pledge(visitor_client, campaign)

    pay_bill(registered, BillRefNumber="CHURCH", Amount=3000, MSISDN=SUCCESS_MSISDN)

    wait_for(lambda: Payment.objects.filter(account_reference="CHURCH", status="succeeded").exists())
    assert Payment.objects.get(account_reference="CHURCH").campaign is None
    assert not PledgePayment.objects.exists()
    assert totals(campaign) == (10_000, 0, 0)


def test_a_cancelled_prompt_pays_nothing(providers, visitor_client, campaign):
    code = make_pledge(visitor_client, campaign)["code"]

    response = stk_push(visitor_client, code, phone="0700001032", amount=1000)

    assert settled(response.json()["reference"]).status == "cancelled"
    assert Pledge.objects.get(code=code).paid_amount == 0
    assert totals(campaign) == (10_000, 0, 0)


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({"amount": 10_001}, 422, "Please enter an amount from Ksh 1 to Ksh 10,000."),
        ({"amount": 0}, 422, "Please enter an amount from Ksh 1 to Ksh 10,000."),
        ({"phone": "12345"}, 422, "Please enter a valid Kenyan phone number (e.g., +254712345678 or 0712345678)"),
    ],
    ids=["more-than-remaining", "zero", "bad-phone"],
)
def test_an_stk_push_must_be_for_at_most_the_remaining_amount(
    providers, visitor_client, campaign, fields, status, message
):
    code = make_pledge(visitor_client, campaign)["code"]

    response = stk_push(visitor_client, code, **fields)

    assert response.status_code == status
    assert list(response.json()["field_errors"].values()) == [message]
    assert not Payment.objects.exists()


def test_stk_pushes_for_one_pledge_are_rate_limited(providers, visitor_client, campaign, settings):
    settings.RATE_LIMIT_PLEDGE_STK_PUSH = (2, 600)
    code = make_pledge(visitor_client, campaign)["code"]

    answers = [stk_push(visitor_client, code, amount=100, idempotency_key=f"attempt-{n:04d}") for n in range(3)]

    assert [answer.status_code for answer in answers] == [201, 201, 429]
    for answer in answers[:2]:
        settled(answer.json()["reference"])
    assert stk_push(visitor_client, "ZZZZZZZ").status_code == 404


def test_a_pledge_to_a_campaign_closed_early_is_still_paid_by_stk_push(registered, visitor_client, campaign):
    code = make_pledge(visitor_client, campaign)["code"]
    campaign_close_early(campaign=campaign, user=campaign.organizer)

    response = stk_push(visitor_client, code)

    assert response.status_code == 201, response.content
    settled(response.json()["reference"])
    assert paid(code, 10_000).status == "confirmed"
    assert totals(campaign) == (10_000, 10_000, 1)
    refused = visitor_client.post(
        "/api/pledges",
        {"campaign_id": campaign.pk, "amount": 500, "name": "Achieng Otieno", "phone": "0712345678"},
    )
    assert (refused.status_code, refused.json()["code"]) == (400, "campaign_closed")
