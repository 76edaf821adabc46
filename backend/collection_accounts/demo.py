"""Demo data: a second organization that collects into a till and a bank's collection paybill, with a
treasurer and a viewer (the ministry's own paybill is made with its campaign, pledges/demo.py)."""

from django.utils import timezone

from accounts.models import User
from collection_accounts.models import CollectionAccount, CollectionAccountKind
from organizations.models import Membership, Organization, OrganizationKind
from organizations.roles import Role

SECOND_ORGANIZATION = "PCEA St. Peter's Nyeri"
# The ministry's paybill: connected, so PIN prompts reach it locally (the simulator lets the platform's
# app act for it until connections carry their own credentials).
MINISTRY_PAYBILL = "600100"


def demo_organizations_load(*, owner: User, treasurer: User, viewer: User) -> Organization:
    """The second organization (its owner's campaigns go to it), with a treasurer and a viewer; a till
    and a bank collection paybill."""
    organization, _created = Organization.objects.get_or_create(
        name=SECOND_ORGANIZATION, defaults={"kind": OrganizationKind.CHURCH, "county": "Nyeri", "town": "Nyeri"}
    )
    for user, role in ((owner, Role.OWNER), (treasurer, Role.TREASURER), (viewer, Role.VIEWER)):
        Membership.objects.get_or_create(organization=organization, user=user, defaults={"role": role})
    CollectionAccount.objects.get_or_create(
        organization=organization,
        kind=CollectionAccountKind.TILL,
        till_number="8899001",
        defaults={"store_number": "8899000", "label": "Sunday collections", "is_default": True},
    )
    CollectionAccount.objects.get_or_create(
        organization=organization,
        kind=CollectionAccountKind.PAYBILL_FIXED_ACCOUNT,
        paybill_number="247247",
        account_number="0123456789",
        defaults={"bank_name": "Equity Bank", "label": "Building fund (Equity)"},
    )
    return organization


def demo_ministry_paybill(organization: Organization) -> CollectionAccount:
    """The ministry organization's own paybill, connected to M-Pesa."""
    account, _created = CollectionAccount.objects.get_or_create(
        kind=CollectionAccountKind.PAYBILL,
        paybill_number=MINISTRY_PAYBILL,
        defaults={
            "organization": organization,
            "label": "ICC Imara building fund",
            "is_default": not organization.collection_accounts.exists(),
            "mpesa_connected_at": timezone.now(),
        },
    )
    return account
