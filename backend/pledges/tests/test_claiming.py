"""Claiming: a signed-in user who proves their number with a one-time code makes the pledges made
from it by USSD or SMS their own, never a web pledge that merely typed it."""

import pytest

from accounts.tests.factories import UserFactory
from accounts.tests.test_phone_verification import CONFIRM, texted_code
from audit.models import AuditAction, AuditEntry
from campaigns.tests.conftest import campaign, organizer
from pledges.models import DELETED_USER_NAME, Pledge, PledgeChannel
from pledges.services import pledge_create_by_phone
from pledges.tests.factories import PledgeFactory
from sms_keywords.tests.conftest import Phone

__all__ = ["campaign", "organizer"]

pytestmark = pytest.mark.django_db

NUMBER = "+254711000345"
MINE = "/api/my-pledges"
CLAIM = "/api/my-pledges/claim"


@pytest.fixture
def member(make_api_client):
    """A signed-in user whose profile names the number, not yet proven."""
    return make_api_client(signed_in_as=UserFactory.create(phone=NUMBER))


@pytest.fixture
def phone_pledges(campaign, client):
    """A pledge made by USSD and one by SMS from the number, and a web pledge that typed it."""
    by_ussd = pledge_create_by_phone(
        campaign_id=campaign.pk, amount=700, phone=NUMBER, is_anonymous=True, channel=PledgeChannel.USSD
    )
    Phone(client, number=NUMBER).text(f"PLEDGE {campaign.pk} 300")
    by_sms = Pledge.objects.get(amount=300)
    typed = PledgeFactory.create(campaign=campaign, phone=NUMBER, amount=500)
    return by_ussd, by_sms, typed


def verify(member, django_capture_on_commit_callbacks):
    _answer, code = texted_code(django_capture_on_commit_callbacks, member)
    assert member.post(CONFIRM, {"code": code}).status_code == 200


def codes_of(rows):
    return {row["code"] for row in rows}


def test_after_verifying_the_number_its_ussd_and_sms_pledges_are_claimed_not_web_ones(
    member, phone_pledges, campaign, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    by_ussd, by_sms, typed = phone_pledges
    assert member.get(MINE).json() == {"verified_phone": "", "pledges": [], "claimable": []}

    verify(member, django_capture_on_commit_callbacks)
    with django_assert_max_num_queries(4):
        mine = member.get(MINE).json()
    assert (mine["verified_phone"], mine["pledges"]) == (NUMBER, [])
    assert codes_of(mine["claimable"]) == {by_ussd.code, by_sms.code}
    campaign.refresh_from_db()
    counted_before = campaign.pledged_signed_in_or_paid_total

    claimed = member.post(CLAIM, {"codes": [by_ussd.code, by_sms.code.lower()]})

    assert claimed.status_code == 200, claimed.content
    assert codes_of(claimed.json()["pledges"]) == {by_ussd.code, by_sms.code}
    assert claimed.json()["claimable"] == []
    user = member.get("/api/profile").json()
    assert set(Pledge.objects.filter(user_id=user["id"]).values_list("code", flat=True)) == {by_ussd.code, by_sms.code}
    typed.refresh_from_db()
    assert typed.user is None
    assert AuditEntry.objects.filter(action=AuditAction.PLEDGE_CLAIMED).count() == 2
    # Now counted among the pledges made signed in; nothing else about them changed.
    campaign.refresh_from_db()
    assert campaign.pledged_signed_in_or_paid_total == counted_before + 1000
    by_ussd.refresh_from_db()
    assert (by_ussd.name, by_ussd.is_anonymous, by_ussd.amount) == ("", True, 700)


def test_a_web_pledge_naming_the_number_cannot_be_claimed_and_nothing_changes(
    member, phone_pledges, django_capture_on_commit_callbacks
):
    by_ussd, _by_sms, typed = phone_pledges
    verify(member, django_capture_on_commit_callbacks)

    refused = member.post(CLAIM, {"codes": [by_ussd.code, typed.code]})

    assert refused.status_code == 404
    assert not Pledge.objects.filter(user__isnull=False).exists()


def test_an_unproven_number_claims_nothing(member, phone_pledges):
    by_ussd, _by_sms, _typed = phone_pledges

    assert member.post(CLAIM, {"codes": [by_ussd.code]}).status_code == 404
    assert member.get(MINE).json()["claimable"] == []


def test_a_pledge_claimed_by_one_account_is_not_claimable_by_another(
    member, make_api_client, phone_pledges, django_capture_on_commit_callbacks
):
    by_ussd, _by_sms, _typed = phone_pledges
    verify(member, django_capture_on_commit_callbacks)
    assert member.post(CLAIM, {"codes": [by_ussd.code]}).status_code == 200
    # The number changes hands: the next owner proves it, and finds only what nobody holds.
    next_owner = make_api_client(signed_in_as=UserFactory.create(phone=NUMBER))
    verify(next_owner, django_capture_on_commit_callbacks)

    assert by_ussd.code not in codes_of(next_owner.get(MINE).json()["claimable"])
    assert next_owner.post(CLAIM, {"codes": [by_ussd.code]}).status_code == 404


def test_claiming_nothing_is_refused(member):
    response = member.post(CLAIM, {"codes": []})

    assert (response.status_code, response.json()["field_errors"]) == (422, {"codes": "Choose at least one pledge."})


def test_claimed_pledges_are_in_the_download_and_anonymised_with_the_account(
    member, phone_pledges, django_capture_on_commit_callbacks
):
    by_ussd, _by_sms, _typed = phone_pledges
    verify(member, django_capture_on_commit_callbacks)
    member.post(CLAIM, {"codes": [by_ussd.code]})

    export = member.get("/api/profile/export").json()
    assert [pledge["code"] for pledge in export["pledges"]] == [by_ussd.code]
    assert [text["text"] for text in export["sms_received"]] == [f"PLEDGE {by_ussd.campaign_id} 300"]

    user = UserFactory._meta.model.objects.get(pk=member.get("/api/profile").json()["id"])
    from accounts.tests.factories import DEFAULT_PASSWORD

    assert member.post("/api/profile/delete", {"password": DEFAULT_PASSWORD}).status_code == 200
    by_ussd.refresh_from_db()
    assert (by_ussd.name, by_ussd.phone, by_ussd.user_id) == (DELETED_USER_NAME, "", user.pk)
