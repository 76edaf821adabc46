from django.db.models import Q, QuerySet

from collection_accounts.models import AccountKeyword, CollectionAccount, CollectionAccountKind
from organizations.models import Organization


def collection_accounts_of(*, organization: Organization | int) -> QuerySet[CollectionAccount]:
    """The organization's accounts, the default first, then in the order they were added."""
    return CollectionAccount.objects.filter(organization=organization)


def collection_account_matching(
    *, organization_id: int, kind: str, details: dict[str, str]
) -> CollectionAccount | None:
    """The organization's account of ``kind`` with exactly these cleaned details (its label aside)."""
    same = {field: value for field, value in details.items() if field != "label"}
    return CollectionAccount.objects.filter(organization_id=organization_id, kind=kind, **same).first()


def collection_account_for_shortcode(*, shortcode: str) -> CollectionAccount | None:
    """The paybill or till M-Pesa reports payments to ``shortcode`` for (a till by its store number,
    or its own number when it has no store); None when no organization registered it."""
    if not shortcode:
        return None
    paybill = CollectionAccount.objects.filter(kind=CollectionAccountKind.PAYBILL, paybill_number=shortcode).first()
    if paybill is not None:
        return paybill
    return (
        CollectionAccount.objects.filter(kind=CollectionAccountKind.TILL)
        .filter(Q(store_number=shortcode) | Q(store_number="", till_number=shortcode))
        .first()
    )


def account_keywords_of(*, organization: Organization | int) -> list[str]:
    """The organization's account keywords, alphabetically."""
    return list(AccountKeyword.objects.filter(organization=organization).values_list("keyword", flat=True))
