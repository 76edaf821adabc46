"""An invitation's link goes by e-mail or SMS; the message log forgets the token once delivered."""

import pytest
from django.core import mail

from accounts.tests.factories import UserFactory
from notifications.models import NotificationLog
from organizations.models import Invitation, Membership, Organization
from organizations.roles import Role
from organizations.services import invitation_create
from simulators.models import SimulatedSms


@pytest.fixture
def church_owner():
    church = Organization.objects.create(name="St. Mark's Kiambu", kind="church")
    owner = UserFactory.create(first_name="Grace")
    Membership.objects.create(organization=church, user=owner, role=Role.OWNER)
    return church, owner


@pytest.mark.django_db(transaction=True)
def test_an_sms_invitation_carries_the_link_without_names(sms_gateway, settings, church_owner):
    settings.SITE_URL = "https://harambee.example"
    church, owner = church_owner

    invitation_create(user=owner, organization_id=church.pk, email="", phone="0712345678", role="treasurer")

    [sms] = SimulatedSms.objects.all()
    assert "https://harambee.example/invitation?token=" in sms.message
    assert "treasurer" in sms.message
    assert "Grace" not in sms.message and "St. Mark" not in sms.message
    token = sms.message.split("token=")[1].split()[0]
    assert Invitation.objects.get().token_hash == Invitation.hash_token(token)
    log = NotificationLog.objects.get(template="sms/invitation")
    assert (log.status, token in log.body) == ("sent", False)


@pytest.mark.django_db(transaction=True)
def test_an_email_invitation_names_the_inviter_and_the_organization(settings, church_owner):
    settings.SITE_URL = "https://harambee.example"
    church, owner = church_owner

    invitation_create(user=owner, organization_id=church.pk, email="wanjiru@example.com", phone="", role="viewer")

    [email] = mail.outbox
    assert email.subject == "Join St. Mark's Kiambu on Harambee"
    assert "Grace invites you to join the team of St. Mark's Kiambu on Harambee as viewer." in email.body
    assert "https://harambee.example/invitation?token=" in email.body
