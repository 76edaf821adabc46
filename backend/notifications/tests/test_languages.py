"""E-mails and SMS go out in their recipient's language: a pledger's is the one they pledged in,
a user's the one on their profile."""

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives

from accounts.tests.factories import UserFactory
from campaigns.tests.factories import CampaignFactory
from collection_accounts.tests.factories import TEST_PAYBILL
from notifications.messages import password_reset_notify
from pledges.models import Pledge
from simulators.models import SimulatedSms


def pledge_through_the_api(make_api_client, campaign, **headers):
    client = make_api_client()
    payload = {
        "campaign_id": campaign.pk,
        "amount": 12_500,
        "name": "Wanjiru Kamau",
        "email": "wanjiru@example.com",
        "phone": "0712345678",
        "is_anonymous": False,
    }
    response = client.post("/api/pledges", payload, **headers)
    assert response.status_code == 201
    return Pledge.objects.get(code=response.json()["code"])


@pytest.mark.django_db(transaction=True)
def test_a_pledge_made_in_kiswahili_gets_its_sms_and_email_in_kiswahili(sms_gateway, make_api_client, settings):
    settings.MPESA_SHORTCODE = "522522"
    campaign = CampaignFactory.create(title="Paa jipya la kanisa", paybill=TEST_PAYBILL)

    pledge = pledge_through_the_api(make_api_client, campaign, HTTP_ACCEPT_LANGUAGE="sw")

    assert pledge.language == "sw"
    sms = SimulatedSms.objects.get()
    assert sms.message.startswith("Asante! Umeahidi Ksh 12,500 kwa Paa jipya la kanisa.")
    assert f"Lipa kupitia Paybill {TEST_PAYBILL}, akaunti {pledge.code}." in sms.message
    assert "522522" not in sms.message
    [email] = [message for message in mail.outbox if message.to == ["wanjiru@example.com"]]
    assert email.subject == f"Ahadi yako {pledge.code} kwa Paa jipya la kanisa"
    assert "Jinsi ya kulipa:" in email.body


@pytest.mark.django_db(transaction=True)
def test_the_organizer_hears_of_a_kiswahili_pledge_in_their_own_language(sms_gateway, make_api_client):
    organizer = UserFactory.create(language="en")
    campaign = CampaignFactory.create(title="New church roof", organizer=organizer)

    pledge_through_the_api(make_api_client, campaign, HTTP_ACCEPT_LANGUAGE="sw")

    [email] = [message for message in mail.outbox if message.to == [organizer.email]]
    assert email.subject == "New pledge: Ksh 12,500 to New church roof"


@pytest.mark.django_db(transaction=True)
def test_a_pledge_made_in_english_gets_its_sms_in_english(sms_gateway, make_api_client):
    pledge_through_the_api(make_api_client, CampaignFactory.create(), HTTP_ACCEPT_LANGUAGE="en-GB,sw;q=0.5")

    assert SimulatedSms.objects.get().message.startswith("Thank you! You pledged Ksh 12,500")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "subject"), [("sw", "Badilisha nenosiri lako la Harambee"), ("", "Reset your Harambee password")]
)
def test_a_user_s_emails_are_in_their_profile_s_language(language, subject):
    user = UserFactory.create(language=language)

    password_reset_notify(user_id=user.pk)

    [email] = mail.outbox
    assert email.subject == subject


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "tagline"),
    [("sw", "Imarisha Huduma Yako kwa Ubunifu wa Kidijitali"), ("en", "Amplify Your Ministry with Digital Innovation")],
)
def test_the_html_email_says_its_language_and_its_tagline_is_translated(language, tagline):
    user = UserFactory.create(language=language)

    password_reset_notify(user_id=user.pk)

    [email] = mail.outbox
    assert isinstance(email, EmailMultiAlternatives)
    html = str(email.alternatives[0][0])
    assert f'<html lang="{language}">' in html
    assert tagline in html
