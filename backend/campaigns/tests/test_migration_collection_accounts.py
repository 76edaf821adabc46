"""Migration 0012: existing campaigns' payment options become collection accounts of their organization."""

import pytest
from django.utils import timezone

from campaigns.models import Campaign
from campaigns.tests.test_migrations import migrate
from collection_accounts.models import CollectionAccount


@pytest.fixture
def before_accounts(transactional_db):
    yield migrate("0011_campaign_collection_accounts")
    migrate()


def test_payment_options_become_the_organizations_accounts_and_a_phone_number_stays_legacy(before_accounts, settings):
    apps = before_accounts
    settings.MPESA_SHORTCODE = "174379"
    user = apps.get_model("accounts", "User").objects.create(email="grace@example.com")
    church = apps.get_model("organizations", "Organization").objects.create(name="St. Mark's", kind="church")
    other = apps.get_model("organizations", "Organization").objects.create(name="Other", kind="group")
    old_campaign = apps.get_model("campaigns", "Campaign").objects.create

    def campaign(title, organization, options):
        return old_campaign(
            organizer_id=user.pk,
            organization_id=organization.pk,
            title=title,
            description="d",
            story="s",
            category="church",
            goal=1000,
            status="active",
            end_date=timezone.localdate(),
            payment_options=options,
        ).pk

    till = {"method": "mpesa_till", "details": {"till_number": "5123456"}}
    phone = {"method": "mpesa", "details": {"phone_number": "+254712345678"}}
    roof = campaign(
        "Roof",
        church,
        [
            {"method": "paybill", "details": {"business_number": "247247", "account_no": "0123456789"}},
            phone,
            till,
        ],
    )
    robes = campaign(
        "Robes", church, [till, {"method": "paybill", "details": {"business_number": "174379", "account_no": "X"}}]
    )
    borehole = campaign("Borehole", other, [till, {"method": "cash", "details": {"location": "Church office"}}])

    migrate()

    roof, robes, borehole = (Campaign.objects.get(pk=pk) for pk in (roof, robes, borehole))
    accounts = [
        (a.kind, a.paybill_number, a.account_number, a.till_number, a.is_default)
        for a in roof.collection_accounts.order_by("campaign_links__position")
    ]
    assert accounts == [("paybill_fixed_account", "247247", "0123456789", "", True), ("till", "", "", "5123456", False)]
    assert roof.payment_options == [phone]
    # The same till in the same organization is one account; the platform's paybill is dropped.
    assert list(robes.collection_accounts.values_list("till_number", flat=True)) == ["5123456"]
    assert robes.payment_options == []
    assert CollectionAccount.objects.filter(organization_id=church.pk).count() == 2
    # A till reports to one organization: the second one's stays a legacy option.
    assert [a.kind for a in borehole.collection_accounts.all()] == ["cash"]
    assert borehole.payment_options == [till]
