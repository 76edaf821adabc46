from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounts.demo import DEMO_PASSWORD, DEMO_USERS
from accounts.models import User
from campaigns.models import Campaign
from campaigns.selectors import campaign_accounts
from collection_accounts.models import CollectionAccount
from events.models import Event, EventState
from organizations.models import Membership, Organization

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def local_secret_key(settings):
    settings.IS_PRODUCTION = False
    settings.SECRET_KEY = "local-development-only-not-secret"


def load_demo_data():
    out = StringIO()
    call_command("load_demo_data", stdout=out)
    return out.getvalue()


def test_demo_data_creates_the_demo_accounts_with_the_demo_password():
    load_demo_data()

    assert User.objects.count() == len(DEMO_USERS)
    for fields in DEMO_USERS:
        assert User.objects.get(email=fields["email"]).check_password(DEMO_PASSWORD)
    assert User.objects.get(email="admin@harambee.local").is_admin


def test_demo_data_can_be_loaded_twice_without_duplicates():
    load_demo_data()
    load_demo_data()

    assert User.objects.count() == len(DEMO_USERS)


def test_demo_data_prints_how_to_sign_in_at_the_address_it_is_served_on(settings):
    settings.SITE_URL = "http://127.0.0.1:8200"  # make run PORT=8200

    output = load_demo_data()

    assert "http://127.0.0.1:8200/signin" in output
    assert ":8000" not in output
    for fields in DEMO_USERS:
        assert fields["email"] in output
    assert output.count(f"password: {DEMO_PASSWORD}") == len(DEMO_USERS)


def test_the_demo_organizers_team_has_a_treasurer_and_a_viewer_once():
    load_demo_data()
    output = load_demo_data()

    organizer = User.objects.get(email="organizer@harambee.local")
    team = Membership.objects.filter(organization__memberships__user=organizer, organization__memberships__role="owner")
    assert sorted(team.values_list("user__email", "role")) == [
        ("organizer@harambee.local", "owner"),
        ("treasurer@harambee.local", "treasurer"),
        ("viewer@harambee.local", "viewer"),
    ]
    assert "  treasurer  treasurer@harambee.local" in output
    assert "  viewer     viewer@harambee.local" in output


def test_the_ministry_campaign_has_one_announced_event_to_open(settings):
    load_demo_data()
    output = load_demo_data()

    event = Event.objects.get()
    assert (event.title, event.state, event.campaign.title) == (
        "Harambee Sunday Service",
        EventState.SCHEDULED,
        settings.MINISTRY_CAMPAIGN_TITLE,
    )
    assert event.starts_at > timezone.now()
    assert f"/campaign/{event.campaign_id}/live" in output


def test_demo_data_is_refused_in_production(settings):
    settings.IS_PRODUCTION = True

    with pytest.raises(CommandError, match="local use only"):
        load_demo_data()
    assert not User.objects.exists()


def test_demo_data_is_refused_with_a_real_secret_key(settings):
    settings.SECRET_KEY = "a-real-deployment-secret"

    with pytest.raises(CommandError, match="local use only"):
        load_demo_data()
    assert not User.objects.exists()


def test_the_ministry_pays_into_its_connected_paybill_and_a_second_team_into_a_till_and_a_bank_paybill(settings):
    load_demo_data()

    ministry = Campaign.objects.get(title=settings.MINISTRY_CAMPAIGN_TITLE)
    paybill = CollectionAccount.objects.get(paybill_number="600100")
    assert paybill.organization_id == ministry.organization_id
    assert paybill in campaign_accounts(campaign=ministry)
    assert paybill.offers_stk_push
    second = Organization.objects.get(name="PCEA St. Peter's Nyeri")
    assert {"till", "paybill_fixed_account"} <= set(second.collection_accounts.values_list("kind", flat=True))
    assert sorted(second.memberships.values_list("role", flat=True)) == ["owner", "treasurer", "viewer"]
