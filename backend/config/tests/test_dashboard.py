import pytest
from django.test import override_settings

from campaigns.models import CampaignStatus, CampaignType
from campaigns.tests.factories import CampaignFactory, CampaignLikeFactory
from organizations.models import Membership
from organizations.roles import Role
from pledges.services import pledge_confirm, pledge_payment_record
from pledges.tests.factories import make_pledge

pytestmark = pytest.mark.django_db

SIGN_IN = {"detail": "Please sign in to continue.", "code": "not_authenticated", "field_errors": {}}


def campaign_ids(answer):
    return [row["id"] for row in answer.json()["campaigns"]]


def test_signed_out_the_dashboard_asks_to_sign_in(visitor_client):
    answer = visitor_client.get("/api/dashboard")

    assert (answer.status_code, answer.json()) == (401, SIGN_IN)


@override_settings(ORGANIZATION_CONTENT_TOOL_URL="https://content.example.org/tool")
def test_a_new_user_sees_zero_figures_no_campaigns_and_the_external_tool(member_client):
    answer = member_client.get("/api/dashboard")

    assert answer.status_code == 200
    assert answer.json() == {
        "grant_matches": 0,
        "active_campaigns": 0,
        "total_pledged": 0,
        "total_paid": 0,
        "organization_content_tool_url": "https://content.example.org/tool",
        "support_email": "support@harambee.local",
        "campaigns": [],
    }


def test_the_organizer_sees_why_a_campaign_was_suspended_and_whom_to_write_to(organizer_client, organizer, settings):
    settings.SUPPORT_EMAIL = "help@harambee.example"
    CampaignFactory.create(organizer=organizer, status=CampaignStatus.SUSPENDED, suspension_reason="Unverified bank")

    answer = organizer_client.get("/api/dashboard").json()

    assert answer["support_email"] == "help@harambee.example"
    assert [(c["status"], c["suspension_reason"]) for c in answer["campaigns"]] == [("suspended", "Unverified bank")]


def test_the_figures_count_active_campaigns_and_sum_pledged_and_paid_over_all_of_the_users_campaigns(
    organizer_client, organizer
):
    # Pledged and paid as pledges with confirmed, partly paid and pending payments leave them.
    CampaignFactory.create(organizer=organizer, pledged_total=1_000_000, raised_total=1_000_000)
    CampaignFactory.create(organizer=organizer, pledged_total=234_000, raised_total=100_000)
    CampaignFactory.create(organizer=organizer, status=CampaignStatus.CLOSED, pledged_total=500, raised_total=0)
    CampaignFactory.create(organizer=organizer, status=CampaignStatus.PENDING)

    body = organizer_client.get("/api/dashboard").json()

    assert (body["active_campaigns"], body["total_pledged"], body["total_paid"]) == (2, 1_234_500, 1_100_000)


def test_a_legacy_fundraiser_is_listed_with_its_type_and_awaits_its_activation_like_any_campaign(
    organizer_client, organizer
):
    fundraiser = CampaignFactory.create(
        organizer=organizer, type=CampaignType.FUNDRAISING, status=CampaignStatus.PENDING, pledged_total=0
    )

    [row] = organizer_client.get("/api/dashboard").json()["campaigns"]

    assert (row["id"], row["type"], row["status"], row["viewer_role"]) == (
        fundraiser.pk,
        "fundraising",
        "pending",
        "owner",
    )


def test_only_the_callers_own_pledging_campaigns_are_shown_and_counted(organizer_client, organizer, member):
    own = CampaignFactory.create(organizer=organizer, pledged_total=10_000, raised_total=5_000)
    CampaignFactory.create(organizer=member, pledged_total=99_000, raised_total=99_000)
    CampaignFactory.create(organizer=organizer, type=CampaignType.CROWDFUNDING, pledged_total=7_000)

    body = organizer_client.get("/api/dashboard").json()

    assert [row["id"] for row in body["campaigns"]] == [own.pk]
    assert (body["active_campaigns"], body["total_pledged"], body["total_paid"]) == (1, 10_000, 5_000)


def test_a_team_member_sees_and_counts_the_campaigns_of_their_organizations_with_their_role(member_client, member):
    church = CampaignFactory.create(pledged_total=10_000, raised_total=5_000)
    school = CampaignFactory.create(pledged_total=2_000, raised_total=0)
    CampaignFactory.create(pledged_total=99_000)
    Membership.objects.create(organization=church.organization, user=member, role=Role.TREASURER)
    Membership.objects.create(organization=school.organization, user=member, role=Role.USHER)

    body = member_client.get("/api/dashboard").json()

    assert [(row["id"], row["viewer_role"]) for row in body["campaigns"]] == [
        (school.pk, "usher"),
        (church.pk, "treasurer"),
    ]
    assert (body["active_campaigns"], body["total_pledged"], body["total_paid"]) == (2, 12_000, 5_000)


def test_the_sums_come_from_the_confirmed_partly_paid_and_pending_pledges_of_the_callers_campaigns(
    organizer_client, organizer, member
):
    first = CampaignFactory.create(organizer=organizer)
    second = CampaignFactory.create(organizer=organizer)
    others = CampaignFactory.create(organizer=member)
    pledge_confirm(pledge_id=make_pledge(first, amount=10_000).pk, user=organizer)
    partly = make_pledge(first, amount=20_000)
    pledge_payment_record(pledge_id=partly.pk, user=organizer, amount=5_000, method="cash", note="", reference="")
    make_pledge(second, amount=30_000)
    pledge_confirm(pledge_id=make_pledge(others, amount=99_000).pk, user=member)

    body = organizer_client.get("/api/dashboard").json()

    assert [row["id"] for row in body["campaigns"]] == [second.pk, first.pk]
    assert (body["active_campaigns"], body["total_pledged"], body["total_paid"]) == (2, 60_000, 15_000)
    assert [(row["pledged_total"], row["raised_total"]) for row in body["campaigns"]] == [(30_000, 0), (30_000, 15_000)]


def test_campaigns_of_every_status_are_listed_newest_first_with_their_card_fields(organizer_client, organizer):
    active = CampaignFactory.create(
        organizer=organizer, title="Church Roof", category="church", goal=200_000, pledged_total=50_000
    )
    pending = CampaignFactory.create(organizer=organizer, status=CampaignStatus.PENDING, pledged_total=300_000)

    answer = organizer_client.get("/api/dashboard")

    assert campaign_ids(answer) == [pending.pk, active.pk]
    assert answer.json()["campaigns"][1] == {
        "id": active.pk,
        "type": "pledging",
        "title": "Church Roof",
        "category": "church",
        "category_label": "Church",
        "status": "active",
        "goal": 200_000,
        "pledged_total": 50_000,
        "raised_total": 0,
        "progress_percent": 25,
        "cover_image_url": "https://example.com/cover.jpg",
        "end_date": active.end_date.isoformat(),
        "has_ended": False,
        "like_count": None,
        "organization_id": active.organization_id,
        "organization_name": active.organization.name,
        "viewer_role": "owner",
        "suspension_reason": "",
    }
    # The bar is capped at 100%.
    assert answer.json()["campaigns"][0]["progress_percent"] == 100


def test_like_counts_are_shown_to_admins_only(organizer_client, organizer, site_admin_client, site_admin):
    organizers_campaign = CampaignFactory.create(organizer=organizer)
    admins_campaign = CampaignFactory.create(organizer=site_admin)
    CampaignLikeFactory.create_batch(3, campaign=organizers_campaign)
    CampaignLikeFactory.create_batch(2, campaign=admins_campaign)

    assert organizer_client.get("/api/dashboard").json()["campaigns"][0]["like_count"] is None
    assert site_admin_client.get("/api/dashboard").json()["campaigns"][0]["like_count"] == 2


@pytest.mark.parametrize("count", [1, 20])
def test_the_dashboard_takes_the_same_queries_for_one_or_twenty_campaigns(
    site_admin_client, site_admin, django_assert_num_queries, count
):
    for campaign in CampaignFactory.create_batch(count, organizer=site_admin):
        CampaignLikeFactory.create(campaign=campaign)

    # Session, user, the totals, the campaigns with their like counts, the grant profile (none here).
    with django_assert_num_queries(5):
        answer = site_admin_client.get("/api/dashboard")

    assert len(answer.json()["campaigns"]) == count
