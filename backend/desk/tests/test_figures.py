"""Every figure a committee reads, on one campaign built to tell them apart: a pledge not started,
one part-paid, one paid in full, a plan ahead and a plan behind, a gift without a pledge and cash
at the desk, one donor and one payer giving twice. Each figure counts only what it says (the selectors that define them, through HTTP)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from desk.tests.test_desk_api import entry, member_client
from events.tests.factories import open_event
from organizations.roles import Role
from pledges.instalments import PlanTerms
from pledges.models import Pledge
from pledges.services import pledge_payment_record, pledge_plan_set
from pledges.tests.factories import make_pledge, paid_donation

pytestmark = pytest.mark.django_db


def pay(pledge, organizer, amount, reference):
    pledge_payment_record(
        pledge_id=pledge.pk, user=organizer, amount=amount, method="cash", note="", reference=reference
    )


@pytest.fixture
def committee_campaign(campaign, organizer, make_api_client):
    """The campaign's night is open: every entry below falls within it."""
    event = open_event(campaign, opened_minutes_ago=60)
    today = timezone.localdate()
    make_pledge(campaign, amount=2_000, phone="0712000001")  # not started
    part_paid = make_pledge(campaign, amount=8_000, phone="0712000002")
    pay(part_paid, organizer, 3_000, "R1")
    paid = make_pledge(campaign, amount=5_000, phone="0712000003")
    pay(paid, organizer, 5_000, "R2")
    ahead = make_pledge(campaign, amount=9_000, phone="0712000004")
    pledge_plan_set(pledge_id=ahead.pk, user=organizer, terms=PlanTerms(3_000, "weekly", today + timedelta(days=3)))
    pay(ahead, organizer, 6_000, "R3")  # two of three instalments before the first falls due
    behind = make_pledge(campaign, amount=6_000, phone="0712000005")
    pledge_plan_set(pledge_id=behind.pk, user=organizer, terms=PlanTerms(2_000, "weekly", today - timedelta(days=8)))
    paid_donation(campaign, name="Gift without a pledge", amount=400)
    usher = member_client(campaign, make_api_client, Role.USHER)
    assert entry(usher, event, kind="cash", amount=1_500, phone="").status_code == 201
    return campaign, event, {"ahead": ahead, "behind": behind}


def test_pending_is_split_into_not_started_and_part_paid(organizer_client, committee_campaign):
    campaign, _event, _plans = committee_campaign

    summary = organizer_client.get(f"/api/campaigns/{campaign.pk}/pledge-summary").json()

    # Not started: 2,000 and the plan behind (6,000). Part-paid: 8,000 (3,000 paid) and the plan ahead (9,000, 6,000 paid).
    assert (summary["not_started_count"], summary["not_started_sum"]) == (2, 8_000)
    assert (summary["partly_paid_count"], summary["partly_paid_sum"]) == (2, 17_000)
    assert summary["partly_paid_outstanding_sum"] == 5_000 + 3_000
    assert (summary["pending_count"], summary["pending_sum"]) == (4, 25_000)
    assert (summary["confirmed_count"], summary["paid_sum"]) == (1, 14_000)  # gifts are not pledge payments


def test_the_plan_panel_tells_money_towards_plans_from_all_money_in(organizer_client, committee_campaign):
    campaign, _event, _plans = committee_campaign

    months = organizer_client.get(f"/api/campaigns/{campaign.pk}/analytics").json()["plan_months"]
    [this_month] = [month for month in months if month["month"] == str(timezone.localdate().replace(day=1))]

    # All money: every pledge payment, the gift and the desk's cash; towards plans: the plan ahead's 6,000.
    assert this_month["arrived"] == 3_000 + 5_000 + 6_000 + 400 + 1_500
    assert this_month["towards_plans"] == 6_000


def test_the_pledge_page_offers_each_plan_what_is_due(visitor_client, committee_campaign):
    _campaign, _event, plans = committee_campaign

    ahead = visitor_client.get(f"/api/pledges/{plans['ahead'].code}").json()
    behind = visitor_client.get(f"/api/pledges/{plans['behind'].code}").json()

    assert (ahead["amount_due"], ahead["remaining_amount"]) == (3_000, 3_000)  # the last instalment
    assert (behind["amount_due"], behind["remaining_amount"]) == (4_000, 6_000)  # two weekly instalments missed


def test_the_night_counts_pledges_and_every_gift_of_the_night(visitor_client, organizer_client, committee_campaign):
    campaign, event, _plans = committee_campaign

    screen = visitor_client.get(f"/api/campaigns/{campaign.pk}/live").json()["event"]
    night = organizer_client.get(f"/api/events/{event.pk}/report").json()

    assert (screen["pledged_total"], screen["given_total"]) == (30_000, 1_900)
    assert (night["shown_pledged"], night["shown_given"]) == (30_000, 1_900)


def test_donors_are_people_who_gave_without_a_pledge_and_payers_people_who_paid(
    visitor_client, organizer, make_api_client, committee_campaign
):
    campaign, event, _plans = committee_campaign
    detail = visitor_client.get(f"/api/campaigns/{campaign.pk}").json()
    # Payers: the part-paid, the paid and the plan ahead (the pledge not started and the plan behind paid
    # nothing). Donors: the gift and the desk's cash, neither with a contact, so a person each.
    assert (detail["payers"], detail["donors"]) == (3, 2)

    paid_pledger_again = make_pledge(campaign, amount=1_000, phone="+254712000003")  # as typed another way
    pay(paid_pledger_again, organizer, 1_000, "R4")
    pay(Pledge.objects.get(phone="+254712000002"), organizer, 1_000, "R5")  # the part-paid pays again
    paid_donation(campaign, name="Wanjiku", email="wanjiku@example.com", anonymous=True)
    paid_donation(campaign, name="Wanjiku", email="Wanjiku@Example.com")
    usher = member_client(campaign, make_api_client, Role.USHER)
    for amount in (200, 300):  # one giver at the desk twice, by their number
        assert entry(usher, event, kind="cash", amount=amount, phone="0712000009").status_code == 201

    detail = visitor_client.get(f"/api/campaigns/{campaign.pk}").json()
    assert (detail["payers"], detail["donors"]) == (3, 2 + 1 + 1)
