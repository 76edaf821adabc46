"""A campaign's events through HTTP: announced, opened and closed by its owners."""

from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import Event, EventState
from events.tests.factories import open_event
from organizations.models import Membership
from organizations.roles import Role

pytestmark = pytest.mark.django_db

TONIGHT = timezone.now().replace(microsecond=0) + timedelta(hours=2)


def announce(client, campaign, **changes):
    body = {
        "title": "Harambee Sunday",
        "starts_at": TONIGHT.isoformat(),
        "ends_at": (TONIGHT + timedelta(hours=3)).isoformat(),
    }
    return client.post(f"/api/campaigns/{campaign.pk}/events", {**body, **changes})


def test_an_owner_announces_opens_and_closes_an_event(organizer_client, campaign):
    created = announce(organizer_client, campaign)
    assert created.status_code == 201
    event_id = created.json()["id"]
    assert created.json()["state"] == EventState.SCHEDULED

    opened = organizer_client.post(f"/api/events/{event_id}/open")
    assert opened.status_code == 200
    assert opened.json()["state"] == EventState.OPEN
    assert organizer_client.get(f"/api/campaigns/{campaign.pk}/live").json()["event"]["id"] == event_id

    closed = organizer_client.post(f"/api/events/{event_id}/close")
    assert closed.json()["state"] == EventState.CLOSED
    assert organizer_client.get(f"/api/campaigns/{campaign.pk}/live").json()["event"] is None

    listed = organizer_client.get(f"/api/campaigns/{campaign.pk}/events").json()
    assert [(e["id"], e["state"]) for e in listed] == [(event_id, "closed")]


def test_an_event_ends_after_it_starts(organizer_client, campaign):
    response = announce(organizer_client, campaign, ends_at=(TONIGHT - timedelta(minutes=1)).isoformat())
    assert response.status_code == 422
    assert response.json()["field_errors"] == {"ends_at": "The end must be after the start."}
    assert not Event.objects.exists()


def test_a_blank_title_is_refused(organizer_client, campaign):
    response = announce(organizer_client, campaign, title="   ")
    assert response.status_code == 422
    assert "title" in response.json()["field_errors"]


def test_a_campaign_runs_one_event_at_a_time(organizer_client, campaign):
    open_event(campaign, title="Morning service")
    second = announce(organizer_client, campaign).json()["id"]

    response = organizer_client.post(f"/api/events/{second}/open")

    assert response.status_code == 400
    assert response.json()["code"] == "event_already_open"


def test_an_event_opens_once_and_closes_once(organizer_client, campaign):
    event = open_event(campaign)
    assert organizer_client.post(f"/api/events/{event.pk}/open").json()["code"] == "event_opened"
    organizer_client.post(f"/api/events/{event.pk}/close")
    assert organizer_client.post(f"/api/events/{event.pk}/close").json()["code"] == "event_not_open"


@pytest.mark.parametrize("role", [Role.TREASURER, Role.USHER])
def test_only_owners_run_events(make_api_client, member, campaign, role):
    Membership.objects.create(organization=campaign.organization, user=member, role=role)
    client = make_api_client(signed_in_as=member)
    event = open_event(campaign)

    assert announce(client, campaign).status_code == 403
    assert client.post(f"/api/events/{event.pk}/close").status_code == 403
    assert client.get(f"/api/campaigns/{campaign.pk}/events").status_code == 200


def test_outsiders_are_not_told_a_hidden_campaigns_event_exists(member_client, pending_campaign):
    event = Event.objects.create(
        campaign=pending_campaign, title="Launch", starts_at=TONIGHT, ends_at=TONIGHT + timedelta(hours=1)
    )
    assert member_client.post(f"/api/events/{event.pk}/open").status_code == 404
    assert member_client.post("/api/events/999999/open").status_code == 404


def test_listing_events_takes_a_fixed_number_of_queries(organizer_client, campaign, django_assert_num_queries):
    for n in range(3):
        announce(organizer_client, campaign, title=f"Service {n}")
    # The session, the user, the campaign with the viewer's role, the events.
    with django_assert_num_queries(4):
        response = organizer_client.get(f"/api/campaigns/{campaign.pk}/events")
    assert len(response.json()) == 3
