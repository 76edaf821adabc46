"""An organization's collection accounts under /api/orgs/{id}/collection-accounts."""

from django.http import HttpRequest, HttpResponse
from ninja import Router, Status
from ninja.security import django_auth

from accounts.auth import signed_in_user
from collection_accounts import selectors, services
from collection_accounts.models import CollectionAccount
from collection_accounts.schemas import (
    AccountKeywordsIn,
    AccountKeywordsOut,
    CollectionAccountIn,
    CollectionAccountOut,
    CollectionAccountPatchIn,
)
from common.schemas import ErrorOut
from organizations.models import ChangeRequest
from organizations.schemas import ChangeRequestOut
from organizations.selectors import membership_of

router = Router(tags=["collection accounts"])

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}
PATH = "/orgs/{organization_id}/collection-accounts"


def waiting(request: HttpRequest, organization_id: int, change: ChangeRequest) -> Status[ChangeRequestOut]:
    """202: the change waits for another owner's or treasurer's approval (the two-person rule)."""
    membership = membership_of(user=signed_in_user(request), organization_id=organization_id)
    return Status(202, ChangeRequestOut.for_member(change, membership=membership))


@router.get(PATH, response={200: list[CollectionAccountOut], **ERRORS}, auth=django_auth)
def collection_account_list(request: HttpRequest, organization_id: int) -> list[CollectionAccount]:
    """Where the organization's money is paid, the default first: every member sees them."""
    organization = membership_of(user=signed_in_user(request), organization_id=organization_id).organization
    return list(selectors.collection_accounts_of(organization=organization))


@router.post(PATH, response={201: CollectionAccountOut, 202: ChangeRequestOut, **ERRORS}, auth=django_auth)
def collection_account_create(
    request: HttpRequest, organization_id: int, payload: CollectionAccountIn
) -> Status[CollectionAccount] | Status[ChangeRequestOut]:
    """Add an account (owners and treasurers): 202 while it waits for another's approval."""
    change = services.collection_account_create(
        user=signed_in_user(request), organization_id=organization_id, **payload.dict()
    )
    if isinstance(change, ChangeRequest):
        return waiting(request, organization_id, change)
    return Status(201, change)


@router.patch(
    PATH + "/{account_id}", response={200: CollectionAccountOut, 202: ChangeRequestOut, **ERRORS}, auth=django_auth
)
def collection_account_update(
    request: HttpRequest, organization_id: int, account_id: int, payload: CollectionAccountPatchIn
) -> CollectionAccount | Status[ChangeRequestOut]:
    """Change an account's details or make it the default (owners and treasurers): 202 while it
    waits for another's approval."""
    change = services.collection_account_update(
        user=signed_in_user(request), organization_id=organization_id, account_id=account_id, **payload.dict()
    )
    if isinstance(change, ChangeRequest):
        return waiting(request, organization_id, change)
    return change


@router.delete(PATH + "/{account_id}", response={202: ChangeRequestOut, 204: None, **ERRORS}, auth=django_auth)
def collection_account_remove(
    request: HttpRequest, organization_id: int, account_id: int
) -> HttpResponse | Status[ChangeRequestOut]:
    """Remove an account (owners and treasurers): 202 while it waits for another's approval."""
    change = services.collection_account_remove(
        user=signed_in_user(request), organization_id=organization_id, account_id=account_id
    )
    if change is not None:
        return waiting(request, organization_id, change)
    return HttpResponse(status=204)


KEYWORDS_PATH = "/orgs/{organization_id}/account-keywords"


@router.get(KEYWORDS_PATH, response={200: AccountKeywordsOut, **ERRORS}, auth=django_auth)
def account_keywords_get(request: HttpRequest, organization_id: int) -> dict[str, list[str]]:
    """Account numbers of the organization's paybill payments that are not for Harambee: every member sees them."""
    organization = membership_of(user=signed_in_user(request), organization_id=organization_id).organization
    return {"keywords": selectors.account_keywords_of(organization=organization)}


@router.put(KEYWORDS_PATH, response={200: AccountKeywordsOut, **ERRORS}, auth=django_auth)
def account_keywords_set(
    request: HttpRequest, organization_id: int, payload: AccountKeywordsIn
) -> dict[str, list[str]]:
    """Replace the keywords (owners and treasurers)."""
    keywords = services.account_keywords_set(
        user=signed_in_user(request), organization_id=organization_id, keywords=payload.keywords
    )
    return {"keywords": keywords}
