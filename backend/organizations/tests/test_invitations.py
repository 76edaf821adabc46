"""Invitations: by e-mail or Kenyan phone, valid 7 days, used once, revocable, and accepted only
by the invited address's account or an account that verified the invited number."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from audit.models import AuditAction, AuditEntry
from organizations.models import ChangeRequest, Invitation, Membership, Organization
from organizations.roles import Role
from organizations.signals import invitation_created

pytestmark = pytest.mark.django_db

ACCEPT = "/api/invitations/accept"


@pytest.fixture
def church():
    return Organization.objects.create(name="St. Mark's Kiambu", kind="church")


@pytest.fixture
def owner(church):
    return Membership.objects.create(organization=church, user=UserFactory.create(), role=Role.OWNER).user


def invite(make_api_client, django_capture_on_commit_callbacks, church, owner, **body):
    """Send an invitation as ``owner``; the link's token, as the message carries it."""
    tokens = []

    def receive(sender, token, **kwargs):
        tokens.append(token)

    invitation_created.connect(receive)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            answer = make_api_client(signed_in_as=owner).post(f"/api/orgs/{church.pk}/invitations", body)
    finally:
        invitation_created.disconnect(receive)
    assert answer.status_code == 201, answer.content
    return answer.json(), tokens[0]


@pytest.fixture
def send(make_api_client, django_capture_on_commit_callbacks, church, owner):
    return lambda **body: invite(make_api_client, django_capture_on_commit_callbacks, church, owner, **body)


def test_an_email_invitation_is_accepted_by_the_account_with_that_address(make_api_client, send, church):
    invitee = UserFactory.create(email="wanjiru@example.com")
    body, token = send(email=" Wanjiru@Example.com ", role="usher")

    preview = make_api_client().get("/api/invitations", {"token": token})
    answer = make_api_client(signed_in_as=invitee).post(ACCEPT, {"token": token})

    assert (body["email"], body["status"]) == ("wanjiru@example.com", "pending")
    assert (preview.status_code, preview.json()["organization"], preview.json()["role"]) == (
        200,
        "St. Mark's Kiambu",
        "usher",
    )
    assert (answer.status_code, answer.json()["waiting_for_approval"]) == (200, False)
    assert Membership.objects.get(organization=church, user=invitee).role == Role.USHER
    assert Invitation.objects.get().token_hash != token
    assert {AuditAction.INVITATION_SENT, AuditAction.INVITATION_ACCEPTED} <= set(
        AuditEntry.objects.values_list("action", flat=True)
    )


def test_a_forwarded_invitation_cannot_be_accepted_by_another_account(make_api_client, send, church):
    _body, token = send(email="wanjiru@example.com", role="viewer")

    answer = make_api_client(signed_in_as=UserFactory.create(email="someone@example.com")).post(
        ACCEPT, {"token": token}
    )

    assert (answer.status_code, answer.json()["code"]) == (403, "invitation_not_yours")
    assert Invitation.objects.get().accepted_at is None
    assert Membership.objects.filter(organization=church).count() == 1


def test_a_phone_invitation_needs_the_number_verified(make_api_client, send, church):
    _body, token = send(phone="0712 345 678", role="viewer")
    unverified = UserFactory.create(phone="+254712345678")
    verified = UserFactory.create(phone="+254712345678", phone_verified_at=timezone.now())

    refused = make_api_client(signed_in_as=unverified).post(ACCEPT, {"token": token})
    accepted = make_api_client(signed_in_as=verified).post(ACCEPT, {"token": token})

    assert (refused.status_code, refused.json()["code"]) == (403, "phone_not_verified")
    assert "+254712345678" in refused.json()["detail"]
    assert accepted.status_code == 200
    assert Membership.objects.filter(organization=church, user=verified).exists()


def test_an_invitation_is_used_once(make_api_client, send):
    invitee = UserFactory.create(email="wanjiru@example.com")
    _body, token = send(email="wanjiru@example.com", role="viewer")
    client = make_api_client(signed_in_as=invitee)
    client.post(ACCEPT, {"token": token})
    Membership.objects.filter(user=invitee).delete()

    again = client.post(ACCEPT, {"token": token})

    assert (again.status_code, again.json()["code"]) == (400, "invitation_closed")


def test_a_revoked_or_expired_invitation_cannot_be_accepted(make_api_client, send, church, owner):
    invitee = UserFactory.create(email="wanjiru@example.com")
    revoked, revoked_token = send(email="wanjiru@example.com", role="viewer")
    _expired, expired_token = send(email="wanjiru@example.com", role="viewer")
    Invitation.objects.exclude(pk=revoked["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))

    revoking = make_api_client(signed_in_as=owner).delete(f"/api/orgs/{church.pk}/invitations/{revoked['id']}")
    answers = [make_api_client(signed_in_as=invitee).post(ACCEPT, {"token": t}) for t in (revoked_token, expired_token)]

    assert revoking.status_code == 204
    assert [(a.status_code, a.json()["code"]) for a in answers] == [(400, "invitation_closed")] * 2
    listed = make_api_client(signed_in_as=owner).get(f"/api/orgs/{church.pk}/invitations").json()
    assert sorted(row["status"] for row in listed) == ["expired", "revoked"]


def test_an_invitation_lasts_seven_days(send):
    send(email="wanjiru@example.com", role="viewer")

    invitation = Invitation.objects.get()
    assert invitation.expires_at - invitation.created_at == timedelta(days=7)


def test_joining_as_treasurer_waits_for_a_second_person_where_the_rule_holds(make_api_client, send, church):
    treasurer = Membership.objects.create(organization=church, user=UserFactory.create(), role=Role.TREASURER)
    invitee = UserFactory.create(email="wanjiru@example.com")
    _body, token = send(email="wanjiru@example.com", role="treasurer")

    answer = make_api_client(signed_in_as=invitee).post(ACCEPT, {"token": token})

    assert (answer.status_code, answer.json()["waiting_for_approval"]) == (202, True)
    assert not Membership.objects.filter(organization=church, user=invitee).exists()
    request = ChangeRequest.objects.get()
    approved = make_api_client(signed_in_as=treasurer.user).post(
        f"/api/orgs/{church.pk}/approvals/{request.pk}/approve"
    )
    assert approved.status_code == 200
    assert Membership.objects.get(organization=church, user=invitee).role == Role.TREASURER


def test_with_a_single_owner_a_treasurer_joins_at_once(make_api_client, send, church):
    invitee = UserFactory.create(email="wanjiru@example.com")
    _body, token = send(email="wanjiru@example.com", role="treasurer")

    answer = make_api_client(signed_in_as=invitee).post(ACCEPT, {"token": token})

    assert (answer.status_code, answer.json()["waiting_for_approval"]) == (200, False)
    assert ChangeRequest.objects.get().status == "applied"
    assert Membership.objects.get(organization=church, user=invitee).role == Role.TREASURER


def test_only_owners_invite(make_api_client, church):
    treasurer = Membership.objects.create(organization=church, user=UserFactory.create(), role=Role.TREASURER)

    answer = make_api_client(signed_in_as=treasurer.user).post(
        f"/api/orgs/{church.pk}/invitations", {"email": "x@example.com", "role": "viewer"}
    )

    assert answer.status_code == 403
    assert not Invitation.objects.exists()


def test_an_invitation_needs_one_valid_address(make_api_client, church, owner):
    client = make_api_client(signed_in_as=owner)
    path = f"/api/orgs/{church.pk}/invitations"

    both = client.post(path, {"email": "x@example.com", "phone": "0712345678", "role": "viewer"})
    bad_phone = client.post(path, {"phone": "12345", "role": "viewer"})

    assert (both.status_code, list(both.json()["field_errors"])) == (422, ["email"])
    assert (bad_phone.status_code, list(bad_phone.json()["field_errors"])) == (422, ["phone"])


def test_an_unknown_token_is_not_found(make_api_client):
    assert make_api_client().get("/api/invitations", {"token": "nope"}).status_code == 404


def test_past_the_inviters_share_of_team_messages_the_invitation_is_held_and_its_link_given(
    make_api_client, django_capture_on_commit_callbacks, django_assert_num_queries, settings, church, owner
):
    settings.RATE_LIMIT_TEAM_MESSAGES_HOUR = (1, 3600)
    sent, _token = invite(
        make_api_client, django_capture_on_commit_callbacks, church, owner, phone="0712345678", role="usher"
    )
    announced: list[object] = []
    invitation_created.connect(announced.append)
    client = make_api_client(signed_in_as=owner)
    try:
        with django_capture_on_commit_callbacks(execute=True), django_assert_num_queries(11):
            held = client.post(f"/api/orgs/{church.pk}/invitations", {"phone": "0712345678", "role": "usher"})
    finally:
        invitation_created.disconnect(announced.append)

    assert (sent["delivery"], sent["invitation_url"]) == ("sent", "")
    assert (held.status_code, held.json()["delivery"], announced) == (201, "held", [])
    token = held.json()["invitation_url"].split("/invitation?token=")[1]
    assert Invitation.objects.get(pk=held.json()["id"]).token_hash == Invitation.hash_token(token)
