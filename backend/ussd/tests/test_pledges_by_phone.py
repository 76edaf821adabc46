"""A pledge made by USSD, as the campaign's team and the public see it."""

from pledges.models import Pledge


def test_the_team_sees_a_nameless_pledge_as_caller_with_the_last_digits(
    gateway, campaign, organizer_client, api_client
):
    gateway.session("1", str(campaign.pk), "300", "1", "1", "1")

    managed = organizer_client.get(f"/api/pledges?campaign_id={campaign.pk}").json()[0]
    public = api_client.get(f"/api/pledges?campaign_id={campaign.pk}").json()[0]

    assert (managed["name"], managed["phone"], managed["email"]) == ("Caller •••345", "+254711000345", "")
    assert (public["name"], public["phone"]) == ("Caller", "Hidden")


def test_kiswahili_teams_see_mteja(gateway, campaign, organizer_client):
    gateway.session("1", str(campaign.pk), "300", "1", "2", "1")
    managed = organizer_client.get(f"/api/pledges?campaign_id={campaign.pk}", HTTP_ACCEPT_LANGUAGE="sw").json()[0]

    assert managed["name"] == "Mteja •••345"
    assert Pledge.objects.get().is_anonymous


def test_the_web_form_still_needs_a_name_and_an_email(api_client, campaign):
    response = api_client.post(
        "/api/pledges", {"campaign_id": campaign.pk, "amount": 100, "phone": "0711000345", "is_anonymous": False}
    )

    assert response.status_code == 422
    assert set(response.json()["field_errors"]) == {"name", "email"}
