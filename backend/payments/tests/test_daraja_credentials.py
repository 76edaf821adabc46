"""The Daraja adapter speaks for any app it is given: the platform's or an organization's own,
paybill or till, each with its own token; with Pull Transactions and a connection test. Driven
over HTTP against the simulator."""

from datetime import timedelta

import httpx
import pytest
from django.core.cache import cache
from django.utils import timezone

from payments.providers import ProviderError
from payments.providers.daraja import (
    CredentialsRefused,
    DarajaClient,
    DarajaCredentials,
    PasskeyRefused,
    ShortcodeRefused,
)
from simulators.daraja import daraja_app_register
from simulators.models import SimulatedC2BRegistration, SimulatedC2BTransaction, SimulatedStkRequest

pytestmark = pytest.mark.django_db(transaction=True)

CHURCH = {"consumer_key": "church-key", "consumer_secret": "church-secret", "passkey": "church-passkey"}


@pytest.fixture
def church_paybill(providers) -> DarajaCredentials:
    daraja_app_register(shortcode="600100", **CHURCH)
    return DarajaCredentials(shortcode="600100", nominated_number="254722000111", **CHURCH)


@pytest.fixture
def church_till(providers) -> DarajaCredentials:
    keys = {"consumer_key": "till-key", "consumer_secret": "till-secret", "passkey": "till-passkey"}
    daraja_app_register(shortcode="700200", till_number="5123456", **keys)
    return DarajaCredentials(shortcode="700200", kind="till", till_number="5123456", **keys)


def client(credentials: DarajaCredentials, **changes: str) -> DarajaClient:
    values = {
        "consumer_key": credentials.consumer_key,
        "consumer_secret": credentials.consumer_secret,
        "shortcode": credentials.shortcode,
        "passkey": credentials.passkey,
        "kind": credentials.kind,
        "till_number": credentials.till_number,
        "nominated_number": credentials.nominated_number,
        **changes,
    }
    return DarajaClient.for_credentials(DarajaCredentials(**values))


def pay(providers, **body) -> str:
    answer = httpx.post(f"{providers.url}/simulators/daraja/c2b/simulate", json={"MSISDN": "254708374149", **body})
    assert answer.status_code == 200, answer.text
    return answer.json()["TransID"]


def test_the_credentials_never_show_their_secrets_in_repr(church_paybill):
    shown = repr(church_paybill)

    assert "600100" in shown
    assert not any(secret in shown for secret in CHURCH.values())


def test_a_connection_test_with_the_right_credentials_passes(church_paybill):
    client(church_paybill).check_shortcode()


@pytest.mark.parametrize(
    ("changes", "refusal"),
    [
        ({"consumer_secret": "guessed"}, CredentialsRefused),
        ({"consumer_key": "unknown-key"}, CredentialsRefused),
        ({"shortcode": "174379"}, ShortcodeRefused),  # the platform's, not this app's
        ({"passkey": "another-passkey"}, PasskeyRefused),
    ],
    ids=["wrong-secret", "wrong-key", "another-shortcode", "wrong-passkey"],
)
def test_each_wrong_credential_is_told_apart(church_paybill, changes, refusal):
    with pytest.raises(refusal):
        client(church_paybill, **changes).check_shortcode()


def test_daraja_out_of_reach_is_neither_of_the_refusals(church_paybill, settings):
    settings.MPESA_BASE_URL = "http://127.0.0.1:9/simulators/daraja"  # port 9 (discard) refuses at once

    with pytest.raises(ProviderError) as raised:
        client(church_paybill).check_shortcode()

    assert type(raised.value) is ProviderError


def test_each_app_has_its_own_cached_token(church_paybill):
    church, platform = client(church_paybill), DarajaClient.from_settings()

    church.access_token()

    assert church._token_cache_key != platform._token_cache_key
    assert cache.get(platform._token_cache_key) is None
    assert client(church_paybill, consumer_secret="replaced")._token_cache_key != church._token_cache_key


def pledge_push(daraja: DarajaClient, providers) -> SimulatedStkRequest:
    """A KES 500 push for pledge HB-7KQ2, as Daraja's simulator received it."""
    daraja.stk_push(
        phone="+254700000000",
        amount=500,
        account_reference="HB-7KQ2",
        description="Pledge",
        callback_url=f"{providers.url}/ok",
    )
    return SimulatedStkRequest.objects.get()


def test_a_push_with_the_churchs_credentials_reaches_its_paybill(church_paybill, providers):
    prompt = pledge_push(client(church_paybill), providers)
    assert (prompt.shortcode, prompt.party_b, prompt.account_reference) == ("600100", "600100", "HB-7KQ2")


def test_a_push_to_a_till_buys_goods_from_the_store_number(church_till, providers):
    prompt = pledge_push(client(church_till), providers)
    assert (prompt.shortcode, prompt.party_b) == ("700200", "5123456")


def test_a_till_push_sent_as_a_paybill_is_refused(church_till, providers):
    with pytest.raises(ProviderError, match="TransactionType"):
        pledge_push(client(church_till, kind="paybill"), providers)


def test_urls_are_registered_for_the_churchs_shortcode_only(church_paybill, providers):
    client(church_paybill).register_c2b_urls(
        confirmation_url=f"{providers.url}/confirm", validation_url=f"{providers.url}/validate"
    )

    assert list(SimulatedC2BRegistration.objects.values_list("shortcode", flat=True)) == ["600100"]
    with pytest.raises(ShortcodeRefused):
        client(church_paybill, shortcode="174379").register_c2b_urls(
            confirmation_url=f"{providers.url}/confirm", validation_url=f"{providers.url}/validate"
        )


def test_pull_registration_happens_once_and_again_is_harmless(church_paybill, providers):
    first = client(church_paybill).register_pull(callback_url=f"{providers.url}/pulled")
    again = client(church_paybill).register_pull(callback_url=f"{providers.url}/pulled")

    assert "registered successfully" in first
    assert "already registered" in again


def test_pull_lists_the_last_payments_page_after_page_even_those_never_confirmed(
    church_paybill, providers, monkeypatch
):
    monkeypatch.setattr("simulators.daraja.pull.PULL_PAGE_SIZE", 2)
    daraja = client(church_paybill)
    daraja.register_c2b_urls(confirmation_url=f"{providers.url}/confirm", validation_url=f"{providers.url}/validate")
    daraja.register_pull(callback_url=f"{providers.url}/pulled")
    receipts = [pay(providers, ShortCode="600100", BillRefNumber=f"HB-{n}", Amount=100 + n) for n in range(4)]
    dropped = pay(providers, ShortCode="600100", BillRefNumber="HB-LOST", Amount=700, DropConfirmation=True)
    DarajaClient.from_settings().register_c2b_urls(
        confirmation_url=f"{providers.url}/confirm", validation_url=f"{providers.url}/validate"
    )
    pay(providers, Amount=50)  # to the platform's paybill: not the church's
    now = timezone.now()

    pulled = daraja.pull_transactions(start=now - timedelta(hours=48), end=now + timedelta(minutes=1))

    assert [p.trans_id for p in pulled] == [*receipts, dropped]
    lost = pulled[-1]
    assert (lost.amount, lost.bill_ref_number, lost.shortcode) == (700, "HB-LOST", "600100")
    assert abs(lost.trans_time - SimulatedC2BTransaction.objects.get(trans_id=dropped).paid_at) < timedelta(seconds=1)
    assert lost.as_c2b_notification().trans_id == dropped


def test_a_dropped_confirmation_is_never_posted(church_paybill, providers, monkeypatch):
    posted = []
    monkeypatch.setattr("simulators.daraja.c2b.deliver_c2b_later", lambda **delivery: posted.append(delivery["body"]))
    client(church_paybill).register_c2b_urls(
        confirmation_url=f"{providers.url}/confirm", validation_url=f"{providers.url}/validate"
    )

    pay(providers, ShortCode="600100", BillRefNumber="HB-LOST", Amount=700, DropConfirmation=True)
    pay(providers, ShortCode="600100", BillRefNumber="HB-SEEN", Amount=700)

    assert [body["BillRefNumber"] for body in posted] == ["HB-SEEN"]
    assert SimulatedC2BTransaction.objects.count() == 2


def test_pull_with_nothing_in_the_period_is_an_empty_list(church_paybill, providers):
    daraja = client(church_paybill)
    daraja.register_pull(callback_url=f"{providers.url}/pulled")
    now = timezone.now()

    assert daraja.pull_transactions(start=now - timedelta(hours=1), end=now) == []


def test_pull_before_registering_is_refused(church_paybill):
    now = timezone.now()

    with pytest.raises(ProviderError, match="not registered"):
        client(church_paybill).pull_transactions(start=now - timedelta(hours=1), end=now)


def test_a_till_payment_carries_no_account_number(church_till, providers):
    client(church_till).register_c2b_urls(confirmation_url=f"{providers.url}/c", validation_url=f"{providers.url}/v")

    pay(providers, ShortCode="5123456", BillRefNumber="HB-7KQ2", Amount=300, DropConfirmation=True)

    paid = SimulatedC2BTransaction.objects.get()
    assert (paid.shortcode, paid.paid_to, paid.transaction_type, paid.bill_ref_number) == (
        "700200",
        "5123456",
        "Buy Goods",
        "",
    )
