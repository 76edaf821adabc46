"""The two-person rule: with two or more owners and treasurers, a guarded team change waits for
another of them to approve it; with fewer it applies at once. Every step is audited."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from audit.models import AuditAction, AuditEntry
from common.errors import PermissionDeniedError
from organizations import services
from organizations.approvals import register_change_kind
from organizations.models import ChangeRequest, ChangeRequestStatus, Membership, Organization
from organizations.roles import Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def church():
    return Organization.objects.create(name="St. Mark's Kiambu", kind="church")


def join(organization, role, user=None):
    return Membership.objects.create(organization=organization, user=user or UserFactory.create(), role=role)


def put_role(client, church, member, role):
    return client.put(f"/api/orgs/{church.pk}/members/{member.pk}", {"role": role}, content_type="application/json")


def approvals_path(church, request_id, action):
    return f"/api/orgs/{church.pk}/approvals/{request_id}/{action}"


def audit_actions():
    return list(AuditEntry.objects.order_by("at", "id").values_list("action", flat=True))


def test_with_a_single_owner_a_guarded_change_applies_at_once_and_is_audited(make_api_client, church):
    owner, viewer = join(church, Role.OWNER), join(church, Role.VIEWER)

    answer = put_role(make_api_client(signed_in_as=owner.user), church, viewer, "treasurer")

    assert (answer.status_code, answer.json()["role"]) == (200, "treasurer")
    request = ChangeRequest.objects.get()
    assert (request.status, request.requested_by, request.decided_by) == ("applied", owner.user, owner.user)
    assert audit_actions() == [AuditAction.CHANGE_REQUESTED, AuditAction.TEAM_CHANGED, AuditAction.CHANGE_APPLIED]


def test_with_two_guardians_raising_someone_waits_for_the_other_to_approve(make_api_client, church):
    owner, treasurer, viewer = join(church, Role.OWNER), join(church, Role.TREASURER), join(church, Role.VIEWER)

    answer = put_role(make_api_client(signed_in_as=owner.user), church, viewer, "owner")

    assert answer.status_code == 202
    body = answer.json()
    assert (body["status"], body["can_approve"], body["can_withdraw"]) == ("pending", False, True)
    assert body["description"] == f"Make {viewer.user.full_name} owner (now viewer)."
    assert Membership.objects.get(pk=viewer.pk).role == Role.VIEWER

    approved = make_api_client(signed_in_as=treasurer.user).post(approvals_path(church, body["id"], "approve"))

    assert (approved.status_code, approved.json()["status"], approved.json()["decided_by"]) == (
        200,
        "applied",
        treasurer.user.full_name,
    )
    assert Membership.objects.get(pk=viewer.pk).role == Role.OWNER
    assert audit_actions() == [AuditAction.CHANGE_REQUESTED, AuditAction.TEAM_CHANGED, AuditAction.CHANGE_APPLIED]
    applied = AuditEntry.objects.get(action=AuditAction.CHANGE_APPLIED)
    assert applied.actor == treasurer.user


def test_the_requester_cannot_approve_their_own_change(make_api_client, church):
    owner, _treasurer, viewer = join(church, Role.OWNER), join(church, Role.TREASURER), join(church, Role.VIEWER)
    client = make_api_client(signed_in_as=owner.user)
    request_id = put_role(client, church, viewer, "treasurer").json()["id"]

    answer = client.post(approvals_path(church, request_id, "approve"))

    assert (answer.status_code, answer.json()["code"]) == (403, "own_change_request")
    assert ChangeRequest.objects.get().status == ChangeRequestStatus.PENDING
    assert Membership.objects.get(pk=viewer.pk).role == Role.VIEWER


@pytest.mark.parametrize("role", [Role.USHER, Role.VIEWER])
def test_ushers_and_viewers_cannot_approve(make_api_client, church, role):
    owner, _treasurer, usher = join(church, Role.OWNER), join(church, Role.TREASURER), join(church, Role.USHER)
    request_id = put_role(make_api_client(signed_in_as=owner.user), church, usher, "owner").json()["id"]
    member = join(church, role)

    answer = make_api_client(signed_in_as=member.user).post(approvals_path(church, request_id, "approve"))

    assert (answer.status_code, answer.json()["code"]) == (403, "not_approver")
    assert Membership.objects.get(pk=usher.pk).role == Role.USHER


def test_an_outsider_is_not_told_the_request_exists(make_api_client, church):
    owner, _treasurer, usher = join(church, Role.OWNER), join(church, Role.TREASURER), join(church, Role.USHER)
    request_id = put_role(make_api_client(signed_in_as=owner.user), church, usher, "owner").json()["id"]

    answer = make_api_client(signed_in_as=UserFactory.create()).post(approvals_path(church, request_id, "approve"))

    assert answer.status_code == 404


def test_removing_a_treasurer_waits_and_leaving_does_not(make_api_client, church):
    owner, treasurer = join(church, Role.OWNER), join(church, Role.TREASURER)
    other_treasurer = join(church, Role.TREASURER)

    removal = make_api_client(signed_in_as=owner.user).delete(f"/api/orgs/{church.pk}/members/{treasurer.pk}")
    left = make_api_client(signed_in_as=other_treasurer.user).delete(
        f"/api/orgs/{church.pk}/members/{other_treasurer.pk}"
    )

    assert (removal.status_code, removal.json()["kind"]) == (202, "team.member_remove")
    assert Membership.objects.filter(pk=treasurer.pk).exists()
    assert left.status_code == 204
    assert not Membership.objects.filter(pk=other_treasurer.pk).exists()


def test_the_removed_treasurer_may_approve_their_own_removal(make_api_client, church):
    owner, treasurer = join(church, Role.OWNER), join(church, Role.TREASURER)
    request_id = make_api_client(signed_in_as=owner.user).delete(f"/api/orgs/{church.pk}/members/{treasurer.pk}")
    request_id = request_id.json()["id"]

    answer = make_api_client(signed_in_as=treasurer.user).post(approvals_path(church, request_id, "approve"))

    assert (answer.status_code, answer.json()["status"]) == (200, "applied")
    assert not Membership.objects.filter(pk=treasurer.pk).exists()


def test_ushers_and_viewers_change_without_a_second_person(make_api_client, church):
    owner, _treasurer, usher = join(church, Role.OWNER), join(church, Role.TREASURER), join(church, Role.USHER)

    answer = put_role(make_api_client(signed_in_as=owner.user), church, usher, "viewer")

    assert (answer.status_code, answer.json()["role"]) == (200, "viewer")
    assert not ChangeRequest.objects.exists()


def test_the_requester_or_an_owner_withdraws_and_a_treasurer_cannot(make_api_client, church):
    owner, treasurer, viewer = join(church, Role.OWNER), join(church, Role.TREASURER), join(church, Role.VIEWER)
    request_id = put_role(make_api_client(signed_in_as=owner.user), church, viewer, "owner").json()["id"]

    refused = make_api_client(signed_in_as=treasurer.user).post(approvals_path(church, request_id, "withdraw"))
    withdrawn = make_api_client(signed_in_as=owner.user).post(approvals_path(church, request_id, "withdraw"))
    late = make_api_client(signed_in_as=treasurer.user).post(approvals_path(church, request_id, "approve"))

    assert (refused.status_code, withdrawn.status_code, withdrawn.json()["status"]) == (403, 200, "withdrawn")
    assert (late.status_code, late.json()["code"]) == (400, "change_request_closed")
    assert Membership.objects.get(pk=viewer.pk).role == Role.VIEWER
    assert audit_actions() == [AuditAction.CHANGE_REQUESTED, AuditAction.CHANGE_WITHDRAWN]


def test_a_request_counts_as_expired_seven_days_after_it_was_made(church):
    request = ChangeRequest.objects.create(organization=church, kind="team.role_change", summary="")

    assert request.expires_at == request.created_at + timedelta(days=7)
    assert request.current_status(now=request.expires_at - timedelta(seconds=1)) == ChangeRequestStatus.PENDING
    assert request.current_status(now=request.expires_at) == ChangeRequestStatus.EXPIRED


def test_after_seven_days_a_request_can_no_longer_be_approved_and_the_sweep_records_it(make_api_client, church):
    owner, treasurer, viewer = join(church, Role.OWNER), join(church, Role.TREASURER), join(church, Role.VIEWER)
    request_id = put_role(make_api_client(signed_in_as=owner.user), church, viewer, "owner").json()["id"]
    ChangeRequest.objects.filter(pk=request_id).update(expires_at=timezone.now() - timedelta(seconds=1))

    listed = make_api_client(signed_in_as=treasurer.user).get(f"/api/orgs/{church.pk}/approvals").json()
    answer = make_api_client(signed_in_as=treasurer.user).post(approvals_path(church, request_id, "approve"))
    expired = services.change_requests_expire()

    assert [(row["status"], row["can_approve"]) for row in listed] == [("expired", False)]
    assert (answer.status_code, answer.json()["code"]) == (400, "change_request_closed")
    assert expired == 1
    assert ChangeRequest.objects.get().status == ChangeRequestStatus.EXPIRED
    assert Membership.objects.get(pk=viewer.pk).role == Role.VIEWER
    entry = AuditEntry.objects.get(action=AuditAction.CHANGE_EXPIRED)
    assert entry.actor is None


def test_a_change_its_rules_refuse_at_approval_stays_pending(make_api_client, church):
    owner, co_owner = join(church, Role.OWNER), join(church, Role.OWNER)
    request_id = put_role(make_api_client(signed_in_as=owner.user), church, co_owner, "viewer").json()["id"]
    # Meanwhile the requester stepped down: the one demoted would be the last owner.
    Membership.objects.filter(pk=owner.pk).update(role=Role.TREASURER)

    answer = make_api_client(signed_in_as=owner.user).post(approvals_path(church, request_id, "approve"))

    assert (answer.status_code, answer.json()["code"]) == (403, "own_change_request")
    answer = make_api_client(signed_in_as=join(church, Role.TREASURER).user).post(
        approvals_path(church, request_id, "approve")
    )
    assert (answer.status_code, answer.json()["code"]) == (400, "last_owner")
    assert ChangeRequest.objects.get().status == ChangeRequestStatus.PENDING


def test_every_member_sees_the_pending_requests_first(make_api_client, church):
    owner, _treasurer, viewer = join(church, Role.OWNER), join(church, Role.TREASURER), join(church, Role.VIEWER)
    client = make_api_client(signed_in_as=owner.user)
    first = put_role(client, church, viewer, "owner").json()["id"]
    client.post(approvals_path(church, first, "withdraw"))
    second = put_role(client, church, viewer, "treasurer").json()["id"]

    body = make_api_client(signed_in_as=viewer.user).get(f"/api/orgs/{church.pk}/approvals").json()

    assert [(row["id"], row["status"], row["can_approve"], row["can_withdraw"]) for row in body] == [
        (second, "pending", False, False),
        (first, "withdrawn", False, False),
    ]


def test_a_higher_app_registers_its_own_kind_and_it_applies_on_approval(church):
    applied: list[ChangeRequest] = []
    register_change_kind("test.noted", apply=applied.append, describe=lambda request: "Note it.")
    owner, treasurer = join(church, Role.OWNER), join(church, Role.TREASURER)

    request = services.change_request_submit(
        user=owner.user, organization=church, kind="test.noted", payload={"n": 1}, summary="Note it."
    )
    services.change_request_approve(user=treasurer.user, organization_id=church.pk, change_request_id=request.pk)

    assert [r.payload for r in applied] == [{"n": 1}]


def test_a_pending_request_of_someone_who_left_the_team_is_withdrawn_and_cannot_be_approved(make_api_client, church):
    _owner, second_owner, treasurer, viewer = (
        join(church, Role.OWNER),
        join(church, Role.OWNER),
        join(church, Role.TREASURER),
        join(church, Role.VIEWER),
    )
    asked = put_role(make_api_client(signed_in_as=second_owner.user), church, viewer, "treasurer").json()

    left = make_api_client(signed_in_as=second_owner.user).delete(f"/api/orgs/{church.pk}/members/{second_owner.pk}")
    approver = make_api_client(signed_in_as=treasurer.user)
    listed = approver.get(f"/api/orgs/{church.pk}/approvals").json()
    approved = approver.post(approvals_path(church, asked["id"], "approve"))

    assert left.status_code == 204
    assert [(r["id"], r["status"], r["can_approve"]) for r in listed] == [(asked["id"], "withdrawn", False)]
    assert (approved.status_code, approved.json()["code"]) == (400, "change_request_closed")
    assert Membership.objects.get(pk=viewer.pk).role == Role.VIEWER
    assert AuditEntry.objects.filter(action=AuditAction.CHANGE_WITHDRAWN, actor=None).count() == 1


def test_a_request_left_pending_by_someone_who_left_earlier_cannot_be_approved(make_api_client, church):
    _owner, second_owner, treasurer, viewer = (
        join(church, Role.OWNER),
        join(church, Role.OWNER),
        join(church, Role.TREASURER),
        join(church, Role.VIEWER),
    )
    asked = put_role(make_api_client(signed_in_as=second_owner.user), church, viewer, "treasurer").json()
    Membership.objects.filter(pk=second_owner.pk).delete()  # before leaving withdrew their requests

    approved = make_api_client(signed_in_as=treasurer.user).post(approvals_path(church, asked["id"], "approve"))

    assert (approved.status_code, approved.json()["code"]) == (400, "change_request_closed")
    assert Membership.objects.get(pk=viewer.pk).role == Role.VIEWER


def test_a_treasurer_cannot_approve_their_own_promotion_which_waits_for_a_third_person(make_api_client, church):
    owner, treasurer = join(church, Role.OWNER), join(church, Role.TREASURER)
    body = put_role(make_api_client(signed_in_as=owner.user), church, treasurer, "owner").json()
    treasurer_client = make_api_client(signed_in_as=treasurer.user)

    listed = treasurer_client.get(f"/api/orgs/{church.pk}/approvals").json()
    answer = treasurer_client.post(approvals_path(church, body["id"], "approve"))

    assert [request["can_approve"] for request in listed] == [False]
    assert (answer.status_code, answer.json()["code"]) == (403, "own_team_change")
    assert Membership.objects.get(pk=treasurer.pk).role == Role.TREASURER
    third = join(church, Role.TREASURER)
    approved = make_api_client(signed_in_as=third.user).post(approvals_path(church, body["id"], "approve"))
    assert (approved.status_code, approved.json()["status"]) == (200, "applied")
    assert Membership.objects.get(pk=treasurer.pk).role == Role.OWNER


def test_an_admin_approves_a_change_no_one_else_may_and_never_one_about_themselves(client, church):
    owner, treasurer = join(church, Role.OWNER), join(church, Role.TREASURER)
    admin = UserFactory.create(is_staff=True, is_superuser=True)
    client.force_login(admin)
    promotion = services.team_role_change(
        user=owner.user, organization_id=church.pk, membership_id=treasurer.pk, role=Role.OWNER
    )

    answer = client.post(
        "/admin/organizations/changerequest/",
        {"action": "approve", "_selected_action": [promotion.pk]},
        REMOTE_ADDR="127.0.46.1",
    )

    assert answer.status_code == 302
    assert (ChangeRequest.objects.get(pk=promotion.pk).status, Membership.objects.get(pk=treasurer.pk).role) == (
        ChangeRequestStatus.APPLIED,
        Role.OWNER,
    )
    admin_member = join(church, Role.TREASURER, user=admin)
    about_admin = services.team_role_change(
        user=owner.user, organization_id=church.pk, membership_id=admin_member.pk, role=Role.OWNER
    )
    with pytest.raises(PermissionDeniedError):
        services.change_request_approve_as_admin(admin=admin, change_request_id=about_admin.pk)
