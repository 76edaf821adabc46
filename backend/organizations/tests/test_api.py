import pytest

from accounts.tests.factories import UserFactory
from audit.models import AuditAction, AuditEntry
from organizations.models import Membership, Organization
from organizations.roles import Role

pytestmark = pytest.mark.django_db

CHURCH = {
    "name": "St. Mark's Kiambu",
    "kind": "church",
    "county": "Kiambu",
    "town": "Kiambu",
    "registration_number": "",
}


@pytest.fixture
def church():
    return Organization.objects.create(name="St. Mark's Kiambu", kind="church")


def join(organization, role, user=None):
    return Membership.objects.create(organization=organization, user=user or UserFactory.create(), role=role)


def test_a_user_creates_an_organization_and_becomes_its_owner(make_api_client):
    user = UserFactory.create()

    answer = make_api_client(signed_in_as=user).post("/api/orgs", CHURCH)

    assert answer.status_code == 201
    body = answer.json()
    assert (body["name"], body["role"], body["can_manage_team"]) == ("St. Mark's Kiambu", "owner", True)
    assert Membership.objects.get(user=user).role == Role.OWNER


def test_bad_details_get_every_message_and_create_nothing(make_api_client):
    answer = make_api_client(signed_in_as=UserFactory.create()).post(
        "/api/orgs", {**CHURCH, "name": " ", "kind": "personal", "town": "x" * 65}
    )

    assert answer.status_code == 422
    assert answer.json()["field_errors"] == {
        "name": "Please enter the organization's name.",
        "kind": "Please choose church, ministry, school or group.",
        "town": "Please keep this under 64 characters.",
    }
    assert not Organization.objects.exists()


def test_the_list_shows_each_organization_with_the_users_role(make_api_client, church):
    member = join(church, Role.TREASURER).user
    join(Organization.objects.create(name="Other", kind="group"), Role.OWNER)

    body = make_api_client(signed_in_as=member).get("/api/orgs").json()

    assert [(row["name"], row["role"], row["can_manage_team"]) for row in body] == [
        ("St. Mark's Kiambu", "treasurer", False)
    ]


def test_an_outsider_is_not_told_the_organization_exists(make_api_client, church):
    answer = make_api_client(signed_in_as=UserFactory.create()).get(f"/api/orgs/{church.pk}")

    assert answer.status_code == 404


def test_only_owners_change_the_details_and_it_is_audited(make_api_client, church):
    owner, treasurer = join(church, Role.OWNER).user, join(church, Role.TREASURER).user

    refused = make_api_client(signed_in_as=treasurer).patch(f"/api/orgs/{church.pk}", {"town": "Thika"})
    answer = make_api_client(signed_in_as=owner).patch(f"/api/orgs/{church.pk}", {"town": " Thika "})

    assert refused.status_code == 403
    assert (answer.status_code, answer.json()["town"]) == (200, "Thika")
    entry = AuditEntry.objects.get(action=AuditAction.ORGANIZATION_EDITED)
    assert (entry.actor, entry.before, entry.after) == (owner, {"town": ""}, {"town": "Thika"})


def test_an_owner_marks_an_approved_charity_with_its_statements_signatory_audited(make_api_client, church):
    owner, treasurer = join(church, Role.OWNER).user, join(church, Role.TREASURER).user
    charity = {"registration_number": "SOC/123", "approved_charity": True, "statement_signatory": "Rev. J. Kamau"}

    refused = make_api_client(signed_in_as=treasurer).patch(f"/api/orgs/{church.pk}", charity)
    answer = make_api_client(signed_in_as=owner).patch(f"/api/orgs/{church.pk}", charity)

    assert refused.status_code == 403
    body = answer.json()
    assert (body["approved_charity"], body["statement_signatory"], body["registration_number"]) == (
        True,
        "Rev. J. Kamau",
        "SOC/123",
    )
    entry = AuditEntry.objects.get(action=AuditAction.ORGANIZATION_EDITED)
    assert (entry.before["approved_charity"], entry.after["approved_charity"]) == (False, True)


def test_every_member_sees_the_team_owners_first(make_api_client, church):
    viewer = join(church, Role.VIEWER)
    owner = join(church, Role.OWNER)

    body = make_api_client(signed_in_as=viewer.user).get(f"/api/orgs/{church.pk}/members").json()

    assert [(row["id"], row["role"], row["is_me"]) for row in body] == [
        (owner.pk, "owner", False),
        (viewer.pk, "viewer", True),
    ]


def test_an_owner_changes_a_role_audited_and_a_treasurer_cannot(make_api_client, church):
    owner, usher = join(church, Role.OWNER), join(church, Role.USHER)
    treasurer = join(church, Role.TREASURER)
    path = f"/api/orgs/{church.pk}/members/{usher.pk}"

    refused = make_api_client(signed_in_as=treasurer.user).put(
        path, {"role": "viewer"}, content_type="application/json"
    )
    answer = make_api_client(signed_in_as=owner.user).put(path, {"role": "viewer"}, content_type="application/json")

    assert refused.status_code == 403
    assert (answer.status_code, answer.json()["role"]) == (200, "viewer")
    entry = AuditEntry.objects.get(action=AuditAction.TEAM_CHANGED)
    assert (entry.before["role"], entry.after["role"]) == ("usher", "viewer")


def test_the_last_owner_can_neither_step_down_nor_leave(make_api_client, church):
    owner = join(church, Role.OWNER)
    client = make_api_client(signed_in_as=owner.user)
    path = f"/api/orgs/{church.pk}/members/{owner.pk}"

    demoted = client.put(path, {"role": "viewer"}, content_type="application/json")
    left = client.delete(path)

    assert (demoted.status_code, left.status_code) == (400, 400)
    assert demoted.json()["code"] == "last_owner"
    assert Membership.objects.get(pk=owner.pk).role == Role.OWNER


def test_an_owner_removes_a_member_and_anyone_may_leave(make_api_client, church):
    owner, viewer, usher = join(church, Role.OWNER), join(church, Role.VIEWER), join(church, Role.USHER)

    removed = make_api_client(signed_in_as=owner.user).delete(f"/api/orgs/{church.pk}/members/{viewer.pk}")
    refused = make_api_client(signed_in_as=usher.user).delete(f"/api/orgs/{church.pk}/members/{owner.pk}")
    left = make_api_client(signed_in_as=usher.user).delete(f"/api/orgs/{church.pk}/members/{usher.pk}")

    assert (removed.status_code, refused.status_code, left.status_code) == (204, 403, 204)
    assert list(Membership.objects.values_list("pk", flat=True)) == [owner.pk]
    assert AuditEntry.objects.filter(action=AuditAction.TEAM_CHANGED).count() == 2
