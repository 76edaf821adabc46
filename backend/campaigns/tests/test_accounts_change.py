"""Switching a campaign to other accounts of its organization is a payment-detail change: the
wizard's rules (1 to 3, each once, the organization's own), the two-person rule, and the legacy
wizard's promise that a fundraiser's bank details are never changed after setup."""

import pytest

from accounts.tests.factories import UserFactory
from campaigns.models import CampaignType
from campaigns.tests.factories import CampaignFactory, link_account
from collection_accounts.tests.factories import CollectionAccountFactory
from organizations.models import Membership
from organizations.roles import Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign():
    campaign = CampaignFactory.create()
    link_account(campaign, CollectionAccountFactory.create(organization=campaign.organization))
    return campaign


def owner_of(campaign):
    return Membership.objects.get(organization=campaign.organization, role=Role.OWNER).user


def join(campaign, role):
    return Membership.objects.create(organization=campaign.organization, user=UserFactory.create(), role=role).user


def put(client, campaign, account_ids):
    return client.put(
        f"/api/campaigns/{campaign.pk}/collection-accounts",
        {"account_ids": account_ids},
        content_type="application/json",
    )


def linked(campaign):
    return list(campaign.account_links.values_list("account_id", flat=True))


def test_with_one_owner_the_switch_applies_at_once(make_api_client, campaign):
    till = CollectionAccountFactory.create(
        organization=campaign.organization, kind="till", paybill_number="", till_number="5123456", is_default=False
    )
    client = make_api_client(signed_in_as=owner_of(campaign))

    answer = put(client, campaign, [till.pk])

    assert answer.status_code == 200, answer.content
    assert [account["till_number"] for account in answer.json()] == ["5123456"]
    assert linked(campaign) == [till.pk]
    page = client.get(f"/api/campaigns/{campaign.pk}").json()
    assert [instruction["summary"] for instruction in page["payment_instructions"]] == ["Buy Goods till 5123456"]


def test_with_a_treasurer_too_the_switch_waits_for_approval(make_api_client, campaign):
    treasurer = join(campaign, Role.TREASURER)
    was = linked(campaign)
    other = CollectionAccountFactory.create(organization=campaign.organization, is_default=False)

    answer = put(make_api_client(signed_in_as=treasurer), campaign, [other.pk, *was])

    assert answer.status_code == 202
    assert answer.json()["description"].startswith(f"Take the payments of the campaign '{campaign.title}' into ")
    assert linked(campaign) == was
    approve = f"/api/orgs/{campaign.organization_id}/approvals/{answer.json()['id']}/approve"
    assert make_api_client(signed_in_as=owner_of(campaign)).post(approve).status_code == 200
    assert linked(campaign) == [other.pk, *was]


@pytest.mark.parametrize(
    ("account_ids", "message"),
    [
        ("none", "Please provide at least one valid payment method to continue."),
        ("four", "You can add at most 3 payment methods."),
        ("twice", "Each payment method can be used only once."),
        ("elsewhere", "Please choose one of the organization's accounts."),
    ],
)
def test_the_wizards_rules_hold(make_api_client, campaign, account_ids, message):
    mine = linked(campaign)[0]
    account_ids = {
        "none": [],
        "four": [mine]
        + [CollectionAccountFactory.create(organization=campaign.organization, is_default=False).pk for _ in range(3)],
        "twice": [mine, mine],
        "elsewhere": [CollectionAccountFactory.create().pk],  # another organization's
    }[account_ids]

    answer = put(make_api_client(signed_in_as=owner_of(campaign)), campaign, account_ids)

    assert answer.status_code == 422
    assert answer.json()["field_errors"] == {"account_ids": message}
    assert linked(campaign) == [mine]


@pytest.mark.parametrize("role", [Role.USHER, Role.VIEWER])
def test_ushers_and_viewers_cannot_switch(make_api_client, campaign, role):
    answer = put(make_api_client(signed_in_as=join(campaign, role)), campaign, linked(campaign))

    assert answer.status_code == 403


def test_a_legacy_fundraisers_bank_details_cannot_be_changed_after_setup(make_api_client, campaign):
    campaign.type = CampaignType.FUNDRAISING
    campaign.save(update_fields=["type"])
    other = CollectionAccountFactory.create(organization=campaign.organization, is_default=False)

    answer = put(make_api_client(signed_in_as=owner_of(campaign)), campaign, [other.pk])

    assert (answer.status_code, answer.json()["detail"]) == (400, "Bank details cannot be changed after setup.")
