"""The grant tool's API: the organization profile (any signed-in user), grant search and tracking
(subscribers only: 403 for everyone else)."""

from typing import Any

from django.http import HttpRequest
from ninja import Query, Router
from ninja.security import django_auth

from accounts.auth import signed_in_user
from common.schemas import ErrorOut
from grants import selectors, services
from grants.models import GrantApplication, OrganizationProfile
from grants.schemas import (
    GrantApplicationIn,
    GrantApplicationOut,
    GrantSearchOut,
    GrantSearchQuery,
    OrganizationProfileIn,
    OrganizationProfileOut,
)

router = Router(tags=["grants"])

SIGNED_IN = {401: ErrorOut, 403: ErrorOut, 422: ErrorOut}


@router.get(
    "/organizations/profile", response={200: OrganizationProfileOut, 404: ErrorOut, **SIGNED_IN}, auth=django_auth
)
def organization_profile(request: HttpRequest) -> OrganizationProfile:
    """The signed-in user's answers to the grant questionnaire; 404 until they complete it."""
    return selectors.organization_profile_get(user=signed_in_user(request))


@router.put("/organizations/profile", response={200: OrganizationProfileOut, **SIGNED_IN}, auth=django_auth)
def organization_profile_save(request: HttpRequest, payload: OrganizationProfileIn) -> OrganizationProfile:
    return services.organization_profile_save(user=signed_in_user(request), **payload.dict())


@router.get("/grants", response={200: GrantSearchOut, **SIGNED_IN}, auth=django_auth)
def grant_search(request: HttpRequest, filters: Query[GrantSearchQuery]) -> dict[str, Any]:
    return selectors.grant_search(user=signed_in_user(request), **filters.dict())


@router.put(
    "/grants/{grant_id}/application", response={200: GrantApplicationOut, 404: ErrorOut, **SIGNED_IN}, auth=django_auth
)
def grant_application_set(request: HttpRequest, grant_id: int, payload: GrantApplicationIn) -> GrantApplication:
    return services.grant_application_set(user=signed_in_user(request), grant_id=grant_id, **payload.dict())
