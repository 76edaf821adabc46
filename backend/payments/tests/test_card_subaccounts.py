"""An organization takes card payments into its own bank account: its owners or treasurers set up a
Paystack subaccount on one of its bank collection accounts, and every card donation to its campaigns
then settles to it. Driven over HTTP against the Paystack simulator."""

import pytest

from accounts.tests.factories import UserFactory
from audit.models import AuditAction, AuditEntry
from collection_accounts.models import CollectionAccount
from organizations.models import ChangeRequest
from organizations.roles import Role
from payments.tests.connected_support import JSON, church_bank_account, member
from simulators.models import SimulatedSubaccount

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bank_account(church):
    return church_bank_account(church.campaign.organization)


def cards_url(account: CollectionAccount) -> str:
    return f"/api/orgs/{account.organization_id}/collection-accounts/{account.pk}/cards"


def test_the_only_owner_sets_up_cards_at_once_and_paystack_settles_them_to_the_bank_account(
    church, bank_account, make_api_client, api_client
):
    answer = make_api_client(signed_in_as=church.owner).put(
        cards_url(bank_account), {"settlement_bank": "01"}, content_type=JSON
    )

    assert answer.status_code == 200, answer.content
    assert (answer.json()["takes_cards"], answer.json()["card_settlement_bank"]) == (True, "01")
    subaccount = SimulatedSubaccount.objects.get()
    assert (subaccount.business_name, subaccount.settlement_bank, subaccount.account_number) == (
        church.campaign.organization.name,
        "01",
        "1180012345",
    )
    assert subaccount.percentage_charge == 0  # Harambee keeps no share
    bank_account.refresh_from_db()
    assert bank_account.card_subaccount_code == subaccount.subaccount_code
    entry = AuditEntry.objects.get(action=AuditAction.COLLECTION_ACCOUNT_CHANGED)
    assert (entry.actor, entry.after["card_subaccount_code"]) == (church.owner, subaccount.subaccount_code)
    assert api_client.get(f"/api/campaigns/{church.campaign.pk}").json()["offers_card_payment"] is True


def test_an_account_paystack_cannot_settle_to_is_refused_with_its_reason_and_nothing_changes(
    church, bank_account, make_api_client
):
    bank_account.account_number = "KCB-118-ABC"
    bank_account.save()

    answer = make_api_client(signed_in_as=church.owner).put(
        cards_url(bank_account), {"settlement_bank": "01"}, content_type=JSON
    )

    assert (answer.status_code, answer.json()["code"]) == (400, "card_account_refused")
    assert answer.json()["detail"] == (
        "Paystack did not accept this bank account (Account details are invalid). "
        "Check the bank code and the account number."
    )
    bank_account.refresh_from_db()
    assert bank_account.card_subaccount_code == ""
    assert not AuditEntry.objects.filter(action=AuditAction.COLLECTION_ACCOUNT_CHANGED).exists()


def test_a_bad_bank_code_is_refused_before_paystack_is_asked(church, bank_account, make_api_client):
    answer = make_api_client(signed_in_as=church.owner).put(
        cards_url(bank_account), {"settlement_bank": "K C B"}, content_type=JSON
    )

    assert answer.status_code == 422
    assert set(answer.json()["field_errors"]) == {"settlement_bank"}
    assert not SimulatedSubaccount.objects.exists()


def test_paystack_down_says_so(settings, church, bank_account, make_api_client):
    settings.PAYSTACK_BASE_URL = "http://127.0.0.1:9/paystack"  # nothing listens on the discard port

    answer = make_api_client(signed_in_as=church.owner).put(
        cards_url(bank_account), {"settlement_bank": "01"}, content_type=JSON
    )

    assert (answer.status_code, answer.json()["code"]) == (400, "provider_unavailable")


def test_cards_settle_to_a_bank_account_only(church, make_api_client):
    paybill = church.account

    answer = make_api_client(signed_in_as=church.owner).put(
        cards_url(paybill), {"settlement_bank": "01"}, content_type=JSON
    )

    assert (answer.status_code, answer.json()["code"]) == (400, "not_bank_account")


@pytest.mark.parametrize(("role", "status"), [(Role.USHER, 403), (Role.VIEWER, 403), (None, 404)])
def test_only_owners_and_treasurers_set_up_cards(church, bank_account, make_api_client, role, status):
    user = member(church.campaign.organization, role) if role else UserFactory.create()

    answer = make_api_client(signed_in_as=user).put(
        cards_url(bank_account), {"settlement_bank": "01"}, content_type=JSON
    )

    assert answer.status_code == status
    bank_account.refresh_from_db()
    assert bank_account.card_subaccount_code == ""


def test_a_new_account_number_stops_card_payments_until_they_are_set_up_again(church, bank_account, make_api_client):
    client = make_api_client(signed_in_as=church.owner)
    client.put(cards_url(bank_account), {"settlement_bank": "01"}, content_type=JSON)

    answer = client.patch(
        f"/api/orgs/{bank_account.organization_id}/collection-accounts/{bank_account.pk}",
        {"account_number": "1180099999"},
        content_type=JSON,
    )

    assert answer.status_code == 200, answer.content
    assert answer.json()["takes_cards"] is False


def test_with_two_guardians_card_setup_waits_and_paystack_is_asked_only_when_approved(
    church, bank_account, make_api_client
):
    treasurer = member(church.campaign.organization, Role.TREASURER)

    asked = make_api_client(signed_in_as=church.owner).put(
        cards_url(bank_account), {"settlement_bank": "01"}, content_type=JSON
    )

    assert asked.status_code == 202, asked.content
    assert asked.json()["description"] == "Take card payments into Bank account 1180012345 (bank code 01 at Paystack)."
    assert not SimulatedSubaccount.objects.exists()
    bank_account.refresh_from_db()
    assert bank_account.card_subaccount_code == ""

    approved = make_api_client(signed_in_as=treasurer).post(
        f"/api/orgs/{bank_account.organization_id}/approvals/{asked.json()['id']}/approve"
    )

    assert approved.status_code == 200, approved.content
    bank_account.refresh_from_db()
    assert bank_account.card_subaccount_code == SimulatedSubaccount.objects.get().subaccount_code
    entry = AuditEntry.objects.get(action=AuditAction.COLLECTION_ACCOUNT_CHANGED)
    assert entry.actor == treasurer


def test_a_card_setup_paystack_refuses_at_approval_stays_pending_with_the_reason(church, bank_account, make_api_client):
    treasurer = member(church.campaign.organization, Role.TREASURER)
    bank_account.account_number = "KCB-118-ABC"
    bank_account.save()
    request_id = (
        make_api_client(signed_in_as=church.owner)
        .put(cards_url(bank_account), {"settlement_bank": "01"}, content_type=JSON)
        .json()["id"]
    )

    answer = make_api_client(signed_in_as=treasurer).post(
        f"/api/orgs/{bank_account.organization_id}/approvals/{request_id}/approve"
    )

    assert (answer.status_code, answer.json()["code"]) == (400, "card_account_refused")
    assert ChangeRequest.objects.get(pk=request_id).status == "pending"
    bank_account.refresh_from_db()
    assert bank_account.card_subaccount_code == ""
