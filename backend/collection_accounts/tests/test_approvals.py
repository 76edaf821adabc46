"""The two-person rule on where the money is paid: with two or more owners and treasurers, adding,
changing or removing a collection account waits for another of them; every owner and treasurer is
told by SMS and e-mail when it is asked and when it applies; each step is audited."""

import pytest

from accounts.tests.factories import UserFactory
from audit.models import AuditAction, AuditEntry
from collection_accounts.models import CollectionAccount
from collection_accounts.tests.factories import CollectionAccountFactory
from notifications.models import NotificationLog
from organizations.models import ChangeRequest, Membership, Organization
from organizations.roles import Role

pytestmark = pytest.mark.django_db

TILL = {"kind": "till", "label": "Harambee till", "till_number": "5123456"}


@pytest.fixture
def church():
    return Organization.objects.create(name="St. Mark's Kiambu", kind="church")


@pytest.fixture
def owner(church):
    return join(church, Role.OWNER)


@pytest.fixture
def treasurer(church):
    return join(church, Role.TREASURER)


def join(organization, role):
    user = UserFactory.create(phone=f"+2547110{UserFactory._meta.model.objects.count():05d}")
    return Membership.objects.create(organization=organization, user=user, role=role).user


def url(church, account=None):
    base = f"/api/orgs/{church.pk}/collection-accounts"
    return f"{base}/{account.pk}" if account else base


def approve(make_api_client, church, user, request_id):
    return make_api_client(signed_in_as=user).post(f"/api/orgs/{church.pk}/approvals/{request_id}/approve")


def test_a_new_till_waits_for_the_other_treasurer_then_is_added(
    make_api_client, church, owner, treasurer, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        answer = make_api_client(signed_in_as=owner).post(url(church), TILL)

    assert answer.status_code == 202, answer.content
    body = answer.json()
    assert body["kind"] == "collection_account.add"
    assert body["description"] == "Add M-Pesa till (Buy Goods) 5123456 (Harambee till) as a collection account."
    assert not CollectionAccount.objects.exists()
    # The treasurer is asked; the owner who asked is not asked to approve it.
    asked = NotificationLog.objects.filter(template__endswith="change_requested")
    assert sorted(asked.values_list("recipient", flat=True)) == sorted([treasurer.email, treasurer.phone])
    email = next(log for log in asked if log.channel == "email")
    assert email.subject == "A change to where St. Mark's Kiambu is paid needs your approval"
    assert "Add M-Pesa till (Buy Goods) 5123456" in email.body

    with django_capture_on_commit_callbacks(execute=True):
        approved = approve(make_api_client, church, treasurer, body["id"])

    assert (approved.status_code, approved.json()["status"]) == (200, "applied")
    account = CollectionAccount.objects.get()
    assert (account.till_number, account.is_default) == ("5123456", True)
    assert NotificationLog.objects.filter(template__endswith="change_applied").count() == 4
    added = AuditEntry.objects.get(action=AuditAction.COLLECTION_ACCOUNT_CHANGED)
    assert (added.actor, added.after["till_number"]) == (treasurer, "5123456")


def test_bad_details_are_refused_at_once_and_ask_for_nothing(make_api_client, church, owner, treasurer):
    answer = make_api_client(signed_in_as=owner).post(url(church), {"kind": "till", "till_number": "12ab"})

    assert answer.status_code == 422
    assert not ChangeRequest.objects.exists()


def test_the_one_who_asked_cannot_approve_their_own_account(make_api_client, church, owner, treasurer):
    request_id = make_api_client(signed_in_as=owner).post(url(church), TILL).json()["id"]

    answer = approve(make_api_client, church, owner, request_id)

    assert answer.status_code == 403
    assert not CollectionAccount.objects.exists()


def test_a_till_registered_elsewhere_meanwhile_is_refused_on_approval_and_stays_pending(
    make_api_client, church, owner, treasurer
):
    request_id = make_api_client(signed_in_as=owner).post(url(church), TILL).json()["id"]
    CollectionAccountFactory.create(kind="till", paybill_number="", till_number="5123456")

    answer = approve(make_api_client, church, treasurer, request_id)

    assert answer.status_code == 422
    assert answer.json()["field_errors"] == {"till_number": "This till is already registered on Harambee."}
    assert ChangeRequest.objects.get(pk=request_id).status == "pending"


def test_changing_a_paybill_waits_and_the_approved_number_disconnects_it(make_api_client, church, owner, treasurer):
    account = CollectionAccountFactory.create(organization=church, paybill_number="600222")
    CollectionAccount.objects.filter(pk=account.pk).update(mpesa_connected_at="2026-01-01T00:00:00Z")

    answer = make_api_client(signed_in_as=treasurer).patch(url(church, account), {"paybill_number": "600333"})

    assert answer.status_code == 202
    assert answer.json()["description"] == (
        "Change the collection account M-Pesa paybill 600222 to M-Pesa paybill 600333."
    )
    account.refresh_from_db()
    assert account.paybill_number == "600222"
    assert approve(make_api_client, church, owner, answer.json()["id"]).status_code == 200
    account.refresh_from_db()
    assert (account.paybill_number, account.mpesa_connected_at) == ("600333", None)


def test_an_account_changed_since_the_request_is_not_changed_again(make_api_client, church, owner, treasurer):
    account = CollectionAccountFactory.create(organization=church, paybill_number="600222")
    request_id = make_api_client(signed_in_as=treasurer).patch(url(church, account), {"label": "Roof"}).json()["id"]
    CollectionAccount.objects.filter(pk=account.pk).update(label="Building fund")

    answer = approve(make_api_client, church, owner, request_id)

    assert (answer.status_code, answer.json()["code"]) == (400, "account_changed")
    assert CollectionAccount.objects.get(pk=account.pk).label == "Building fund"


def test_nothing_to_change_asks_for_nothing(make_api_client, church, owner, treasurer):
    account = CollectionAccountFactory.create(organization=church, paybill_number="600222", label="Roof")

    answer = make_api_client(signed_in_as=owner).patch(url(church, account), {"label": "Roof", "is_default": True})

    assert answer.status_code == 200
    assert not ChangeRequest.objects.exists()


def test_removing_an_account_waits_for_approval(make_api_client, church, owner, treasurer):
    account = CollectionAccountFactory.create(organization=church, paybill_number="600222")

    answer = make_api_client(signed_in_as=owner).delete(url(church, account))

    assert answer.status_code == 202
    assert answer.json()["description"] == "Remove the collection account M-Pesa paybill 600222."
    assert CollectionAccount.objects.filter(pk=account.pk).exists()
    assert approve(make_api_client, church, treasurer, answer.json()["id"]).status_code == 200
    assert not CollectionAccount.objects.filter(pk=account.pk).exists()


def test_ushers_and_viewers_cannot_approve_a_payment_detail_change(make_api_client, church, owner, treasurer):
    request_id = make_api_client(signed_in_as=owner).post(url(church), TILL).json()["id"]

    for role in (Role.USHER, Role.VIEWER):
        assert approve(make_api_client, church, join(church, role), request_id).status_code == 403
    assert not CollectionAccount.objects.exists()


def test_the_description_is_in_the_readers_language(make_api_client, church, owner, treasurer):
    make_api_client(signed_in_as=owner).post(url(church), TILL)
    client = make_api_client(signed_in_as=treasurer)
    client.cookies["django_language"] = "sw"

    (request,) = client.get(f"/api/orgs/{church.pk}/approvals").json()

    assert request["description"].startswith("Ongeza ")
