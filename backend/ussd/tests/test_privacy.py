"""What the menu keeps per number is in the account holder's download and goes with their account."""

from accounts.tests.factories import DEFAULT_PASSWORD
from ussd.models import Caller, Session


def test_the_numbers_language_choice_and_sessions_are_downloaded_and_erased(make_gateway, make_api_client, user):
    caller = make_gateway(phone=user.phone)
    caller.session("5")
    client = make_api_client(signed_in_as=user)

    exported = client.get("/api/profile/export").json()

    assert exported["ussd_caller"]["language"] == "sw"
    assert [session["phone"] for session in exported["ussd_sessions"]] == [user.phone]
    assert client.post("/api/profile/delete", {"password": DEFAULT_PASSWORD}).status_code == 200
    assert not Caller.objects.exists()
    assert not Session.objects.exists()


def test_another_numbers_data_stays_out_of_the_download(make_gateway, make_api_client, user):
    make_gateway(phone="+254722000111").session("5")

    exported = make_api_client(signed_in_as=user).get("/api/profile/export").json()

    assert (exported["ussd_caller"], exported["ussd_sessions"]) == (None, [])
