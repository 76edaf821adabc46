"""Every owner and treasurer hears of a guarded team change (the two-person rule) by e-mail and
SMS when it is asked for and when it takes effect, each in their language."""

import pytest
from django.core import mail

from accounts.tests.factories import UserFactory
from notifications.models import NotificationLog
from organizations import services
from organizations.models import Membership, Organization
from organizations.roles import Role
from simulators.models import SimulatedSms


def join(organization, role, **user_fields):
    return Membership.objects.create(organization=organization, user=UserFactory.create(**user_fields), role=role)


@pytest.mark.django_db(transaction=True)
def test_owners_and_treasurers_hear_when_a_change_is_asked_for_and_when_it_applies(sms_gateway, settings):
    settings.SITE_URL = "https://harambee.example"
    church = Organization.objects.create(name="St. Mark's Kiambu", kind="church")
    owner = join(church, Role.OWNER, first_name="Grace", phone="+254712000001")
    second_owner = join(church, Role.OWNER, first_name="Kamau", phone="+254712000004")
    treasurer = join(church, Role.TREASURER, first_name="Otieno", phone="+254712000002", language="sw")
    usher = join(church, Role.USHER, first_name="Wanjiru", last_name="Kamau", phone="+254712000003")

    services.team_role_change(user=owner.user, organization_id=church.pk, membership_id=usher.pk, role="treasurer")

    # Not the owner who asked: it waits for someone else.
    asked = NotificationLog.objects.filter(template__endswith="change_requested")
    assert sorted(asked.values_list("recipient", flat=True)) == sorted(
        [second_owner.user.email, treasurer.user.email, "+254712000004", "+254712000002"]
    )
    [english] = [email for email in mail.outbox if email.to == [second_owner.user.email]]
    assert english.subject == "A team change at St. Mark's Kiambu needs your approval"
    assert "Make Wanjiru Kamau treasurer (now usher)." in english.body
    assert f"https://harambee.example/organizations/{church.pk}" in english.body
    [kiswahili] = [email for email in mail.outbox if email.to == [treasurer.user.email]]
    assert "Wanjiru Kamau" in kiswahili.body and "Make Wanjiru" not in kiswahili.body
    # No names in an SMS: the number on an account is not proof of whose it is.
    assert all("Wanjiru" not in sms.message for sms in SimulatedSms.objects.all())

    request = church.change_requests.get()
    services.change_request_approve(user=treasurer.user, organization_id=church.pk, change_request_id=request.pk)

    applied = NotificationLog.objects.filter(template__endswith="change_applied")
    # The new treasurer is one of those told now.
    assert applied.filter(channel="email").count() == 4
    assert applied.filter(channel="sms", recipient="+254712000003", status="sent").exists()
