"""An organization's collection accounts under /api/orgs/{id}/collection-accounts."""

from django.http import HttpRequest, HttpResponse
from ninja import Router, Status
from ninja.security import django_auth

from accounts.auth import signed_in_user
from collection_accounts import selectors, services
from collection_accounts.models import CollectionAccount
from collection_accounts.schemas import CollectionAccountIn, CollectionAccountOut, CollectionAccountPatchIn
from common.schemas import ErrorOut
from organizations.selectors import membership_of

router = Router(tags=["collection accounts"])

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}
PATH = "/orgs/{organization_id}/collection-accounts"


@router.get(PATH, response={200: list[CollectionAccountOut], **ERRORS}, auth=django_auth)
def collection_account_list(request: HttpRequest, organization_id: int) -> list[CollectionAccount]:
    """Where the organization's money is paid, the default first: every member sees them."""
    organization = membership_of(user=signed_in_user(request), organization_id=organization_id).organization
    return list(selectors.collection_accounts_of(organization=organization))


@router.post(PATH, response={201: CollectionAccountOut, **ERRORS}, auth=django_auth)
def collection_account_create(
    request: HttpRequest, organization_id: int, payload: CollectionAccountIn
) -> Status[CollectionAccount]:
    """Add an account (owners and treasurers)."""
    account = services.collection_account_create(
        user=signed_in_user(request), organization_id=organization_id, **payload.dict()
    )
    return Status(201, account)


@router.patch(PATH + "/{account_id}", response={200: CollectionAccountOut, **ERRORS}, auth=django_auth)
def collection_account_update(
    request: HttpRequest, organization_id: int, account_id: int, payload: CollectionAccountPatchIn
) -> CollectionAccount:
    """Change an account's details or make it the default (owners and treasurers)."""
    return services.collection_account_update(
        user=signed_in_user(request), organization_id=organization_id, account_id=account_id, **payload.dict()
    )


@router.delete(PATH + "/{account_id}", response={204: None, **ERRORS}, auth=django_auth)
def collection_account_remove(request: HttpRequest, organization_id: int, account_id: int) -> HttpResponse:
    """Remove an account (owners and treasurers)."""
    services.collection_account_remove(
        user=signed_in_user(request), organization_id=organization_id, account_id=account_id
    )
    return HttpResponse(status=204)
