"""The team's own messages (invitations, requests for approval and their outcomes) are caused by a
team member: limited per member and organization, never by the recipient's share of messages
nobody asked for (organizations/team_messages.py)."""

import pytest
from django.core import mail

from accounts.tests.factories import UserFactory
from notifications.models import NotificationLog
from organizations import services
from organizations.models import Membership, Organization
from organizations.roles import Role
from simulators.models import SimulatedSms

INVITEE = "+254712000009"


@pytest.mark.django_db(transaction=True)
def test_ten_invitations_and_approval_requests_in_ten_minutes_all_reach_the_outboxes(sms_gateway):
    """A church setting up its team: the owner invites the same number again (a lost SMS), and asks
    the treasurer to approve five changes, within minutes."""
    church = Organization.objects.create(name="St. Mark's Kiambu", kind="church")
    owner = UserFactory.create(phone="+254712000001")
    treasurer = UserFactory.create(phone="+254712000002")
    Membership.objects.create(organization=church, user=owner, role=Role.OWNER)
    Membership.objects.create(organization=church, user=treasurer, role=Role.TREASURER)
    ushers = [
        Membership.objects.create(organization=church, user=UserFactory.create(), role=Role.USHER) for _ in range(5)
    ]

    for _ in range(5):
        services.invitation_create(user=owner, organization_id=church.pk, email="", phone=INVITEE, role="usher")
    for usher in ushers:
        services.team_role_change(user=owner, organization_id=church.pk, membership_id=usher.pk, role="treasurer")

    assert SimulatedSms.objects.filter(to=INVITEE).count() == 5
    assert SimulatedSms.objects.filter(to=treasurer.phone).count() == 5
    assert len([email for email in mail.outbox if email.to == [treasurer.email]]) == 5
    assert not NotificationLog.objects.exclude(status=NotificationLog.Status.SENT).exists()


@pytest.mark.django_db(transaction=True)
def test_the_requester_is_not_asked_to_approve_their_own_request(sms_gateway):
    church = Organization.objects.create(name="St. Mark's Kiambu", kind="church")
    owner = UserFactory.create(phone="+254712000001")
    treasurer = UserFactory.create(phone="+254712000002")
    usher = Membership.objects.create(organization=church, user=UserFactory.create(), role=Role.USHER)
    Membership.objects.create(organization=church, user=owner, role=Role.OWNER)
    Membership.objects.create(organization=church, user=treasurer, role=Role.TREASURER)

    services.team_role_change(user=owner, organization_id=church.pk, membership_id=usher.pk, role="treasurer")

    asked = NotificationLog.objects.filter(template__endswith="change_requested")
    assert sorted(asked.values_list("recipient", flat=True)) == sorted([treasurer.email, treasurer.phone])


@pytest.mark.django_db(transaction=True)
def test_past_a_members_share_the_notices_of_their_requests_are_held_and_the_request_still_waits(sms_gateway, settings):
    settings.RATE_LIMIT_TEAM_MESSAGES_HOUR = (1, 3600)
    church = Organization.objects.create(name="St. Mark's Kiambu", kind="church")
    owner = UserFactory.create()
    treasurer = UserFactory.create()
    Membership.objects.create(organization=church, user=owner, role=Role.OWNER)
    Membership.objects.create(organization=church, user=treasurer, role=Role.TREASURER)
    first, second = (
        Membership.objects.create(organization=church, user=UserFactory.create(), role=Role.USHER) for _ in range(2)
    )

    services.team_role_change(user=owner, organization_id=church.pk, membership_id=first.pk, role="treasurer")
    services.team_role_change(user=owner, organization_id=church.pk, membership_id=second.pk, role="treasurer")

    assert [email.to for email in mail.outbox] == [[treasurer.email]]
    assert church.change_requests.filter(status="pending").count() == 2
