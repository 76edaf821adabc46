import pytest

from accounts.tests.factories import UserFactory
from audit.models import AuditAction, AuditEntry
from collection_accounts.models import CollectionAccount
from collection_accounts.tests.factories import CollectionAccountFactory, connected_paybill
from organizations.models import Membership, Organization
from organizations.roles import Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def church():
    return Organization.objects.create(name="St. Mark's Kiambu", kind="church")


def member(organization, role):
    return Membership.objects.create(organization=organization, user=UserFactory.create(), role=role).user


def url(church, account=None):
    base = f"/api/orgs/{church.pk}/collection-accounts"
    return f"{base}/{account.pk}" if account else base


PAYBILL = {"kind": "paybill", "label": "Building fund", "paybill_number": "600100"}


@pytest.mark.parametrize("role", [Role.OWNER, Role.TREASURER])
def test_owners_and_treasurers_add_an_account_and_the_first_is_the_default(make_api_client, church, role):
    answer = make_api_client(signed_in_as=member(church, role)).post(url(church), PAYBILL)

    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert (body["kind"], body["paybill_number"], body["is_default"]) == ("paybill", "600100", True)
    assert (body["mpesa_connected_at"], body["offers_stk_push"]) == (None, False)
    entry = AuditEntry.objects.get(action=AuditAction.COLLECTION_ACCOUNT_CHANGED)
    assert entry.after["paybill_number"] == "600100" and entry.before == {}


def test_the_first_account_starts_the_keywords_with_tithe_offering_and_sadaka(make_api_client, church):
    client = make_api_client(signed_in_as=member(church, Role.OWNER))
    client.post(url(church), PAYBILL)
    client.put(f"/api/orgs/{church.pk}/account-keywords", {"keywords": ["HARVEST"]}, content_type="application/json")

    client.post(url(church), {**PAYBILL, "paybill_number": "600200"})

    assert client.get(f"/api/orgs/{church.pk}/account-keywords").json() == {"keywords": ["HARVEST"]}
    other = Organization.objects.create(name="PCEA Thika", kind="church")
    other_client = make_api_client(signed_in_as=member(other, Role.OWNER))
    other_client.post(url(other), {**PAYBILL, "paybill_number": "600300"})
    assert other_client.get(f"/api/orgs/{other.pk}/account-keywords").json() == {
        "keywords": ["OFFERING", "SADAKA", "TITHE"]
    }


@pytest.mark.parametrize(("role", "status"), [(Role.USHER, 403), (Role.VIEWER, 403), (None, 404)])
def test_other_members_and_outsiders_cannot_add_one(make_api_client, church, role, status):
    user = member(church, role) if role else UserFactory.create()

    answer = make_api_client(signed_in_as=user).post(url(church), PAYBILL)

    assert answer.status_code == status
    assert not CollectionAccount.objects.exists()


def test_each_kind_needs_its_own_details_and_keeps_only_them(make_api_client, church):
    client = make_api_client(signed_in_as=member(church, Role.OWNER))

    answer = client.post(url(church), {"kind": "bank", "bank_name": "KCB", "till_number": "5123456"})

    assert answer.status_code == 422
    assert answer.json()["field_errors"] == {
        "account_name": "This field is required.",
        "account_number": "This field is required.",
    }
    answer = client.post(url(church), {"kind": "till", "till_number": "51234x", "paybill_number": "600100"})
    assert answer.json()["field_errors"] == {"till_number": "Please enter a valid till number (digits only)."}
    answer = client.post(url(church), {"kind": "till", "till_number": "5123456", "paybill_number": "600100"})
    assert (answer.json()["till_number"], answer.json()["paybill_number"]) == ("5123456", "")


def test_the_platforms_own_paybill_is_refused(make_api_client, church, settings):
    settings.MPESA_SHORTCODE = "174379"

    answer = make_api_client(signed_in_as=member(church, Role.OWNER)).post(
        url(church), {**PAYBILL, "paybill_number": "174379"}
    )

    assert answer.status_code == 422
    assert answer.json()["field_errors"] == {
        "paybill_number": "This is Harambee's paybill for its own fees. Please enter your organization's own number."
    }


def test_a_paybill_belongs_to_one_organization_only(make_api_client, church):
    CollectionAccountFactory.create(paybill_number="600100")

    answer = make_api_client(signed_in_as=member(church, Role.OWNER)).post(url(church), PAYBILL)

    assert answer.status_code == 422
    assert answer.json()["field_errors"] == {"paybill_number": "This paybill is already registered on Harambee."}


def test_every_member_lists_the_accounts_default_first(make_api_client, church):
    CollectionAccountFactory.create(
        organization=church, is_default=False, kind="cash", paybill_number="", location="Church office"
    )
    CollectionAccountFactory.create(organization=church, paybill_number="600100")

    body = make_api_client(signed_in_as=member(church, Role.VIEWER)).get(url(church)).json()

    assert [(row["kind"], row["is_default"]) for row in body] == [("paybill", True), ("cash", False)]


def test_an_update_changes_details_moves_the_default_and_a_new_number_disconnects(make_api_client, church):
    paybill = connected_paybill(church)
    till = CollectionAccountFactory.create(
        organization=church, kind="till", paybill_number="", till_number="5123456", is_default=False
    )
    client = make_api_client(signed_in_as=member(church, Role.TREASURER))

    answer = client.patch(url(church, till), {"is_default": True, "label": "Sunday till"})
    assert answer.status_code == 200 and answer.json()["is_default"] is True
    paybill.refresh_from_db()
    assert paybill.is_default is False and paybill.mpesa_connected_at is not None

    client.patch(url(church, paybill), {"label": "Same number"})
    paybill.refresh_from_db()
    assert paybill.mpesa_connected_at is not None
    client.patch(url(church, paybill), {"paybill_number": "600200"})
    paybill.refresh_from_db()
    assert (paybill.paybill_number, paybill.mpesa_connected_at) == ("600200", None)
    assert AuditEntry.objects.filter(action=AuditAction.COLLECTION_ACCOUNT_CHANGED).count() == 3


def test_removing_the_default_makes_the_oldest_other_one_the_default(make_api_client, church):
    default = CollectionAccountFactory.create(organization=church)
    other = CollectionAccountFactory.create(organization=church, is_default=False)

    answer = make_api_client(signed_in_as=member(church, Role.OWNER)).delete(url(church, default))

    assert answer.status_code == 204
    other.refresh_from_db()
    assert other.is_default is True
    assert AuditEntry.objects.get(action=AuditAction.COLLECTION_ACCOUNT_CHANGED).before["id"] == default.pk


def test_another_organizations_account_is_not_found(make_api_client, church):
    elsewhere = CollectionAccountFactory.create()

    answer = make_api_client(signed_in_as=member(church, Role.OWNER)).delete(url(church, elsewhere))

    assert answer.status_code == 404
    assert CollectionAccount.objects.filter(pk=elsewhere.pk).exists()
