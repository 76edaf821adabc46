import factory
from django.utils import timezone

from collection_accounts.models import CollectionAccount, CollectionAccountKind
from organizations.models import Organization


class CollectionAccountFactory(factory.django.DjangoModelFactory[CollectionAccount]):
    """A church's own paybill, where givers type the pledge code as the account number."""

    class Meta:
        model = CollectionAccount

    organization = factory.LazyFunction(lambda: Organization.objects.create(name="St. Mark's Kiambu", kind="church"))
    kind = CollectionAccountKind.PAYBILL
    paybill_number = factory.Sequence(lambda n: f"{600100 + n}")
    is_default = True


# The paybill of the test campaigns' church (``campaigns.tests.conftest.campaign``); never the platform's.
TEST_PAYBILL = "600100"


def connected_paybill(organization, paybill_number: str = TEST_PAYBILL, **fields) -> CollectionAccount:
    """The organization's paybill ``paybill_number`` (made if it has none), connected to M-Pesa: givers
    get PIN prompts to it and its C2B confirmations reach us."""
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
    return account
