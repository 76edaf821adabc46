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


def connected_paybill(organization, paybill_number: str = "600100", **fields) -> CollectionAccount:
    """A paybill the organization connected to M-Pesa: givers get PIN prompts to it."""
    return CollectionAccountFactory.create(
        organization=organization, paybill_number=paybill_number, mpesa_connected_at=timezone.now(), **fields
    )
