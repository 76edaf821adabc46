"""What instalment plans promise by month beside what arrived: in the analytics and its CSV."""

import csv
import io
from datetime import date

import pytest
import time_machine

from campaigns.tests.factories import CampaignFactory
from pledges.models import InstalmentPlan
from pledges.services import pledge_cancel, pledge_payment_record
from pledges.tests.factories import make_pledge

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned(organizer):
    """On 10 March: 12,000 at 4,000 a month from 31 March, 5,000 at 2,500 a week from 1 April (its
    second instalment on 8 April), 3,000 paid in March towards the first, 2,000 paid in March on a
    pledge without a plan, and a cancelled plan that promises nothing."""
    with time_machine.travel(date(2026, 3, 10)):
        campaign = CampaignFactory.create(
            organizer=organizer, start_date=date(2026, 3, 1), end_date=date(2026, 12, 31), goal=100_000
        )
        monthly, weekly, cancelled = (make_pledge(campaign, amount=amount) for amount in (12_000, 5_000, 9_000))
        InstalmentPlan.objects.create(
            pledge=monthly, instalment=4_000, frequency="monthly", first_due_on=date(2026, 3, 31)
        )
        InstalmentPlan.objects.create(
            pledge=weekly, instalment=2_500, frequency="weekly", first_due_on=date(2026, 4, 1)
        )
        InstalmentPlan.objects.create(
            pledge=cancelled, instalment=9_000, frequency="monthly", first_due_on=date(2026, 4, 1)
        )
        pledge_cancel(pledge_id=cancelled.pk, user=organizer, reason="Duplicate")
        pledge_payment_record(
            pledge_id=monthly.pk, user=organizer, amount=3_000, method="cash", note="", reference="", received_on=None
        )
        without_plan = make_pledge(campaign, amount=6_000, phone="0711000333")
        pledge_payment_record(
            pledge_id=without_plan.pk, user=organizer, amount=2_000, method="cash", note="", reference="1"
        )
    return campaign


def test_the_analytics_show_what_plans_promise_by_month_beside_what_arrived_towards_them_and_in_all(
    organizer_client, planned
):
    with time_machine.travel(date(2026, 3, 10)):
        months = organizer_client.get(f"/api/campaigns/{planned.pk}/analytics").json()["plan_months"]

    assert months == [
        # 31 March: the last day of the month. All the money: the plan's 3,000 and another pledge's 2,000.
        {"month": "2026-03-01", "promised": 4_000, "arrived": 5_000, "towards_plans": 3_000},
        {"month": "2026-04-01", "promised": 9_000, "arrived": 0, "towards_plans": 0},  # 4,000 + two weekly 2,500
        {"month": "2026-05-01", "promised": 4_000, "arrived": 0, "towards_plans": 0},
    ]


def test_a_campaign_without_plans_has_no_plan_months(organizer_client, campaign):
    make_pledge(campaign, amount=5_000)

    assert organizer_client.get(f"/api/campaigns/{campaign.pk}/analytics").json()["plan_months"] == []


def test_the_analytics_csv_lists_pledged_paid_and_promised_by_month(organizer_client, planned):
    with time_machine.travel(date(2026, 3, 10)):
        answer = organizer_client.get(f"/api/campaigns/{planned.pk}/analytics.csv")
        body = b"".join(answer.streaming_content).decode("utf-8-sig")

    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert list(csv.reader(io.StringIO(body))) == [
        [
            "Month",
            "Pledged (KES)",
            "Paid (KES)",
            "Promised by instalment plans (KES)",
            "Paid towards instalment plans (KES)",
        ],
        ["2026-03", "23000", "5000", "4000", "3000"],
        ["2026-04", "0", "0", "9000", "0"],
        ["2026-05", "0", "0", "4000", "0"],
    ]


def test_only_the_campaign_s_team_reads_the_analytics_csv(member_client, planned):
    assert member_client.get(f"/api/campaigns/{planned.pk}/analytics.csv").status_code == 403
