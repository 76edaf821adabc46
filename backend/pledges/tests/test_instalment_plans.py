"""Instalment plans through the API: chosen when pledging, set later by the pledger from their
pledge page (by its code) or by a treasurer, and where each pledger stands in Pledge Management."""

from datetime import date, timedelta

import pytest
import time_machine
from django.utils import timezone

from audit.models import AuditAction, AuditEntry
from campaigns.tests.factories import CampaignFactory
from pledges.models import InstalmentPlan
from pledges.services import pledge_payment_record
from pledges.tests.factories import make_pledge

pytestmark = pytest.mark.django_db

JSON = "application/json"


def today() -> date:
    return timezone.localdate()


def plan(instalment=5_000, frequency="monthly", first_due_on=None) -> dict[str, object]:
    return {
        "instalment": instalment,
        "frequency": frequency,
        "first_due_on": str(first_due_on or today() + timedelta(days=1)),
    }


def pledge_with_plan(client, campaign, chosen: dict[str, object]):
    """POST /api/pledges: Ksh 60,000 pledged with the ``chosen`` plan."""
    body = {
        "campaign_id": campaign.pk,
        "amount": 60_000,
        "name": "Njeri Wanjiru",
        "email": "njeri@example.com",
        "phone": "0711000222",
        "plan": chosen,
    }
    return client.post("/api/pledges", body)


@pytest.fixture
def building(organizer):
    """A building drive a year long, with a Ksh 60,000 pledge to it."""
    return CampaignFactory.create(organizer=organizer, goal=1_000_000, end_date=today() + timedelta(days=365))


def test_a_pledge_made_with_a_plan_answers_its_plan(visitor_client, building):
    answer = pledge_with_plan(visitor_client, building, plan(instalment=7_000))

    assert answer.status_code == 201, answer.content
    body = answer.json()["plan"]
    assert body["instalment_count"] == 9  # eight of 7,000 and a last of 4,000
    assert body["standing"] == "on_track"
    assert body["next_due_amount"] == 7_000
    assert InstalmentPlan.objects.get(pledge__code=answer.json()["code"]).instalment == 7_000


def test_a_plan_ending_after_the_campaign_is_refused_with_its_last_date(visitor_client, building):
    answer = pledge_with_plan(visitor_client, building, plan(instalment=1_000))  # 60 months

    assert answer.status_code == 422
    assert "The plan must end by" in answer.json()["field_errors"]["instalment"]
    assert not InstalmentPlan.objects.exists()


def test_a_campaign_that_allows_it_takes_plans_up_to_24_months_past_its_end(visitor_client, building):
    building.instalments_past_end = True
    building.save()
    pledge = make_pledge(building, amount=60_000)

    accepted = visitor_client.put(f"/api/pledges/{pledge.code}/plan", plan(instalment=2_000), content_type=JSON)
    refused = visitor_client.put(f"/api/pledges/{pledge.code}/plan", plan(instalment=1_000), content_type=JSON)

    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["instalment_count"] == 30
    assert refused.status_code == 422


def test_the_pledger_changes_their_plan_from_the_pledge_page_but_not_into_the_past(visitor_client, building):
    pledge = make_pledge(building, amount=60_000)

    set_once = visitor_client.put(f"/api/pledges/{pledge.code.lower()}/plan", plan(), content_type=JSON)
    changed = visitor_client.put(f"/api/pledges/{pledge.code}/plan", plan(frequency="weekly"), content_type=JSON)
    backdated = visitor_client.put(
        f"/api/pledges/{pledge.code}/plan", plan(first_due_on=today() - timedelta(days=1)), content_type=JSON
    )

    assert (set_once.status_code, changed.status_code) == (200, 200)
    assert InstalmentPlan.objects.get(pledge=pledge).frequency == "weekly"
    assert backdated.status_code == 422
    assert backdated.json()["field_errors"] == {"first_due_on": "The first instalment cannot fall due in the past."}
    assert visitor_client.get(f"/api/pledges/{pledge.code}").json()["plan"]["frequency"] == "weekly"


def test_a_fully_paid_pledge_takes_no_plan(visitor_client, building, organizer):
    pledge = make_pledge(building, amount=5_000)
    pledge_payment_record(
        pledge_id=pledge.pk, user=organizer, amount=5_000, method="cash", note="", reference="", received_on=None
    )

    answer = visitor_client.put(f"/api/pledges/{pledge.code}/plan", plan(instalment=1_000), content_type=JSON)

    assert answer.status_code == 400
    assert answer.json()["code"] == "pledge_paid"


def test_a_treasurer_records_a_plan_already_running_and_it_is_audited(organizer_client, building, organizer):
    pledge = make_pledge(building, amount=60_000)
    started = today() - timedelta(days=40)

    answer = organizer_client.put(
        f"/api/pledges/{pledge.pk}/instalment-plan", plan(first_due_on=started), content_type=JSON
    )

    assert answer.status_code == 200, answer.content
    assert answer.json()["plan"]["standing"] == "behind"
    assert answer.json()["plan"]["behind_count"] == 2
    assert answer.json()["plan"]["behind_amount"] == 10_000
    entry = AuditEntry.objects.get(action=AuditAction.PLEDGE_PLAN_SET)
    assert entry.actor == organizer
    assert entry.after["first_due_on"] == str(started)


def test_pledge_management_shows_each_plan_s_standing_and_filters_those_behind(organizer_client, building, organizer):
    on_track, behind, ahead, _no_plan = (make_pledge(building, amount=60_000, name=name) for name in "ABCD")
    last_month = today() - timedelta(days=20)
    for pledge in (on_track, behind, ahead):
        InstalmentPlan.objects.create(pledge=pledge, instalment=5_000, frequency="monthly", first_due_on=last_month)
    for pledge, amount in ((on_track, 5_000), (ahead, 15_000)):
        pledge_payment_record(
            pledge_id=pledge.pk, user=organizer, amount=amount, method="cash", note="", reference="", received_on=None
        )

    listed = organizer_client.get("/api/pledges", {"campaign_id": building.pk}).json()
    filtered = organizer_client.get("/api/pledges", {"campaign_id": building.pk, "behind": "true"})

    standings = {row["name"]: row["plan"] and row["plan"]["standing"] for row in listed}
    assert standings == {"A": "on_track", "B": "behind", "C": "ahead", "D": None}
    assert [row["id"] for row in filtered.json()] == [behind.pk]
    assert filtered["X-Total-Count"] == "1"


def test_the_pledge_list_reads_plans_in_the_same_query(organizer_client, building, django_assert_max_num_queries):
    for name in "ABCDE":
        pledge = make_pledge(building, amount=60_000, name=name)
        InstalmentPlan.objects.create(pledge=pledge, instalment=5_000, frequency="monthly", first_due_on=today())
    organizer_client.get("/api/pledges", {"campaign_id": building.pk})

    with django_assert_max_num_queries(12) as captured:
        organizer_client.get("/api/pledges", {"campaign_id": building.pk})

    assert not [query for query in captured.captured_queries if "pledges_instalmentplan" in query["sql"]][1:]


def test_visitors_never_see_a_plan_on_the_campaign_s_list(visitor_client, building):
    pledge = make_pledge(building, amount=60_000)
    InstalmentPlan.objects.create(pledge=pledge, instalment=5_000, frequency="monthly", first_due_on=today())

    assert visitor_client.get("/api/pledges", {"campaign_id": building.pk}).json()[0]["plan"] is None


def test_monthly_plans_started_on_the_31st_fall_on_the_last_day_of_shorter_months(visitor_client, organizer):
    with time_machine.travel(date(2027, 1, 20)):
        campaign = CampaignFactory.create(organizer=organizer, goal=100_000, end_date=date(2027, 12, 31))
        pledge = make_pledge(campaign, amount=20_000)
        answer = visitor_client.put(
            f"/api/pledges/{pledge.code}/plan", plan(first_due_on=date(2027, 1, 31)), content_type=JSON
        )
        pledge_payment_record(
            pledge_id=pledge.pk, user=organizer, amount=5_000, method="cash", note="", reference="", received_on=None
        )
        page = visitor_client.get(f"/api/pledges/{pledge.code}").json()

    assert answer.json()["last_due_on"] == "2027-04-30"
    assert page["plan"]["next_due_on"] == "2027-02-28"


def test_owners_let_plans_run_past_the_end_of_their_campaign(organizer_client, building):
    answer = organizer_client.patch(f"/api/campaigns/{building.pk}", {"instalments_past_end": True})

    assert answer.status_code == 200, answer.content
    assert answer.json()["instalments_past_end"] is True
    building.refresh_from_db()
    assert building.instalments_past_end
