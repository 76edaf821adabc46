"""The one-time code that proves a phone number goes by SMS, and the message log does not keep it."""

import re

import pytest

from accounts.models import PhoneVerification
from accounts.tests.factories import UserFactory
from notifications.models import NotificationLog
from simulators.models import SimulatedSms

START = "/api/profile/phone-verification"


@pytest.mark.django_db(transaction=True)
def test_the_code_goes_by_sms_and_the_log_forgets_it(make_api_client, sms_gateway):
    user = UserFactory.create(phone="+254712000006", language="sw")

    make_api_client(signed_in_as=user).post(START, {"phone": ""})

    [sms] = SimulatedSms.objects.all()
    found = re.search(r"\b(\d{6})\b", sms.message)
    assert found is not None
    code = found[1]
    assert PhoneVerification.objects.get().matches(code)
    log = NotificationLog.objects.get(template="sms/phone_code")
    assert (log.recipient, log.status) == ("+254712000006", "sent")
    assert code not in log.body
