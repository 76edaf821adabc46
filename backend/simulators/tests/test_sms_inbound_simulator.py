"""The 'Text the shortcode' page drives the real inbound SMS callback over HTTP, as Africa's Talking does."""

import pytest

from pledges.models import Pledge
from sms_keywords.models import InboundSms

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_pledge_texted_from_the_page(providers, client, campaign):
    sent = client.post("/simulators/sms/inbound", {"phone": "+254711000345", "text": f"AHADI {campaign.pk} 800"})

    assert sent.status_code == 302
    page = client.get(sent["Location"])
    assert page.context["outcome"] == "Delivered."
    pledge = Pledge.objects.get()
    assert (pledge.phone, pledge.amount, pledge.language) == ("+254711000345", 800, "sw")
    assert InboundSms.objects.get().shortcode == "22384"


def test_a_refused_delivery_is_shown(providers, client, monkeypatch):
    monkeypatch.setattr("simulators.sms_inbound._callback_url", lambda: f"{providers.url}/api/sms/inbound/wrong-token")

    sent = client.post("/simulators/sms/inbound", {"phone": "+254711000345", "text": "HELP"})

    assert client.get(sent["Location"]).context["outcome"] == "Not delivered (HTTP 404)."
