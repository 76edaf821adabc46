import pytest
from django.core.management import call_command

from spending.models import SpendingRecord
from spending.selectors import accountability_figures

pytestmark = pytest.mark.django_db


def test_the_demo_ministry_campaign_shows_how_its_money_was_used_once(settings):
    settings.SECRET_KEY = "local-demo"
    call_command("load_demo_data", stdout=None)
    call_command("load_demo_data", stdout=None)

    campaign = SpendingRecord.objects.first().campaign  # type: ignore[union-attr]
    figures = accountability_figures(campaign=campaign)
    assert figures.spent == 48_000 + 15_000 + 6_500  # the fourth line waits for approval
    assert SpendingRecord.objects.count() == 4
    assert campaign.progress_updates.count() == 1
