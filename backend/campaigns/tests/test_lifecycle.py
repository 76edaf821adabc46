"""A campaign's life after launch: its owners move the end date and close it early; ended and closed
campaigns keep their page for their pledgers but leave Explore and take nothing new."""

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditAction, AuditEntry
from campaigns.models import CampaignStatus
from campaigns.tests.factories import CampaignFactory
from organizations.models import Membership
from organizations.roles import Role

pytestmark = pytest.mark.django_db


def days_from_today(days: int) -> str:
    return (timezone.localdate() + timedelta(days=days)).isoformat()


def explore_ids(client) -> list[int]:
    return [row["id"] for row in client.get("/api/campaigns").json()]


def test_an_owner_extends_the_end_date_and_the_move_is_audited(organizer_client, organizer, campaign):
    old_end = campaign.end_date.isoformat()

    response = organizer_client.patch(f"/api/campaigns/{campaign.pk}", {"end_date": days_from_today(90)})

    assert response.status_code == 200
    assert (response.json()["end_date"], response.json()["days_left"]) == (days_from_today(90), 90)
    [entry] = AuditEntry.objects.filter(action=AuditAction.CAMPAIGN_END_DATE_CHANGED)
    assert (entry.actor, entry.before, entry.after) == (
        organizer,
        {"end_date": old_end},
        {"end_date": days_from_today(90)},
    )


def test_an_owner_shortens_the_end_date_to_today_but_never_into_the_past(organizer_client, campaign):
    past = organizer_client.patch(f"/api/campaigns/{campaign.pk}", {"end_date": days_from_today(-1)})
    today = organizer_client.patch(f"/api/campaigns/{campaign.pk}", {"end_date": days_from_today(0)})

    assert past.status_code == 422
    assert past.json()["field_errors"] == {"end_date": "End date cannot be in the past"}
    assert (today.status_code, today.json()["has_ended"]) == (200, False)


def test_an_ended_campaign_extended_is_back_on_explore(organizer_client, visitor_client, organizer):
    ended = CampaignFactory.create(organizer=organizer, end_date=timezone.localdate() - timedelta(days=2))
    assert explore_ids(visitor_client) == []

    organizer_client.patch(f"/api/campaigns/{ended.pk}", {"end_date": days_from_today(14)})

    assert explore_ids(visitor_client) == [ended.pk]


def test_a_treasurer_cannot_move_the_end_date(make_api_client, campaign):
    treasurer = Membership.objects.create(
        organization=campaign.organization, user=CampaignFactory.create().organizer, role=Role.TREASURER
    ).user

    response = make_api_client(signed_in_as=treasurer).patch(
        f"/api/campaigns/{campaign.pk}", {"end_date": days_from_today(90)}
    )

    assert response.status_code == 403
    assert not AuditEntry.objects.exists()


def test_an_owner_closes_a_campaign_early_audited_and_it_leaves_explore(
    organizer_client, visitor_client, organizer, campaign
):
    response = organizer_client.post(f"/api/campaigns/{campaign.pk}/close")

    assert response.status_code == 200
    assert (response.json()["status"], response.json()["can_share"]) == ("closed", False)
    [entry] = AuditEntry.objects.filter(action=AuditAction.CAMPAIGN_STATUS_CHANGED)
    assert (entry.actor, entry.before, entry.after) == (organizer, {"status": "active"}, {"status": "closed"})
    assert explore_ids(visitor_client) == []


def test_only_an_active_campaign_is_closed_and_a_closed_one_keeps_its_end_date(organizer_client, campaign):
    organizer_client.post(f"/api/campaigns/{campaign.pk}/close")

    again = organizer_client.post(f"/api/campaigns/{campaign.pk}/close")
    moved = organizer_client.patch(f"/api/campaigns/{campaign.pk}", {"end_date": days_from_today(60)})

    assert (again.status_code, again.json()["code"]) == (400, "campaign_not_active")
    assert moved.json()["field_errors"] == {"end_date": "A closed campaign's end date cannot change."}


@pytest.mark.parametrize(
    ("status", "days", "has_ended"),
    [(CampaignStatus.CLOSED, 30, False), (CampaignStatus.ACTIVE, -1, True)],
    ids=["closed", "ended"],
)
def test_closed_and_ended_campaigns_keep_a_public_page_with_their_totals(visitor_client, status, days, has_ended):
    campaign = CampaignFactory.create(
        status=status, end_date=timezone.localdate() + timedelta(days=days), pledged_total=40_000, raised_total=25_000
    )

    body = visitor_client.get(f"/api/campaigns/{campaign.pk}").json()

    assert (body["status"], body["has_ended"], body["pledged_total"], body["raised_total"]) == (
        status,
        has_ended,
        40_000,
        25_000,
    )
    assert explore_ids(visitor_client) == []
