import factory
from django.utils import timezone

from collection_accounts.models import CollectionAccount, CollectionAccountKind
from organizations.models import Organization
from payments.models import MpesaConnection
from simulators.daraja import daraja_app_register
from simulators.models import SimulatedSubaccount


class CollectionAccountFactory(factory.django.DjangoModelFactory[CollectionAccount]):
    """A church's own paybill, where givers type the pledge code as the account number."""

    class Meta:
        model = CollectionAccount

    organization = factory.LazyFunction(lambda: Organization.objects.create(name="St. Mark's Kiambu", kind="church"))
    kind = CollectionAccountKind.PAYBILL
    # Never TEST_PAYBILL (the test campaigns' church), which connected_paybill gives.
    paybill_number = factory.Sequence(lambda n: f"{610100 + n}")
    is_default = True


# The church's connection answers on its own callback URLs, e.g. /api/payments/callbacks/c2b/<token>/confirmation.
CHURCH_CALLBACK_TOKEN = "church-callback-token"
# The paybill of the test campaigns' church (``campaigns.tests.conftest.campaign``); never the platform's.
TEST_PAYBILL = "600100"


def connected_paybill(organization, paybill_number: str = TEST_PAYBILL, **fields) -> CollectionAccount:
    """The organization's paybill ``paybill_number`` (made if it has none), connected to M-Pesa with its
    own Daraja app (registered in the simulator too): givers get PIN prompts to it and its C2B
    confirmations reach us."""
    account, _created = CollectionAccount.objects.get_or_create(
        organization=organization,
        kind=CollectionAccountKind.PAYBILL,
        paybill_number=paybill_number,
        defaults={
            "mpesa_connected_at": timezone.now(),
            "is_default": not organization.collection_accounts.exists(),
            **fields,
        },
    )
    church_app = {"consumer_key": f"church-key-{paybill_number}", "consumer_secret": "s3cret", "passkey": "passkey"}
    daraja_app_register(shortcode=paybill_number, **church_app)
    MpesaConnection.objects.get_or_create(
        account=account,
        defaults={
            **church_app,
            "nominated_number": "+254722000111",
            "callback_token": CHURCH_CALLBACK_TOKEN
            if paybill_number == TEST_PAYBILL
            else f"{CHURCH_CALLBACK_TOKEN}-{paybill_number}",
            "c2b_registered_at": timezone.now(),
            "pull_registered_at": timezone.now(),
        },
    )
    return account


# The Paystack subaccount the test church's card payments settle to.
TEST_SUBACCOUNT_CODE = "ACCT_testchurch0001"


def card_bank_account(organization, subaccount_code: str = TEST_SUBACCOUNT_CODE) -> CollectionAccount:
    """The organization's bank account that takes cards: card payments to its campaigns settle to it
    through its Paystack subaccount (registered in the simulator too)."""
    account, _created = CollectionAccount.objects.get_or_create(
        organization=organization,
        kind=CollectionAccountKind.BANK,
        card_subaccount_code=subaccount_code,
        defaults={
            "bank_name": "KCB",
            "account_name": organization.name,
            "account_number": "1180012345",
            "card_settlement_bank": "01",
            "is_default": not organization.collection_accounts.exists(),
        },
    )
    SimulatedSubaccount.objects.get_or_create(
        subaccount_code=subaccount_code,
        defaults={
            "business_name": organization.name,
            "settlement_bank": "01",
            "account_number": account.account_number,
            "percentage_charge": 0,
        },
    )
    return account
