"""Naming the organization: givers read its name as the one they pay. A new name goes through the
two-person rule; a personal organization (named after its owner) asks to be named, with its kind."""

import pytest
from django.contrib.contenttypes.models import ContentType

from accounts.tests.factories import UserFactory
from audit.models import AuditAction, AuditEntry
from organizations.models import ChangeRequest, Membership, Organization, OrganizationKind
from organizations.roles import Role
from organizations.services import organization_personal_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def church():
    return Organization.objects.create(name="St. Mark's Kiambu", kind="church")


def join(organization, role, user=None):
    return Membership.objects.create(organization=organization, user=user or UserFactory.create(), role=role)


def patch(client, organization, body):
    return client.patch(f"/api/orgs/{organization.pk}", body, content_type="application/json")


def test_a_single_owner_renames_at_once_audited(make_api_client, church, django_assert_num_queries):
    owner = join(church, Role.OWNER).user
    client = make_api_client(signed_in_as=owner)
    ContentType.objects.get_for_model(Organization)  # the audit's content type, cached once per process

    # The session, the membership, the request, its audit, the rename (and its campaigns' pages renewed).
    with django_assert_num_queries(17):
        answer = patch(client, church, {"name": " St. Mark's ACK Kiambu "})

    assert (answer.status_code, answer.json()["name"]) == (200, "St. Mark's ACK Kiambu")
    church.refresh_from_db()
    assert church.name == "St. Mark's ACK Kiambu"
    edited = AuditEntry.objects.get(action=AuditAction.ORGANIZATION_EDITED)
    assert (edited.actor, edited.before, edited.after) == (
        owner,
        {"name": "St. Mark's Kiambu"},
        {"name": "St. Mark's ACK Kiambu"},
    )
    assert ChangeRequest.objects.get().status == "applied"


def test_with_two_guardians_a_new_name_waits_for_the_other_and_the_rest_is_saved(make_api_client, church):
    owner, treasurer = join(church, Role.OWNER).user, join(church, Role.TREASURER).user

    answer = patch(make_api_client(signed_in_as=owner), church, {"name": "Another Name", "town": "Thika"})

    assert answer.status_code == 202
    body = answer.json()
    assert (body["status"], body["can_withdraw"]) == ("pending", True)
    assert body["description"] == (
        "Rename the organization “St. Mark's Kiambu” to “Another Name” (givers see this name as the one they pay)."
    )
    church.refresh_from_db()
    assert (church.name, church.town) == ("St. Mark's Kiambu", "Thika")

    approved = make_api_client(signed_in_as=treasurer).post(f"/api/orgs/{church.pk}/approvals/{body['id']}/approve")

    assert approved.status_code == 200
    church.refresh_from_db()
    assert church.name == "Another Name"
    edits = AuditEntry.objects.filter(action=AuditAction.ORGANIZATION_EDITED).order_by("id")
    assert [(entry.actor, entry.after) for entry in edits] == [
        (owner, {"town": "Thika"}),
        (treasurer, {"name": "Another Name"}),
    ]


def test_a_personal_organization_asks_to_be_named_with_its_kind(make_api_client):
    owner = UserFactory.create(first_name="Grace", last_name="Wanjiku")
    personal = organization_personal_create(user=owner)
    client = make_api_client(signed_in_as=owner)
    assert client.get(f"/api/orgs/{personal.pk}").json()["needs_name"] is True

    without_kind = patch(client, personal, {"name": "Kiambu Revival Ministry"})
    kind_alone = patch(client, personal, {"kind": "ministry"})

    assert without_kind.status_code == 422
    assert without_kind.json()["field_errors"] == {"kind": "Please choose church, ministry, school or group."}
    assert kind_alone.json()["field_errors"] == {"name": "Please enter the organization's name."}
    personal.refresh_from_db()
    assert (personal.name, personal.kind) == ("Grace Wanjiku", OrganizationKind.PERSONAL)

    named = patch(client, personal, {"name": "Kiambu Revival Ministry", "kind": "ministry", "county": "Kiambu"})

    assert named.status_code == 200
    assert (named.json()["name"], named.json()["kind"], named.json()["needs_name"]) == (
        "Kiambu Revival Ministry",
        "ministry",
        False,
    )


def test_a_treasurer_cannot_rename(make_api_client, church):
    join(church, Role.OWNER)
    treasurer = join(church, Role.TREASURER).user

    answer = patch(make_api_client(signed_in_as=treasurer), church, {"name": "Mine"})

    assert answer.status_code == 403
    assert not ChangeRequest.objects.exists()
