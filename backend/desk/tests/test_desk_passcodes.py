"""An event's desk passcodes through HTTP: its owners list them and revoke one, which stops at once."""

import pytest
from django.contrib.contenttypes.models import ContentType
from django.forms.models import model_to_dict

from audit.models import AuditAction, AuditEntry
from campaigns.tests.factories import CampaignFactory
from desk.models import DeskEntry, DeskPasscode
from desk.tests.test_desk_api import entry, member_client, passcode_client
from events.tests.factories import open_event
from organizations.roles import Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(campaign):
    return open_event(campaign)


def passcodes(client, event):
    return client.get(f"/api/events/{event.pk}/desk-passcodes")


def revoke(client, event, passcode):
    return client.post(f"/api/events/{event.pk}/desk-passcodes/{passcode.pk}/revocation")


def test_owners_list_an_events_passcodes_with_who_holds_them_their_entries_and_state(
    organizer_client, make_api_client, event, django_assert_num_queries
):
    mary = passcode_client(organizer_client, make_api_client, event, volunteer="Mary Wambui")
    passcode_client(organizer_client, make_api_client, event, volunteer="John Kamau")
    entry(mary, event, kind="cash", amount=200, phone="")
    entry(mary, event, kind="cash", amount=300, phone="")

    with django_assert_num_queries(5):  # the session and its user, the event, its campaign, the passcodes
        answer = passcodes(organizer_client, event)

    assert answer.status_code == 200
    assert [(p["volunteer"], p["entries_count"], p["state"], p["issued_by"]) for p in answer.json()] == [
        ("John Kamau", 0, "active", "Grace"),
        ("Mary Wambui", 2, "active", "Grace"),
    ]
    assert "passcode" not in answer.json()[0]


def test_issuing_a_passcode_is_audited_with_its_volunteer_and_event_never_the_code(
    organizer_client, organizer, event, django_assert_num_queries
):
    ContentType.objects.get_for_model(DeskPasscode)  # cached once per process: whether an earlier test did varies
    with django_assert_num_queries(8):  # the session, its user, the event and its campaign; the passcode and its audit
        issued = organizer_client.post(f"/api/events/{event.pk}/desk-passcodes", {"volunteer": " Mary   Wambui "})

    assert issued.status_code == 201, issued.content
    code = issued.json()["passcode"]
    passcode = DeskPasscode.objects.get()
    (audit,) = AuditEntry.objects.filter(action=AuditAction.DESK_PASSCODE_ISSUED)
    assert (audit.actor, audit.object_id, audit.after) == (
        organizer,
        passcode.pk,
        {"volunteer": "Mary Wambui", "event": event.pk},
    )
    assert code.lower() not in str(model_to_dict(audit)).lower()


def test_a_revoked_passcode_stops_at_once_even_in_a_browser_signed_in_with_it(
    organizer_client, organizer, make_api_client, campaign, event
):
    volunteer = passcode_client(organizer_client, make_api_client, event)
    issued = organizer_client.post(f"/api/events/{event.pk}/desk-passcodes", {"volunteer": "Mary again"}).json()
    assert entry(volunteer, event, kind="cash", amount=500, phone="").status_code == 201
    mary = DeskPasscode.objects.get(volunteer="Mary Wambui")
    again = DeskPasscode.objects.get(volunteer="Mary again")

    revoked = revoke(organizer_client, event, mary)
    revoke(organizer_client, event, again)
    twice = revoke(organizer_client, event, mary)
    next_entry = entry(volunteer, event, kind="cash", amount=700, phone="")
    desk = volunteer.get(f"/api/campaigns/{campaign.pk}/desk")
    signed_in_again = make_api_client().post("/api/desk/sign-in", {"passcode": issued["passcode"]})

    assert revoked.status_code == twice.status_code == 204
    assert next_entry.status_code == desk.status_code == 401
    assert signed_in_again.status_code == 422
    assert DeskEntry.objects.get().amount == 500  # what it added stays
    listed = {p["volunteer"]: p for p in passcodes(organizer_client, event).json()}
    assert (listed["Mary Wambui"]["state"], listed["Mary Wambui"]["revoked_by"]) == ("revoked", "Grace")
    assert listed["Mary Wambui"]["entries_count"] == 1
    audits = AuditEntry.objects.filter(action=AuditAction.DESK_PASSCODE_REVOKED, object_id=mary.pk)
    assert [(audit.actor, audit.after["volunteer"]) for audit in audits] == [(organizer, "Mary Wambui")]


def test_a_passcode_expires_at_the_close_and_is_listed_so(organizer_client, make_api_client, event):
    passcode_client(organizer_client, make_api_client, event)
    organizer_client.post(f"/api/events/{event.pk}/close")

    assert [p["state"] for p in passcodes(organizer_client, event).json()] == ["expired"]


def test_only_owners_and_admins_manage_passcodes_and_a_passcode_cannot(
    organizer_client, make_api_client, campaign, event
):
    volunteer = passcode_client(organizer_client, make_api_client, event)
    mary = DeskPasscode.objects.get()
    treasurer = member_client(campaign, make_api_client, Role.TREASURER)
    other_event = open_event(CampaignFactory.create(organizer=campaign.organizer))

    assert [passcodes(treasurer, event).status_code, revoke(treasurer, event, mary).status_code] == [403, 403]
    assert [passcodes(volunteer, event).status_code, revoke(volunteer, event, mary).status_code] == [401, 401]
    assert revoke(organizer_client, other_event, mary).status_code == 404
    assert DeskPasscode.objects.get().revoked_at is None
