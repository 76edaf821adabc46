"""The feature-phone page drives the real callback over HTTP, as Africa's Talking does."""

import pytest

from pledges.models import Pledge

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_pledge_made_on_the_feature_phone(providers, client, campaign):
    dialled = client.post("/simulators/ussd", {"action": "dial", "phone": "+254711000345"})
    session_id = dialled.context["session_id"]
    assert "1. Pledge" in dialled.context["screen"]

    text = ""
    # Pledge, the campaign, the amount, all at once, publicly, confirm.
    for answer in ("1", str(campaign.pk), "800", "1", "1", "1"):
        page = client.post(
            "/simulators/ussd",
            {"action": "send", "phone": "+254711000345", "session_id": session_id, "text": text, "answer": answer},
        )
        text = page.context["text"]

    assert text == f"1*{campaign.pk}*800*1*1*1"
    assert not page.context["going_on"]
    pledge = Pledge.objects.get()
    assert page.context["screen"].startswith(f"Thank you! Your pledge code is {pledge.code}.")
    assert b"Session ended." in page.content


def test_a_refused_step_ends_the_session_as_the_gateway_would(providers, client, monkeypatch):
    monkeypatch.setattr("simulators.ussd._callback_url", lambda: f"{providers.url}/api/ussd/callback/wrong-token")

    page = client.post("/simulators/ussd", {"action": "dial", "phone": "+254711000345"})

    assert not page.context["going_on"]
    assert page.context["screen"] == "Connection problem or invalid MMI code (HTTP 404)."
