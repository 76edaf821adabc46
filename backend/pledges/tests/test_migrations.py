"""Migration 0008: every earlier pledge gets the channel it was made on, read from what it left
behind (a desk entry, the PLEDGE text that made it, a number the network gave)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from desk.tests.test_desk_api import entry
from events.tests.factories import open_event
from pledges.models import Pledge, PledgeChannel
from pledges.services import pledge_create_by_phone
from pledges.tests.factories import make_pledge
from sms_keywords.models import InboundSms
from sms_keywords.tests.conftest import Phone

BEFORE_CHANNELS = ("pledges", "0007_instalmentplan_standing_order")


def migrate(*targets):
    """Every app to ``targets``, or to its latest migration when none are given."""
    executor = MigrationExecutor(connection)
    executor.migrate(list(targets) or executor.loader.graph.leaf_nodes())


@pytest.fixture
def migrated_again(transactional_db):
    """Runs 0008 again over the pledges already made: back to 0007 (the channel column goes) and
    forward to the latest migration."""

    def run():
        migrate(BEFORE_CHANNELS)
        migrate()

    yield run
    migrate()


def test_earlier_pledges_get_the_channel_they_were_made_on(migrated_again, campaign, organizer_client, client):
    web = make_pledge(campaign, phone="0712000001")
    by_ussd = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=700, phone="0711000345", is_anonymous=True, channel=PledgeChannel.USSD
    )
    Phone(client, number="+254711000345").text(f"PLEDGE {campaign.pk} 300")
    by_sms = Pledge.objects.get(amount=300)
    # A PAY text names the pledge it pays, which was made by USSD: it stays a USSD pledge.
    InboundSms.objects.create(
        message_id="paid-1", sender="+254711000345", text=f"PAY {by_ussd.code}", outcome="prompted", pledge=by_ussd
    )
    event = open_event(campaign)
    assert entry(organizer_client, event, amount=2_000, phone="0712000002").status_code == 201
    at_desk = Pledge.objects.get(amount=2_000)

    migrated_again()

    channels = dict(Pledge.objects.values_list("pk", "channel"))
    assert channels == {web.pk: "web", by_ussd.pk: "ussd", by_sms.pk: "sms", at_desk.pk: "desk"}
