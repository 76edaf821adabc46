import pytest

from accounts.demo import demo_users_load
from campaigns.demo import demo_campaigns_load
from campaigns.models import Campaign
from payments.models import Payment
from pledges.demo import DEMO_PLEDGES, PLEDGED_CAMPAIGNS, demo_pledges_load
from pledges.instalments import PlanStanding, Standing
from pledges.models import Donation, Pledge

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    demo_users_load()
    demo_campaigns_load()
    return demo_pledges_load()


def test_the_demo_has_pledges_in_every_state_an_unmatched_payment_and_the_ministry_campaign(demo, visitor_client):
    assert visitor_client.get("/api/ministry-campaign").json() == {"campaign_id": demo.pk}
    pledges = Pledge.objects.filter(campaign=demo)
    assert pledges.count() == len(DEMO_PLEDGES)
    assert set(pledges.values_list("status", flat=True)) == {"pending", "partly_paid", "confirmed"}
    assert pledges.filter(is_anonymous=True).exists()
    assert any(pledge.overpaid_amount for pledge in pledges)
    unmatched = Payment.objects.filter(campaign=demo, purpose="pledge_payment", pledge_link__isnull=True)
    assert unmatched.count() == 1
    demo.refresh_from_db()
    paid = sum(pledge.paid_amount for pledge in pledges)
    donated = sum(Donation.objects.filter(campaign=demo).values_list("amount", flat=True))
    assert (demo.pledged_total, demo.raised_total) == (sum(p[4] for p in DEMO_PLEDGES), paid + donated)
    assert Campaign.objects.filter(title__in=PLEDGED_CAMPAIGNS, pledges__isnull=False).distinct().count() == len(
        PLEDGED_CAMPAIGNS
    )


def test_the_demo_has_a_plan_on_track_and_one_behind_by_an_instalment_in_each_pledged_campaign(demo):
    standings = {
        (pledge.campaign_id, pledge.name): pledge.plan.standing()
        for pledge in Pledge.objects.filter(instalment_plan__isnull=False).select_related("instalment_plan")
        if pledge.plan is not None
    }

    assert len(standings) == 2 * (len(PLEDGED_CAMPAIGNS) + 1)
    assert {(standing.standing, standing.behind_count) for standing in standings.values()} == {
        (Standing.ON_TRACK, 0),
        (Standing.BEHIND, 1),
    }
    assert standings[demo.pk, "Samuel Kiptoo"] == PlanStanding(Standing.BEHIND, 1, 5_000)


def test_loading_the_demo_again_adds_nothing(demo):
    counts = (Campaign.objects.count(), Pledge.objects.count(), Donation.objects.count(), Payment.objects.count())

    demo_pledges_load()

    assert (
        Campaign.objects.count(),
        Pledge.objects.count(),
        Donation.objects.count(),
        Payment.objects.count(),
    ) == counts
