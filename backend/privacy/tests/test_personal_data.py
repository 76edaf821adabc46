"""A user's own data: the download (GET /api/profile/export) and deleting the account."""

from collections.abc import Callable
from datetime import date

import pytest
from django.contrib.contenttypes.models import ContentType

from accounts.models import User
from accounts.tests.factories import DEFAULT_PASSWORD, UserFactory
from campaigns.models import Campaign, CampaignLike, CampaignStatus, Draft, DraftToolType
from campaigns.tests.factories import CampaignFactory, CampaignLikeFactory
from collection_accounts.tests.factories import CollectionAccountFactory
from conftest import ApiClient
from feedback.models import Feedback
from grants.models import GrantApplication, OrganizationProfile
from grants.tests.factories import GrantApplicationFactory, OrganizationProfileFactory, subscribe
from notifications.models import NotificationLog, PledgeOptOut
from payments.models import MpesaStandingOrder, Payment
from pledges.models import DELETED_USER_NAME, Donation, Pledge, PledgePayment
from pledges.services import pledge_payment_record
from pledges.tests.factories import PledgeFactory, paid_donation

pytestmark = pytest.mark.django_db

EXPORT = "/api/profile/export"
DELETE = "/api/profile/delete"


def give_records(user: User, count: int, *, own_campaigns: int | None = None) -> None:
    """``count`` of every kind of record a user can have (``own_campaigns`` campaigns they
    organize, each with a stranger's pledge), plus other people's that are not theirs."""
    if not OrganizationProfile.objects.filter(user=user).exists():
        OrganizationProfileFactory.create(user=user)
    subscribe(user)
    for _ in range(count if own_campaigns is None else own_campaigns):
        PledgeFactory.create(campaign=CampaignFactory.create(organizer=user))
    for n in range(count):
        other_campaign = CampaignFactory.create()
        # Given while signed in: theirs.
        pledge = PledgeFactory.create(
            campaign=other_campaign, user=user, email=user.email.upper(), phone="+254700000001"
        )
        pledge_payment_record(
            pledge_id=pledge.pk, user=other_campaign.organizer, amount=100, method="cash", note="", reference=""
        )
        donation = paid_donation(other_campaign, name=f"{user.first_name} {n}", email=user.email)
        Payment.objects.filter(pk=donation.payment_id).update(user=user)
        CampaignLikeFactory.create(user=user, campaign=other_campaign)
        Draft.objects.create(user=user, tool_type=DraftToolType.PLEDGING, step_data={"title": f"Draft {n}"})
        GrantApplicationFactory.create(user=user)
        Feedback.objects.create(user=user, message=f"Feedback {n}", contact=user.phone)
        NotificationLog.objects.create(
            channel=NotificationLog.Channel.EMAIL, recipient=user.email, template="email/welcome", body="Hi"
        )
        NotificationLog.objects.create(
            channel=NotificationLog.Channel.SMS,
            recipient=pledge.phone,
            template="sms/reminder",
            body="Pay",
            pledge=pledge,
        )


def standing_order(pledge: Pledge) -> MpesaStandingOrder:
    """The M-Pesa Ratiba standing order its pledger approved from their phone."""
    return MpesaStandingOrder.objects.create(
        account=CollectionAccountFactory.create(organization=pledge.campaign.organization, is_default=False),
        name=f"Pledge {pledge.code}",
        phone=pledge.phone,
        amount=1_000,
        frequency="monthly",
        start_on=date(2027, 1, 5),
        end_on=date(2027, 6, 5),
        account_reference=pledge.code,
        status=MpesaStandingOrder.Status.ACTIVE,
    )


@pytest.fixture
def owner_client(make_api_client: Callable[..., ApiClient], user: User) -> ApiClient:
    return make_api_client(signed_in_as=user)


# The download -------------------------------------------------------------------------------


def test_export_is_a_json_attachment_for_the_signed_in_user_only(api_client: ApiClient, owner_client: ApiClient):
    assert api_client.get(EXPORT).status_code == 401

    response = owner_client.get(EXPORT)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="harambee-my-data-')
    assert response["Cache-Control"] == "no-store"


def test_export_holds_the_account_and_everything_the_user_made(owner_client: ApiClient, user: User):
    give_records(user, 2)
    PledgeFactory.create()  # a stranger's

    data = owner_client.get(EXPORT).json()

    assert data["account"]["email"] == user.email
    assert data["account"]["id_number"] == user.id_number
    assert data["organization_profile"]["organization_name"] == "Hope Community Church"
    assert [c["id"] for c in data["campaigns"]] == list(
        Campaign.objects.filter(organizer=user).order_by("created_at", "id").values_list("id", flat=True)
    )
    assert len(data["campaign_drafts"]) == len(data["campaign_likes"]) == 2
    assert {p["email"] for p in data["pledges"]} == {user.email.upper()}
    assert {p["paid_amount"] for p in data["pledges"]} == {100}
    assert [d["name"] for d in data["donations"]] == ["Wanjiru 0", "Wanjiru 1"]
    assert {d["status"] for d in data["donations"]} == {"succeeded"}
    # The subscription's, the two donations' and the two pledge payments.
    assert sorted(p["purpose"] for p in data["payments"]) == [
        "donation",
        "donation",
        "pledge_payment",
        "pledge_payment",
        "subscription",
    ]
    assert len(data["subscriptions"]) == 1
    assert len(data["grant_applications"]) == len(data["feedback"]) == 2
    assert sorted(n["channel"] for n in data["notifications"]) == ["email", "email", "sms", "sms"]


def test_export_takes_the_same_number_of_queries_for_one_or_many_records(
    owner_client: ApiClient, user: User, django_assert_num_queries
):
    give_records(user, 1)
    # The session, the user, one query per kind of record (15), and the contacts the user gave
    # with their pledges and donations (the messages sent to them).
    with django_assert_num_queries(18):
        owner_client.get(EXPORT)
    give_records(user, 50)
    with django_assert_num_queries(18):
        response = owner_client.get(EXPORT)
    assert len(response.json()["pledges"]) == 51


def test_records_with_the_users_address_given_by_someone_else_are_not_theirs(owner_client: ApiClient, user: User):
    """Nobody verified the address: a stranger who signs up with a pledger's e-mail must not see
    or wipe the pledges made with it."""
    campaign = CampaignFactory.create()
    not_theirs = PledgeFactory.create(campaign=campaign, email=user.email, phone="+254700000009")
    NotificationLog.objects.create(
        channel=NotificationLog.Channel.SMS,
        recipient=not_theirs.phone,
        template="sms/pledge_recorded",
        body="Your pledge code",
        pledge=not_theirs,
    )
    theirs = PledgeFactory.create(campaign=campaign, user=user, email=user.email)
    organizers_email = NotificationLog.objects.create(
        channel=NotificationLog.Channel.EMAIL,
        recipient=campaign.organizer.email,
        template="email/new_pledge",
        body="A new pledge",
        pledge=theirs,
    )

    data = owner_client.get(EXPORT).json()

    assert [p["code"] for p in data["pledges"]] == [theirs.code]
    assert data["notifications"] == []
    owner_client.post(DELETE, {"password": DEFAULT_PASSWORD})
    not_theirs.refresh_from_db()
    organizers_email.refresh_from_db()
    assert (not_theirs.name, not_theirs.email) != (DELETED_USER_NAME, "")
    assert NotificationLog.objects.filter(pledge=not_theirs, body="Your pledge code").exists()
    assert (organizers_email.recipient, organizers_email.body) == (campaign.organizer.email, "A new pledge")


def test_a_payment_from_someone_elses_phone_is_exported_without_their_number(owner_client: ApiClient, user: User):
    pledge = PledgeFactory.create(user=user, email=user.email)
    payment = Payment.objects.create(
        purpose=Payment.Purpose.PLEDGE_PAYMENT,
        provider=Payment.Provider.MPESA_C2B,
        amount=100,
        campaign=pledge.campaign,
        payer_phone="+254711111111",
        status=Payment.Status.SUCCEEDED,
    )
    PledgePayment.objects.create(pledge=pledge, payment=payment)

    [exported] = owner_client.get(EXPORT).json()["payments"]

    assert exported["amount"] == 100
    assert (exported["payer_phone"], exported["payer_email"]) == ("", "")
    payment.refresh_from_db()
    assert payment.payer_phone == "+254711111111"


# Deleting the account -----------------------------------------------------------------------


def test_deleting_needs_the_password_and_says_so_when_it_is_wrong(owner_client: ApiClient, user: User):
    response = owner_client.post(DELETE, {"password": "not-my-password"})

    assert response.status_code == 422
    message = "The password is incorrect. Your account was not deleted."
    assert response.json()["detail"] == message
    assert response.json()["field_errors"] == {"password": message}
    user.refresh_from_db()
    assert user.is_active
    assert owner_client.get("/api/profile").status_code == 200


def test_deleting_without_a_password_asks_for_it(owner_client: ApiClient):
    response = owner_client.post(DELETE, {})

    assert response.status_code == 422
    assert response.json()["field_errors"] == {"password": "Please enter your password to confirm."}


def test_wrong_passwords_are_limited_like_sign_ins(owner_client: ApiClient, settings):
    settings.RATE_LIMIT_SIGN_IN = (2, 900)
    for _ in range(2):
        assert owner_client.post(DELETE, {"password": "wrong"}).status_code == 422

    response = owner_client.post(DELETE, {"password": DEFAULT_PASSWORD})

    assert response.status_code == 429


def test_visitors_cannot_delete_anything(api_client: ApiClient):
    assert api_client.post(DELETE, {"password": DEFAULT_PASSWORD}).status_code == 401


def test_deleting_signs_out_and_the_account_can_never_sign_in_again(
    make_api_client: Callable[..., ApiClient], owner_client: ApiClient, user: User
):
    other_session = make_api_client(signed_in_as=user)
    email = user.email

    response = owner_client.post(DELETE, {"password": DEFAULT_PASSWORD})

    assert response.status_code == 200
    assert response.json()["user"] is None
    assert owner_client.get("/api/profile").status_code == 401
    assert other_session.get("/api/profile").status_code == 401
    sign_in = make_api_client().post("/api/auth/signin", {"email": email, "password": DEFAULT_PASSWORD})
    assert sign_in.status_code == 400
    assert sign_in.json()["detail"] == "Invalid email or password."


def test_deleting_scrubs_the_user_but_keeps_the_row_the_ledger_points_at(owner_client: ApiClient, user: User):
    give_records(user, 1)

    owner_client.post(DELETE, {"password": DEFAULT_PASSWORD})

    user.refresh_from_db()
    assert user.email == f"deleted-{user.pk}@deleted.invalid"
    assert (user.first_name, user.last_name, user.phone, user.id_number, user.avatar_url) == ("", "", "", "", "")
    assert not user.is_active
    assert not user.has_usable_password()
    assert Payment.objects.filter(user=user, purpose=Payment.Purpose.SUBSCRIPTION).count() == 1
    for model in (Draft, CampaignLike, Feedback, GrantApplication, OrganizationProfile):
        assert not model.objects.filter(user=user).exists(), model


def test_deleting_closes_the_users_campaigns_and_leaves_their_pledgers_alone(owner_client: ApiClient, user: User):
    give_records(user, 2)
    CampaignFactory.create(organizer=user, status=CampaignStatus.PENDING)

    owner_client.post(DELETE, {"password": DEFAULT_PASSWORD})

    assert set(Campaign.objects.filter(organizer=user).values_list("status", flat=True)) == {CampaignStatus.CLOSED}
    assert Pledge.objects.filter(campaign__organizer=user).exclude(name=DELETED_USER_NAME).count() == 2


def test_deleting_anonymises_pledges_and_donations_but_keeps_the_money(owner_client: ApiClient, user: User):
    give_records(user, 2)
    pledges = Pledge.objects.filter(user=user)
    pledge_totals = sorted(pledges.values_list("id", "amount", "paid_amount", "status", "campaign_id"))
    donations = Donation.objects.filter(payment__user=user)
    donation_totals = sorted(donations.values_list("id", "amount", "payment_id", "counted_at"))
    stranger = PledgeFactory.create()
    approved = standing_order(pledges[0])
    strangers = standing_order(stranger)

    owner_client.post(DELETE, {"password": DEFAULT_PASSWORD})

    approved.refresh_from_db()
    strangers.refresh_from_db()
    assert (approved.phone, strangers.phone) == ("", stranger.phone)
    kept_pledges = Pledge.objects.filter(pk__in=[row[0] for row in pledge_totals])
    assert sorted(kept_pledges.values_list("id", "amount", "paid_amount", "status", "campaign_id")) == pledge_totals
    assert set(kept_pledges.values_list("name", "email", "phone", "is_anonymous")) == {
        (DELETED_USER_NAME, "", "", True)
    }
    assert PledgeOptOut.objects.filter(pledge__in=kept_pledges).count() == 2
    kept_donations = Donation.objects.filter(pk__in=[row[0] for row in donation_totals])
    assert sorted(kept_donations.values_list("id", "amount", "payment_id", "counted_at")) == donation_totals
    assert set(kept_donations.values_list("name", "email", "phone")) == {(DELETED_USER_NAME, "", "")}
    assert not Payment.objects.exclude(payer_email="", payer_phone="").filter(donation__in=kept_donations).exists()
    assert set(NotificationLog.objects.values_list("recipient", "body")) == {("", "")}
    stranger.refresh_from_db()
    assert stranger.name != DELETED_USER_NAME


@pytest.mark.parametrize("records", [1, 20])
def test_deleting_takes_as_many_queries_whatever_the_number_of_records(
    make_api_client: Callable[..., ApiClient], records: int, django_assert_num_queries
):
    user = UserFactory.create()
    give_records(user, records, own_campaigns=1)
    client = make_api_client(signed_in_as=user)
    ContentType.objects.get_for_model(Campaign)  # cached by the process after its first audit entry
    # Each campaign is closed (and audited) on its own; everything else takes a fixed number (each
    # app's erase updates its rows through a subquery, without reading their ids first; one reads the
    # failed-attempt counter, a table without Redis; champions read which campaigns to render afresh).
    with django_assert_num_queries(46):
        client.post(DELETE, {"password": DEFAULT_PASSWORD})


def test_the_last_admin_cannot_delete_their_account(make_api_client: Callable[..., ApiClient]):
    admin = UserFactory.create(is_staff=True)
    client = make_api_client(signed_in_as=admin)

    response = client.post(DELETE, {"password": DEFAULT_PASSWORD})

    assert response.status_code == 400
    assert response.json()["code"] == "last_admin"
    UserFactory.create(is_staff=True)
    assert client.post(DELETE, {"password": DEFAULT_PASSWORD}).status_code == 200


def test_privacy_contact_names_the_controller_from_settings(api_client: ApiClient, settings):
    settings.PRIVACY_CONTACT_EMAIL = "dpo@example.org"

    assert api_client.get("/api/privacy-contact").json() == {"controller": "Harambee", "email": "dpo@example.org"}


def test_organizers_see_a_deleted_users_pledges_named_in_their_own_language(
    make_api_client: Callable[..., ApiClient], owner_client: ApiClient, user: User
):
    pledge = PledgeFactory.create(user=user, email=user.email)
    owner_client.post(DELETE, {"password": DEFAULT_PASSWORD})
    organizer = make_api_client(signed_in_as=pledge.campaign.organizer)

    names = {
        language: [
            row["name"]
            for row in organizer.get(
                f"/api/pledges?campaign_id={pledge.campaign_id}", headers={"Accept-Language": language}
            ).json()
        ]
        for language in ("en", "sw")
    }

    assert names == {"en": ["Deleted user"], "sw": ["Mtumiaji aliyefutwa"]}
