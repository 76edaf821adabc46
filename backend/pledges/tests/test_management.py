"""Pledge Management: confirming, recording cash and bank payments, assigning unmatched
payments, the summary and the CSV exports; only for the campaign's organizer and admins."""

import csv
import io
import json

import pytest
from django.test import Client

from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import CHURCH_CALLBACK_TOKEN, TEST_PAYBILL
from payments.models import Payment
from pledges.models import Pledge, PledgePayment
from pledges.tests.factories import make_pledge, paid_donation

pytestmark = pytest.mark.django_db

SIGN_IN = {"detail": "Please sign in to continue.", "code": "not_authenticated", "field_errors": {}}


def pay_bill(account, amount, trans_id, first_name="John", shortcode=TEST_PAYBILL):
    """Safaricom confirming a payment to the church's paybill ``shortcode``, delivered to our endpoint."""
    body = {
        "TransactionType": "Pay Bill",
        "TransID": trans_id,
        "TransTime": "20261122103000",
        "TransAmount": f"{amount}.00",
        "BusinessShortCode": shortcode,
        "BillRefNumber": account,
        "InvoiceNumber": "",
        "OrgAccountBalance": "",
        "ThirdPartyTransID": "",
        "MSISDN": "2547 ***** 149",
        "FirstName": first_name,
        "MiddleName": "",
        "LastName": "Doe",
    }
    # Each church's connection has its own callback URL (``connected_paybill``).
    token = CHURCH_CALLBACK_TOKEN if shortcode == TEST_PAYBILL else f"{CHURCH_CALLBACK_TOKEN}-{shortcode}"
    url = f"/api/payments/callbacks/c2b/{token}/confirmation"
    answer = Client(enforce_csrf_checks=True).post(url, json.dumps(body), content_type="application/json")
    assert answer.status_code == 200, answer.content
    return Payment.objects.get(mpesa_receipt=trans_id)


def typo(code):
    return code[:3] + ("Z" if code[3] != "Z" else "Y") + code[4:]


@pytest.fixture
def a_pledge(campaign):
    return make_pledge(campaign)


def totals(campaign):
    campaign = Campaign.objects.get(pk=campaign.pk)
    return campaign.pledged_total, campaign.raised_total, campaign.donor_count


# POST /api/confirm-payment --------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["organizer", "admin"])
def test_the_organizer_or_an_admin_confirms_a_pledge_once_and_for_all(
    clients, viewer, organizer, site_admin, a_pledge, campaign
):
    response = clients[viewer].post("/api/confirm-payment", {"pledgeId": a_pledge.pk})

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["detail"] == "Payment confirmed successfully!"
    assert body["pledge"] | {"status": "confirmed", "payment_confirmed": True, "paid_amount": 10_000} == body["pledge"]
    a_pledge.refresh_from_db()
    assert a_pledge.confirmed_at is not None
    assert a_pledge.confirmed_by == {"organizer": organizer, "admin": site_admin}[viewer]
    payment = Payment.objects.get()
    assert (payment.provider, payment.purpose, payment.amount, payment.status) == (
        "bank",
        "pledge_payment",
        10_000,
        "succeeded",
    )
    assert payment.recorded_by == a_pledge.confirmed_by
    assert totals(campaign) == (10_000, 10_000, 1)


def test_confirming_twice_is_harmless(organizer_client, a_pledge, campaign):
    first = organizer_client.post("/api/confirm-payment", {"pledgeId": a_pledge.pk})
    confirmed_at = Pledge.objects.get(pk=a_pledge.pk).confirmed_at

    second = organizer_client.post("/api/confirm-payment", {"pledgeId": a_pledge.pk})

    assert first.status_code == second.status_code == 200
    assert second.json()["detail"] == "Payment confirmed successfully!"
    assert Pledge.objects.get(pk=a_pledge.pk).confirmed_at == confirmed_at
    assert Payment.objects.count() == 1
    assert totals(campaign) == (10_000, 10_000, 1)


def test_confirming_a_partly_paid_pledge_records_only_the_rest(organizer_client, organizer, a_pledge, campaign):
    pay_bill(a_pledge.code, 4000, "SLKPART001")

    organizer_client.post("/api/confirm-payment", {"pledgeId": a_pledge.pk})

    assert sorted(Payment.objects.values_list("provider", "amount")) == [("bank", 6000), ("mpesa_c2b", 4000)]
    a_pledge.refresh_from_db()
    assert (a_pledge.paid_amount, a_pledge.status, a_pledge.confirmed_by) == (10_000, "confirmed", organizer)
    assert totals(campaign) == (10_000, 10_000, 1)


def test_the_email_in_the_body_never_decides_who_may_confirm(member_client, a_pledge, organizer, campaign):
    response = member_client.post(
        "/api/confirm-payment", {"pledgeId": a_pledge.pk, "campaignOrganizerEmail": organizer.email}
    )

    assert response.status_code == 403
    assert response.json()["detail"] == "Only the campaign's owners and treasurers, or an admin, can confirm payments."
    a_pledge.refresh_from_db()
    assert (a_pledge.status, a_pledge.confirmed_at, a_pledge.paid_amount) == ("pending", None, 0)
    assert not Payment.objects.exists()
    assert totals(campaign) == (10_000, 0, 0)


def test_confirming_signed_out_asks_to_sign_in(visitor_client, a_pledge):
    response = visitor_client.post("/api/confirm-payment", {"pledgeId": a_pledge.pk})

    assert (response.status_code, response.json()) == (401, SIGN_IN)
    assert Pledge.objects.get(pk=a_pledge.pk).status == "pending"


def test_confirming_an_unknown_pledge_is_404(organizer_client):
    response = organizer_client.post("/api/confirm-payment", {"pledgeId": 424242})

    assert (response.status_code, response.json()["detail"]) == (404, "Pledge not found.")


# POST /api/pledges/{id}/payments --------------------------------------------------------


def test_a_cash_payment_is_recorded_in_the_ledger_with_who_recorded_it(organizer_client, organizer, a_pledge, campaign):
    response = organizer_client.post(
        f"/api/pledges/{a_pledge.pk}/payments", {"amount": 2500, "method": "cash", "note": "At the Sunday service"}
    )

    assert response.status_code == 201, response.content
    assert response.json() | {"status": "partly_paid", "paid_amount": 2500, "remaining_amount": 7500} == response.json()
    payment = Payment.objects.get()
    assert (payment.provider, payment.amount, payment.recorded_by, payment.note) == (
        "cash",
        2500,
        organizer,
        "At the Sunday service",
    )
    assert payment.campaign == campaign and payment.account_reference == a_pledge.code
    listed = organizer_client.get(f"/api/pledges/{a_pledge.pk}/payments").json()
    assert [(row["provider"], row["amount"], row["recorded_by"]) for row in listed] == [
        ("cash", 2500, organizer.full_name)
    ]
    assert totals(campaign) == (10_000, 2500, 1)


def test_payments_that_complete_a_pledge_confirm_it_and_more_is_shown_as_overpaid(
    organizer_client, organizer, a_pledge, campaign
):
    organizer_client.post(f"/api/pledges/{a_pledge.pk}/payments", {"amount": 6000, "method": "cash"})
    response = organizer_client.post(
        f"/api/pledges/{a_pledge.pk}/payments", {"amount": 5000, "method": "bank", "reference": "FT2611220001"}
    )

    body = response.json()
    assert (body["status"], body["paid_amount"], body["remaining_amount"], body["overpaid_amount"]) == (
        "confirmed",
        11_000,
        0,
        1000,
    )
    assert body["confirmed_by"] == organizer.full_name
    assert totals(campaign) == (10_000, 11_000, 1)  # one pledger is one donor


def test_a_bank_reference_is_recorded_once(organizer_client, a_pledge):
    body = {"amount": 1000, "method": "bank", "reference": "FT-1"}
    organizer_client.post(f"/api/pledges/{a_pledge.pk}/payments", body)

    again = organizer_client.post(f"/api/pledges/{a_pledge.pk}/payments", body)

    assert again.status_code == 422
    assert again.json()["field_errors"] == {"reference": "This bank reference has already been recorded"}
    assert Pledge.objects.get(pk=a_pledge.pk).paid_amount == 1000


@pytest.mark.parametrize(("viewer", "status"), [("visitor", 401), ("member", 403)], ids=["signed-out", "another-user"])
def test_only_managers_record_payments(clients, viewer, status, a_pledge, campaign):
    response = clients[viewer].post(f"/api/pledges/{a_pledge.pk}/payments", {"amount": 100, "method": "cash"})

    assert response.status_code == status
    assert clients[viewer].get(f"/api/pledges/{a_pledge.pk}/payments").status_code == status
    assert not Payment.objects.exists()
    assert totals(campaign) == (10_000, 0, 0)


# Paybill payments: matched by code, or left for the organizer ------------------------------


def test_paybill_payments_with_the_code_add_up_and_confirm_the_pledge(a_pledge, campaign):
    pay_bill(f" {a_pledge.code.lower()} ", 3000, "SLKA000001")
    a_pledge.refresh_from_db()
    assert (a_pledge.paid_amount, a_pledge.status) == (3000, "partly_paid")

    payment = pay_bill(a_pledge.code, 7000, "SLKA000002")

    a_pledge.refresh_from_db()
    assert (a_pledge.paid_amount, a_pledge.status, a_pledge.confirmed_by) == (10_000, "confirmed", None)
    assert a_pledge.confirmed_at is not None
    assert (payment.campaign, payment.payer_email) == (campaign, a_pledge.email)
    assert totals(campaign) == (10_000, 10_000, 1)


def test_the_same_confirmation_delivered_twice_is_counted_once(a_pledge, campaign):
    pay_bill(a_pledge.code, 3000, "SLKDUP0001")
    pay_bill(a_pledge.code, 3000, "SLKDUP0001")

    assert Pledge.objects.get(pk=a_pledge.pk).paid_amount == 3000
    assert PledgePayment.objects.count() == 1
    assert totals(campaign) == (10_000, 3000, 1)


def test_a_mistyped_code_stays_unmatched_and_the_organizer_assigns_it_in_one_click(
    organizer_client, member_client, organizer, a_pledge, campaign
):
    other = make_pledge(CampaignFactory.create(paybill="600900"), name="Other Pledger")
    payment = pay_bill(typo(a_pledge.code), 4000, "SLKTYPO001", first_name="Mary")
    pay_bill("SOMETHING ELSE", 900, "SLKJUNK001", shortcode="600900")  # another church's: its team's

    a_pledge.refresh_from_db()
    assert (a_pledge.paid_amount, payment.campaign) == (0, campaign)
    assert totals(campaign) == (10_000, 0, 0)
    listed = organizer_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments")
    assert listed.status_code == 200
    assert listed["X-Total-Count"] == "1"
    assert listed.json() == [
        {
            "reference": payment.reference,
            "amount": 4000,
            "provider": "mpesa_c2b",
            "account_reference": typo(a_pledge.code),
            "mpesa_receipt": "SLKTYPO001",
            "payer_name": "Mary Doe",
            "received_at": listed.json()[0]["received_at"],
            "suggested_pledge": {
                "id": a_pledge.pk,
                "code": a_pledge.code,
                "name": "Njeri Wanjiru",
                "amount": 10_000,
                "remaining_amount": 10_000,
            },
        }
    ]
    assert organizer_client.get(f"/api/campaigns/{campaign.pk}/pledge-summary").json()["unmatched_count"] == 1
    # Another user cannot see or take it; the organizer cannot put it on another campaign's pledge.
    assert member_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments").status_code == 403
    assert (
        member_client.post(f"/api/pledges/{a_pledge.pk}/assign-payment", {"reference": payment.reference}).status_code
        == 403
    )
    assert (
        organizer_client.post(f"/api/pledges/{other.pk}/assign-payment", {"reference": payment.reference}).status_code
        == 403
    )

    response = organizer_client.post(
        f"/api/pledges/{a_pledge.pk}/assign-payment", {"reference": payment.reference.lower()}
    )

    assert response.status_code == 200, response.content
    assert (response.json()["status"], response.json()["paid_amount"]) == ("partly_paid", 4000)
    assert PledgePayment.objects.get(payment=payment).assigned_by == organizer
    assert totals(campaign) == (10_000, 4000, 1)
    assert organizer_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments").json() == []
    again = organizer_client.post(f"/api/pledges/{a_pledge.pk}/assign-payment", {"reference": payment.reference})
    assert (again.status_code, again.json()["detail"]) == (400, "This payment is already counted towards a pledge.")
    assert totals(campaign) == (10_000, 4000, 1)


def test_admins_also_see_and_assign_payments_nobody_could_place(
    site_admin_client, organizer_client, a_pledge, campaign
):
    CampaignFactory.create(paybill="600900")
    junk = pay_bill("HARAMBEE", 900, "SLKJUNK002", shortcode="600900")  # another church's paybill

    assert organizer_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments").json() == []
    assert (
        organizer_client.post(f"/api/pledges/{a_pledge.pk}/assign-payment", {"reference": junk.reference}).status_code
        == 404
    )
    rows = site_admin_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments").json()
    assert [(row["reference"], row["suggested_pledge"]) for row in rows] == [(junk.reference, None)]

    assert (
        site_admin_client.post(f"/api/pledges/{a_pledge.pk}/assign-payment", {"reference": junk.reference}).status_code
        == 200
    )
    assert Payment.objects.get(pk=junk.pk).campaign == campaign
    assert totals(campaign) == (10_000, 900, 1)


@pytest.mark.parametrize("count", [1, 20])
def test_the_unmatched_list_takes_the_same_queries_for_1_or_20_payments(
    organizer_client, a_pledge, campaign, django_assert_num_queries, count
):
    for n in range(count):
        pay_bill(typo(a_pledge.code), 100, f"SLKQ{n:06d}")

    # session, user, the campaign, the count, the page, its C2B events, the suggested pledges
    with django_assert_num_queries(7):
        rows = organizer_client.get(f"/api/campaigns/{campaign.pk}/unmatched-payments").json()
    assert len(rows) == count
    assert {row["suggested_pledge"]["id"] for row in rows} == {a_pledge.pk}


# GET /api/campaigns/{id}/pledge-summary ---------------------------------------------------


def test_the_summary_counts_and_sums_pledges_by_state_pending_split_into_not_started_and_part_paid(
    organizer_client, campaign, organizer, django_assert_num_queries
):
    confirmed, partly, _pending = (make_pledge(campaign, amount=amount) for amount in (5000, 8000, 2000))
    pay_bill(confirmed.code, 6000, "SLKSUM0001")  # 1000 more than pledged
    pay_bill(partly.code, 3000, "SLKSUM0002")
    paid_donation(campaign, amount=400)

    with django_assert_num_queries(5):  # session, user, the campaign, the figures, the unmatched count
        response = organizer_client.get(f"/api/campaigns/{campaign.pk}/pledge-summary")

    assert response.json() == {
        "count": 3,
        "pledged_sum": 15_000,
        "confirmed_count": 1,
        "confirmed_sum": 5000,
        "pending_count": 2,
        "pending_sum": 10_000,
        "not_started_count": 1,
        "not_started_sum": 2000,
        "partly_paid_count": 1,
        "partly_paid_sum": 8000,
        "partly_paid_outstanding_sum": 5000,
        "paid_sum": 9000,
        "outstanding_sum": 7000,
        "unmatched_count": 0,
        "cancelled_count": 0,
    }
    assert totals(campaign) == (15_000, 9400, 3)


@pytest.mark.parametrize(
    "path",
    [
        "/api/campaigns/{id}/pledge-summary",
        "/api/campaigns/{id}/unmatched-payments",
        "/api/pledges/export.csv?campaign_id={id}",
        "/api/donations/export.csv?campaign_id={id}",
    ],
)
@pytest.mark.parametrize(("viewer", "status"), [("visitor", 401), ("member", 403)])
def test_pledge_management_is_for_the_organizer_and_admins_only(clients, campaign, path, viewer, status):
    make_pledge(campaign)

    response = clients[viewer].get(path.format(id=campaign.pk))

    assert response.status_code == status
    assert "njeri" not in response.content.decode().lower()


# CSV exports ---------------------------------------------------------------------------


def read_csv(response):
    content = b"".join(response.streaming_content).decode("utf-8")
    assert content.startswith("\ufeff")  # Excel reads UTF-8 only with the byte-order mark
    return list(csv.reader(io.StringIO(content[1:])))


@pytest.mark.parametrize("viewer", ["organizer", "admin"])
def test_the_pledge_export_holds_every_pledge_with_its_details(clients, viewer, campaign):
    first = make_pledge(campaign, name="Wairimu Kamau", anonymous=True)
    make_pledge(campaign, name='=HYPERLINK("http://evil")', email="evil@example.com")
    pay_bill(first.code, 2500, "SLKCSV0001")

    response = clients[viewer].get(f"/api/pledges/export.csv?campaign_id={campaign.pk}")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="pledges-campaign-{campaign.pk}-' in response["Content-Disposition"]
    header, one, two = read_csv(response)
    assert header == [
        "Date",
        "Name",
        "Email",
        "Phone",
        "Anonymous",
        "Amount (KES)",
        "Paid (KES)",
        "Remaining (KES)",
        "Status",
        "Pledge code",
        "Confirmed at",
        "Confirmed by",
        "Channel",
    ]
    assert (one[12], two[12]) == ("Online", "Online")
    assert one[1:10] == [
        "Wairimu Kamau",
        "wairimu@example.com",
        "+254711000222",
        "Yes",
        "10000",
        "2500",
        "7500",
        "Partly paid",
        first.code,
    ]
    assert two[1] == '\'=HYPERLINK("http://evil")'  # a formula would run in Excel


def test_export_cells_carry_no_control_characters_nor_formulas(organizer_client, campaign):
    # As stored before names were cleaned on the way in.
    Pledge.objects.filter(pk=make_pledge(campaign).pk).update(name="Wanjiru\r\nKamau\x1b[31m")
    Pledge.objects.filter(pk=make_pledge(campaign, email="sum@example.com").pk).update(name="  @SUM(A1:A9)")

    _header, one, two = read_csv(organizer_client.get(f"/api/pledges/export.csv?campaign_id={campaign.pk}"))

    assert one[1] == "Wanjiru  Kamau [31m"
    assert two[1] == "'  @SUM(A1:A9)"


def test_the_donation_export_holds_the_paid_donations(organizer_client, campaign):
    paid_donation(campaign, name="Chebet", email="chebet@example.com", anonymous=True, amount=1500)

    header, row = read_csv(organizer_client.get(f"/api/donations/export.csv?campaign_id={campaign.pk}"))

    assert header[:6] == ["Date", "Name", "Email", "Phone", "Anonymous", "Amount (KES)"]
    assert row[1:7] == ["Chebet", "chebet@example.com", "", "Yes", "1500", "Cash"]
