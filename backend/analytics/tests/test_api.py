"""GET /api/campaigns/{id}/analytics: who may read it, and its figures from real pledges and payments."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from analytics.models import CampaignDailyVisits
from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import TEST_PAYBILL
from payments.models import MpesaConnection, Payment
from payments.services import payment_record_c2b_confirmation, payment_record_stk_callback
from payments.tests.support import pending_stk_intent, stk_callback
from pledges.models import Pledge
from pledges.services import pledge_payment_record
from pledges.tests.factories import PledgeFactory, make_pledge, paid_donation

pytestmark = pytest.mark.django_db


def url(campaign):
    return f"/api/campaigns/{campaign.pk}/analytics"


def pay_bill(pledge, amount, trans_id="SLK4Q7T2XZ"):
    """A paybill payment with the pledge code as account number, as Safaricom confirms it to the
    church's connected paybill."""
    payment_record_c2b_confirmation(
        body={
            "TransactionType": "Pay Bill",
            "TransID": trans_id,
            "TransTime": "20261122103000",
            "TransAmount": f"{amount}.00",
            "BusinessShortCode": TEST_PAYBILL,
            "BillRefNumber": pledge.code,
            "MSISDN": "2547 ***** 101",
            "FirstName": "Wanjiku",
        },
        remote_addr=None,
        connection=MpesaConnection.objects.get(account__paybill_number=TEST_PAYBILL),
    )


def pay_by_stk(pledge, amount):
    """'Pay now with M-Pesa' on the pledge, approved on the phone."""
    pending_stk_intent(amount=amount, purpose=Payment.Purpose.PLEDGE_PAYMENT, account_reference=pledge.code)
    payment_record_stk_callback(body=stk_callback("ws_CO_TEST0001", amount=amount), remote_addr="127.0.0.1")


@pytest.fixture
def pledged_campaign(campaign, organizer):
    """Confirmed, partly paid and pending pledges, paid by paybill, STK Push and cash, and a donation."""
    pay_bill(make_pledge(campaign, amount=10_000), 10_000)
    pay_by_stk(make_pledge(campaign, amount=20_000), 5_000)
    cash = make_pledge(campaign, amount=8_000)
    pledge_payment_record(pledge_id=cash.pk, user=organizer, amount=2_000, method="cash", note="", reference="")
    make_pledge(campaign, amount=30_000)
    paid_donation(campaign, amount=1_500)
    # Neither an unmatched paybill payment nor the activation fee is money raised by the campaign.
    Payment.objects.create(
        provider=Payment.Provider.MPESA_C2B,
        purpose=Payment.Purpose.CAMPAIGN_ACTIVATION,
        amount=500,
        status=Payment.Status.SUCCEEDED,
        campaign=campaign,
        settled_at=timezone.now(),
    )
    CampaignDailyVisits.objects.create(campaign=campaign, day=timezone.localdate(), views=25, visitors=10)
    campaign.refresh_from_db()
    return campaign


def test_signed_out_analytics_ask_to_sign_in(visitor_client, campaign):
    answer = visitor_client.get(url(campaign))

    assert (answer.status_code, answer.json()["code"]) == (401, "not_authenticated")


def test_another_organizer_may_not_read_a_campaigns_analytics(member_client, campaign):
    answer = member_client.get(url(campaign))

    assert (answer.status_code, answer.json()["code"]) == (403, "not_organizer")
    assert (
        answer.json()["detail"]
        == "Only the campaign's owners, treasurers and viewers, or an admin, can see its analytics."
    )


def test_hidden_and_unknown_campaigns_are_not_found(member_client, pending_campaign):
    assert member_client.get(url(pending_campaign)).status_code == 404
    assert member_client.get("/api/campaigns/999999/analytics").status_code == 404


def test_the_organizer_and_admins_read_the_same_figures(organizer_client, site_admin_client, pledged_campaign):
    answer = organizer_client.get(url(pledged_campaign))

    assert answer.status_code == 200
    assert site_admin_client.get(url(pledged_campaign)).json() == answer.json()


def test_the_figures_add_up_pledges_by_state_and_payments_by_method(organizer_client, pledged_campaign):
    body = organizer_client.get(url(pledged_campaign)).json()

    assert (body["campaign_id"], body["title"], body["status"], body["goal"]) == (
        pledged_campaign.pk,
        "Church Roof Repair",
        "active",
        100_000,
    )
    # The same totals as the campaign's counters.
    assert (body["pledged_total"], body["paid_total"]) == (68_000, 18_500)
    assert (pledged_campaign.pledged_total, pledged_campaign.raised_total) == (68_000, 18_500)
    assert body["pledges_by_status"] == [
        {"status": "confirmed", "label": "Confirmed", "count": 1, "amount": 10_000, "paid": 10_000},
        {"status": "partly_paid", "label": "Partly paid", "count": 2, "amount": 28_000, "paid": 7_000},
        {"status": "pending", "label": "Pending", "count": 1, "amount": 30_000, "paid": 0},
    ]
    assert body["payments_by_method"] == [
        {"method": "mpesa_stk", "label": "M-Pesa (STK Push)", "count": 1, "amount": 5_000},
        {"method": "mpesa_c2b", "label": "M-Pesa (paybill)", "count": 1, "amount": 10_000},
        {"method": "card", "label": "Card", "count": 0, "amount": 0},
        {"method": "cash", "label": "Cash", "count": 2, "amount": 3_500},
        {"method": "bank", "label": "Bank transfer", "count": 0, "amount": 0},
        {"method": "mpesa_manual", "label": "M-Pesa to the organization's number", "count": 0, "amount": 0},
        {"method": "airtel", "label": "Airtel Money", "count": 0, "amount": 0},
    ]
    # Four pledges and a donation among ten visitors.
    assert (body["pledge_count"], body["donation_count"], body["views"], body["visitors"]) == (4, 1, 25, 10)
    assert body["conversion_percent"] == 50.0
    today = {
        "day": timezone.localdate().isoformat(),
        "pledged": 68_000,
        "paid": 18_500,
        "donated": 1_500,
        "pledged_cumulative": 68_000,
        "paid_cumulative": 18_500,
        "views": 25,
        "visitors": 10,
    }
    assert (body["days"], body["top_days"]) == ([today], [today])


def days_ago(days):
    moment = timezone.localtime() - timedelta(days=days)
    return timezone.make_aware(datetime.combine(moment.date(), datetime.min.time().replace(hour=12)))


def test_pledged_and_paid_add_up_day_by_day_from_the_start_to_today(organizer_client, campaign, organizer):
    today = timezone.localdate()
    campaign.start_date = today - timedelta(days=3)
    campaign.save()
    early = make_pledge(campaign, amount=10_000)
    Pledge.objects.filter(pk=early.pk).update(created_at=days_ago(2))
    pledge_payment_record(pledge_id=early.pk, user=organizer, amount=4_000, method="cash", note="", reference="")
    make_pledge(campaign, amount=5_000)

    body = organizer_client.get(url(campaign)).json()

    assert [(day["day"], day["pledged_cumulative"], day["paid_cumulative"]) for day in body["days"]] == [
        ((today - timedelta(days=3)).isoformat(), 0, 0),
        ((today - timedelta(days=2)).isoformat(), 10_000, 0),
        ((today - timedelta(days=1)).isoformat(), 10_000, 0),
        (today.isoformat(), 15_000, 4_000),
    ]
    # The best days first; days without pledges or donations are not among them.
    assert [day["day"] for day in body["top_days"]] == [(today - timedelta(days=2)).isoformat(), today.isoformat()]


def test_a_campaign_that_ended_stops_at_its_end_date(organizer_client, organizer):
    today = timezone.localdate()
    ended = CampaignFactory.create(
        organizer=organizer, start_date=today - timedelta(days=10), end_date=today - timedelta(days=8)
    )

    days = organizer_client.get(url(ended)).json()["days"]

    assert [day["day"] for day in days] == [(today - timedelta(days=n)).isoformat() for n in (10, 9, 8)]


def test_conversion_counts_only_pledges_made_since_views_were_counted(organizer_client, campaign):
    campaign.start_date = timezone.localdate() - timedelta(days=5)
    campaign.save()
    before = make_pledge(campaign, amount=1_000)
    Pledge.objects.filter(pk=before.pk).update(created_at=days_ago(4))
    make_pledge(campaign, amount=2_000)
    CampaignDailyVisits.objects.create(campaign=campaign, day=timezone.localdate(), views=8, visitors=4)

    body = organizer_client.get(url(campaign)).json()

    assert (body["pledge_count"], body["visitors"], body["conversion_percent"]) == (2, 4, 25.0)


def test_before_any_view_conversion_is_unknown(organizer_client, campaign):
    make_pledge(campaign, amount=1_000)

    body = organizer_client.get(url(campaign)).json()

    assert (body["views"], body["visitors"], body["conversion_percent"]) == (0, 0, None)


@pytest.mark.parametrize("count", [1, 50])
def test_the_analytics_take_the_same_queries_for_one_or_fifty_rows(
    organizer_client, campaign, organizer, django_assert_num_queries, count
):
    campaign.start_date = timezone.localdate() - timedelta(days=count)
    campaign.save()
    for index, row in enumerate(PledgeFactory.create_batch(count, campaign=campaign)):
        Pledge.objects.filter(pk=row.pk).update(created_at=days_ago(index % 30))
        pledge_payment_record(pledge_id=row.pk, user=organizer, amount=1_000, method="cash", note="", reference="")
        paid_donation(campaign, amount=100 + index)
        CampaignDailyVisits.objects.create(
            campaign=campaign, day=timezone.localdate() - timedelta(days=index), views=3, visitors=2
        )

    # Session, user, the campaign, then pledges by day and state, counted payments by day and method, visits,
    # and the instalment plans (none here, so no payments by month).
    with django_assert_num_queries(7):
        answer = organizer_client.get(url(campaign))

    assert answer.json()["pledge_count"] == count
    assert answer.json()["donation_count"] == count
