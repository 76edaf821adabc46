"""GET/PUT /api/campaigns/{id}/reminder-settings: the organizer's reminder and new-pledge e-mail choices."""

import pytest

from accounts.tests.factories import UserFactory
from campaigns.tests.factories import CampaignFactory
from notifications.models import CampaignReminderSettings

pytestmark = pytest.mark.django_db

CHOICES = ["pledge+1", "pledge+3", "pledge+7", "pledge+14", "pledge+30", "end-7", "end-3", "end-1", "end-0"]


@pytest.fixture
def campaign():
    return CampaignFactory.create()


def url(campaign):
    return f"/api/campaigns/{campaign.pk}/reminder-settings"


def put(client, campaign, **fields):
    body = {"enabled": True, "offsets": ["pledge+7", "end-0"], "new_pledge_digest": False, **fields}
    return client.put(url(campaign), body, content_type="application/json")


def test_a_campaign_starts_with_the_default_reminders_and_an_email_per_pledge(
    campaign, make_api_client, django_assert_num_queries
):
    client = make_api_client(signed_in_as=campaign.organizer)

    with django_assert_num_queries(4):  # session, user, campaign, settings
        answer = client.get(url(campaign))

    assert answer.status_code == 200
    assert answer.json() == {
        "enabled": True,
        "offsets": ["pledge+7", "end-3", "end-0"],
        "new_pledge_digest": False,
        "offset_choices": CHOICES,
    }
    assert not CampaignReminderSettings.objects.exists()


def test_the_organizer_saves_reminder_times_in_order_and_the_daily_digest(
    campaign, make_api_client, django_assert_num_queries
):
    client = make_api_client(signed_in_as=campaign.organizer)

    # Session, user; in a transaction (savepoints): campaign, the settings locked, update_or_create's select and insert.
    with django_assert_num_queries(12):
        answer = put(client, campaign, offsets=["end-1", "pledge+3", "end-1"], new_pledge_digest=True)

    assert answer.status_code == 200, answer.content
    assert answer.json()["offsets"] == ["pledge+3", "end-1"]
    row = CampaignReminderSettings.objects.get(campaign=campaign)
    assert (row.enabled, row.offsets, row.new_pledge_digest) == (True, ["pledge+3", "end-1"], True)
    assert client.get(url(campaign)).json()["new_pledge_digest"] is True


def test_the_organizer_turns_reminders_off(campaign, make_api_client):
    client = make_api_client(signed_in_as=campaign.organizer)

    answer = put(client, campaign, enabled=False, offsets=[])

    assert answer.status_code == 200
    assert CampaignReminderSettings.objects.get(campaign=campaign).enabled is False


@pytest.mark.parametrize(
    ("offsets", "message"),
    [
        (["pledge+7", "pledge+2"], "Unknown reminder time: pledge+2"),
        (["end-0; DROP"], "Unknown reminder time: end-0; DROP"),
        ([], "Choose at least one reminder time, or turn reminders off."),
    ],
)
def test_offsets_outside_the_choices_or_none_while_enabled_are_refused(campaign, make_api_client, offsets, message):
    client = make_api_client(signed_in_as=campaign.organizer)

    answer = put(client, campaign, offsets=offsets)

    assert answer.status_code == 422
    assert answer.json()["field_errors"] == {"offsets": message}
    assert not CampaignReminderSettings.objects.exists()


def test_only_the_organizer_or_an_admin_may_read_or_change_the_settings(campaign, make_api_client, api_client):
    other_organizer = make_api_client(signed_in_as=CampaignFactory.create().organizer)
    admin = make_api_client(signed_in_as=UserFactory.create(is_staff=True))

    assert api_client.get(url(campaign)).status_code == 401
    assert put(api_client, campaign).status_code == 401
    assert (other_organizer.get(url(campaign)).status_code, put(other_organizer, campaign).json()["detail"]) == (
        403,
        "Only the campaign's owners and treasurers, or an admin, can change its reminders.",
    )
    assert not CampaignReminderSettings.objects.exists()
    assert admin.get(url(campaign)).status_code == 200
    assert put(admin, campaign).status_code == 200


def test_an_unknown_campaign_is_404(make_api_client):
    client = make_api_client(signed_in_as=UserFactory.create())

    assert client.get("/api/campaigns/999999/reminder-settings").status_code == 404


def test_an_offset_saved_outside_the_choices_is_left_out_so_the_settings_still_save(campaign, make_api_client):
    CampaignReminderSettings.objects.create(campaign=campaign, offsets=["pledge+2", "end-0"])
    client = make_api_client(signed_in_as=campaign.organizer)

    shown = client.get(url(campaign)).json()
    answer = put(client, campaign, offsets=shown["offsets"])

    assert shown["offsets"] == ["end-0"]
    assert answer.status_code == 200, answer.content
    assert CampaignReminderSettings.objects.get(campaign=campaign).offsets == ["end-0"]


ADMIN_ADD = "/admin/notifications/campaignremindersettings/add/"


@pytest.mark.parametrize(
    ("enabled", "offsets", "message"),
    [
        ("on", '["pledge+7", "pledge+2"]', "Unknown reminder time: pledge+2"),
        ("on", '"pledge+7"', "Enter a list of reminder times."),
        ("on", "[]", "Choose at least one reminder time, or turn reminders off."),
    ],
)
def test_the_admin_refuses_what_the_api_refuses(campaign, client, enabled, offsets, message):
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))

    answer = client.post(ADMIN_ADD, {"campaign": campaign.pk, "enabled": enabled, "offsets": offsets})

    assert answer.status_code == 200
    assert message in answer.content.decode()
    assert not CampaignReminderSettings.objects.exists()


def test_the_admin_saves_offsets_among_the_choices_and_none_with_reminders_off(campaign, client):
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    other = CampaignFactory.create()

    on = client.post(ADMIN_ADD, {"campaign": campaign.pk, "enabled": "on", "offsets": '["end-1"]'})
    off = client.post(ADMIN_ADD, {"campaign": other.pk, "offsets": "[]"})

    assert (on.status_code, off.status_code) == (302, 302)
    assert CampaignReminderSettings.objects.get(campaign=campaign).offsets == ["end-1"]
    assert CampaignReminderSettings.objects.get(campaign=other).offsets == []
