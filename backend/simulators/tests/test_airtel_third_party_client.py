"""A third-party Airtel Money client from PyPI, pyairtel 0.1.1 (MIT, a small client on requests), pointed
at the Airtel simulator works as against Airtel's UAT: its OAuth2 token, its collection (USSD push) and
its status enquiry are accepted and answered in the documented shapes.

pyairtel has no base-URL option: the UAT address is a module constant (``pyairtel.client._SANDBOX_URL``)
read when the client is made, so it is pointed here before. It also writes every number with Tanzania's
country code (``pyairtel.collection.normalise_phone``, 255 fixed), while Airtel's push takes the MSISDN
without a country code: the test gives it a Kenyan normaliser, as a Kenyan user of it must."""

import pyairtel.client
import pyairtel.collection
import pytest
from pyairtel import AirtelMoney, CollectionError

from simulators.airtel import airtel_app_register
from simulators.models import SimulatedAirtelPayment
from simulators.tests.support import posted_to

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def client(providers, receiver, monkeypatch) -> AirtelMoney:
    airtel_app_register(
        client_id="pyairtel-id",
        client_secret="pyairtel-secret",
        merchant_msisdn="733000222",
        callback_url=f"{receiver.url}/airtel",
    )
    monkeypatch.setattr(pyairtel.client, "_SANDBOX_URL", f"{providers.url}/simulators/airtel")
    monkeypatch.setattr(pyairtel.collection, "normalise_phone", lambda phone: phone[-9:])
    return AirtelMoney(client_id="pyairtel-id", client_secret="pyairtel-secret", country="KE", currency="KES")


def test_the_clients_token_collect_and_status_calls_are_accepted(client, receiver):
    collected = client.collect(phone="+254733123456", amount=1500, reference="PLG7Q4K", transaction_id="PYAIRTEL0001")

    assert collected.transaction_id == "PYAIRTEL0001"
    assert collected.raw["status"]["success"] is True
    (callback,) = posted_to(receiver, "/airtel")
    assert callback["transaction"]["id"] == "PYAIRTEL0001"
    assert callback["transaction"]["status_code"] == "TS"
    status = client.get_collection_status("PYAIRTEL0001")
    assert status.is_successful
    assert status.airtel_money_id == callback["transaction"]["airtel_money_id"]
    pushed = SimulatedAirtelPayment.objects.get(transaction_id="PYAIRTEL0001")
    assert (pushed.msisdn, pushed.amount, pushed.reference) == ("733123456", 1500, "PLG7Q4K")


def test_a_push_waiting_on_the_phone_is_in_progress(client):
    client.collect(phone="0733120000", amount=200, reference="PLG7Q4K", transaction_id="PYAIRTEL0002")

    status = client.get_collection_status("PYAIRTEL0002")

    assert status.is_pending and status.status == "TIP"


def test_the_client_hears_the_simulators_refusals(client, monkeypatch):
    client.collect(phone="0733123456", amount=100, reference="PLG7Q4K", transaction_id="PYAIRTEL0003")
    with pytest.raises(CollectionError):
        client.collect(phone="0733123456", amount=100, reference="PLG7Q4K", transaction_id="PYAIRTEL0003")
    with pytest.raises(CollectionError):
        client.get_collection_status("NO-SUCH-ID")
    tanzanian = AirtelMoney(client_id="pyairtel-id", client_secret="pyairtel-secret")
    with pytest.raises(CollectionError):
        tanzanian.collect(phone="0733123456", amount=100, reference="PLG7Q4K")


def test_wrong_client_credentials_get_no_token(providers, monkeypatch):
    monkeypatch.setattr(pyairtel.client, "_SANDBOX_URL", f"{providers.url}/simulators/airtel")
    stranger = AirtelMoney(client_id="nobody", client_secret="nothing", country="KE", currency="KES")

    # pyairtel reports its token refusal inside a CollectionError.
    with pytest.raises(CollectionError, match="Token request failed \\[401\\]"):
        stranger.collect(phone="0733123456", amount=100, reference="PLG7Q4K")
