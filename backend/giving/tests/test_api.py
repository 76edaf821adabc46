"""My giving through HTTP: the acceptance journey (every channel, two organizations, seen after the
phone proves itself), privacy, query counts, the statement download."""

import io

import pypdf
import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from giving.tests.support import PHONE, giving_world
from organizations.models import Membership
from organizations.roles import Role
from pledges.tests.factories import paid_donation

pytestmark = pytest.mark.django_db

MY_GIVING = "/api/my-giving"


def verify_phone(client, monkeypatch, phone: str) -> None:
    """Prove ``phone`` with the code texted to it, as the profile page does (the code is fixed here)."""
    with monkeypatch.context() as patch:
        patch.setattr("accounts.services.secrets.choice", lambda digits: "7")
        started = client.post("/api/profile/phone-verification", {"phone": phone}, REMOTE_ADDR="127.0.0.55")
    assert started.status_code == 202
    assert client.post("/api/profile/phone-verification/confirm", {"code": "777777"}).status_code == 200


def test_a_giver_sees_every_channel_and_both_organizations_once_their_phone_is_verified(make_api_client, monkeypatch):
    giver = UserFactory.create()
    world = giving_world(giver=giver)
    client = make_api_client(signed_in_as=giver)

    before = client.get(MY_GIVING).json()
    # Unverified: only what was given signed in (the card gift).
    assert before["pledges"] == []
    assert [gift["method"] for gift in before["gifts"]] == ["card"]

    verify_phone(client, monkeypatch, "0712345678")
    body = client.get(MY_GIVING).json()

    assert body["verified_phone"] == PHONE
    pledges = {pledge["code"]: pledge for pledge in body["pledges"]}
    assert set(pledges) == {world.web.code, world.ussd.code, world.desk.code}
    assert {pledge["channel"] for pledge in pledges.values()} == {"web", "ussd", "desk"}
    assert {pledge["organization_name"] for pledge in pledges.values()} == {
        world.church.organization.name,
        world.school.organization.name,
    }
    web = pledges[world.web.code]
    assert (web["amount"], web["paid_amount"], web["remaining_amount"], web["due_now"]) == (
        20_000,
        8_000,
        12_000,
        12_000,
    )
    assert web["pay_url"] == f"/pledges/{world.web.code}"
    assert pledges[world.ussd.code]["status"] == "confirmed"
    assert pledges[world.ussd.code]["claimable"] is True
    gifts = {gift["method"]: gift for gift in body["gifts"]}
    assert set(gifts) == {"card", "mpesa_manual"}
    # Anonymous to the public, the giver's own here.
    assert (gifts["mpesa_manual"]["is_anonymous"], gifts["mpesa_manual"]["mpesa_receipt"]) == (True, "RKT7JK8LM9")
    assert body["years"]


def test_another_person_sees_none_of_it(make_api_client, monkeypatch):
    giver = UserFactory.create()
    giving_world(giver=giver)
    stranger = UserFactory.create()
    client = make_api_client(signed_in_as=stranger)
    verify_phone(client, monkeypatch, "0722000111")

    body = client.get(MY_GIVING).json()

    assert (body["pledges"], body["gifts"], body["years"]) == ([], [], [])


def test_an_unverified_number_on_the_profile_finds_nothing(make_api_client):
    giver = UserFactory.create(phone=PHONE)
    giving_world(giver=UserFactory.create())

    body = make_api_client(signed_in_as=giver).get(MY_GIVING).json()

    assert (body["verified_phone"], body["pledges"], body["gifts"]) == ("", [], [])


def test_a_pledge_another_account_made_with_the_number_stays_theirs(make_api_client, monkeypatch):
    giver = UserFactory.create()
    world = giving_world(giver=giver)
    world.desk.user = UserFactory.create()
    world.desk.save(update_fields=["user"])
    client = make_api_client(signed_in_as=giver)
    verify_phone(client, monkeypatch, PHONE)

    codes = {pledge["code"] for pledge in client.get(MY_GIVING).json()["pledges"]}

    assert world.desk.code not in codes


def test_my_giving_reads_in_a_fixed_number_of_queries(make_api_client, monkeypatch, django_assert_num_queries):
    giver = UserFactory.create()
    giving_world(giver=giver)
    client = make_api_client(signed_in_as=giver)
    verify_phone(client, monkeypatch, PHONE)
    client.get(MY_GIVING)

    # Session and user (2), pledges, gifts, years (3).
    with django_assert_num_queries(5):
        first = client.get(MY_GIVING).json()
    giving_world(giver=giver, series="QAB")  # as much again
    with django_assert_num_queries(5):
        second = client.get(MY_GIVING).json()
    assert len(second["pledges"]) == 2 * len(first["pledges"])


def test_signed_out_my_giving_is_401(api_client):
    assert api_client.get(MY_GIVING).status_code == 401


def test_the_statement_download_is_a_pdf_of_the_year(make_api_client, monkeypatch):
    giver = UserFactory.create()
    giving_world(giver=giver)
    client = make_api_client(signed_in_as=giver)
    verify_phone(client, monkeypatch, PHONE)
    year = client.get(MY_GIVING).json()["years"][0]

    response = client.get(f"{MY_GIVING}/statement.pdf", {"year": year, "language": "sw"})

    assert response["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(response.content)).pages)
    assert f"Taarifa ya utoaji {year}" in text
    assert "RKT1AB2CD3" in text and "RKT7JK8LM9" in text
    assert "Ksh 15,200" in text  # 8,000 + 5,000 + 1,500 + 700


def test_a_year_in_the_future_is_refused(signed_in_client):
    response = signed_in_client.get(f"{MY_GIVING}/statement.pdf", {"year": 2999})

    assert response.status_code == 422


def test_a_treasurer_previews_who_can_be_reached_and_an_usher_cannot(make_api_client):
    giver = UserFactory.create()
    world = giving_world(giver=giver)
    paid_donation(world.church, name="Cash at the door")  # no e-mail, no phone
    organization = world.church.organization
    treasurer, usher = UserFactory.create(), UserFactory.create()
    Membership.objects.create(organization=organization, user=treasurer, role=Role.TREASURER)
    Membership.objects.create(organization=organization, user=usher, role=Role.USHER)
    path = f"/api/orgs/{organization.pk}/giving-statements/preview"
    year = timezone.localdate().year

    body = make_api_client(signed_in_as=treasurer).get(path, {"year": year}).json()

    assert (body["giver_count"], body["by_sms"], body["by_email"]) == (2, 1, 1)
    assert body["unreachable"] == [{"name": "Cash at the door", "total": 100}]
    assert body["total"] == 8_000 + 700 + 100
    assert make_api_client(signed_in_as=usher).get(path, {"year": year}).status_code == 403
