from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from common.errors import NotFoundError, PermissionDeniedError
from grants.matching import GOOD_MATCH_SCORE, Matcher
from grants.models import AmountBracket, Grant, GrantApplication, GrantCategory, OrganizationProfile
from payments.selectors import user_has_paid


def organization_profile_get(*, user: User) -> OrganizationProfile:
    profile = OrganizationProfile.objects.filter(user=user).first()
    if profile is None:
        raise NotFoundError(_("You have not completed your organization profile yet."), code="no_profile")
    return profile


def ensure_subscriber(*, user: User) -> None:
    """Grant search and tracking are for subscribers (spec section 6)."""
    if not user_has_paid(user=user):
        raise PermissionDeniedError(
            _("Grant search is for subscribers. Please complete your payment to unlock Grantfunding AI."),
            code="subscription_required",
        )


def grant_search(
    *, user: User, q: str, category: GrantCategory | None, bracket: AmountBracket | None, location: str
) -> dict[str, Any]:
    """The grants matching the filters, ranked by fit to the user's organization profile, those past
    their deadline last; with the user's tracking state of each and the choices for the filters."""
    ensure_subscriber(user=user)
    grants = Grant.objects.current()
    for word in q.split():
        grants = grants.filter(
            Q(title__icontains=word) | Q(organization__icontains=word) | Q(description__icontains=word)
        )
    if category:
        grants = grants.filter(category=category)
    if bracket:
        low, high = bracket.bounds
        grants = grants.filter(amount_usd__gte=low, amount_usd__lte=high)
    if location.strip():
        grants = grants.filter(location__iexact=location.strip())

    profile = OrganizationProfile.objects.filter(user=user).first()
    matcher = Matcher(profile) if profile else None
    applications = {application.grant_id: application for application in GrantApplication.objects.filter(user=user)}
    today = timezone.localdate()
    results = []
    for grant in grants:
        score, reasons = matcher.match(grant) if matcher else (0, [])
        application = applications.get(grant.pk)
        results.append(
            {
                **{name: getattr(grant, name) for name in _GRANT_FIELDS},
                "category_label": grant.get_category_display(),
                "apply_url": grant.apply_url,
                "match_score": score,
                "match_reasons": reasons,
                "past_deadline": grant.deadline < today,
                "application_state": application.state if application else None,
                "application_note": application.note if application else "",
            }
        )
    results.sort(key=lambda r: (r["past_deadline"], -r["match_score"], r["deadline"], r["id"]))

    in_use = set(Grant.objects.current().values_list("category", "location").distinct())
    used_categories = {category for category, _location in in_use}
    return {
        "count": len(results),
        "results": results,
        "categories": [{"value": c.value, "label": str(c.label)} for c in GrantCategory if c.value in used_categories],
        "brackets": [{"value": b.value, "label": str(b.label)} for b in AmountBracket],
        "locations": sorted({location for _category, location in in_use}, key=str.lower),
    }


_GRANT_FIELDS = (
    "id",
    "title",
    "organization",
    "category",
    "amount_usd",
    "location",
    "deadline",
    "description",
    "website",
    "is_sample",
    "regions",
    "focus_areas",
    "amount_min_usd",
    "amount_max_usd",
)


def grant_good_match_count(*, user: User) -> int:
    """The dashboard's 'grant matches': open grants that fit the user's organization well."""
    profile = OrganizationProfile.objects.filter(user=user).first()
    if profile is None:
        return 0
    matcher = Matcher(profile)
    open_grants = Grant.objects.current().filter(deadline__gte=timezone.localdate())
    return sum(1 for grant in open_grants if matcher.match(grant)[0] >= GOOD_MATCH_SCORE)


def grants_personal_data_export(*, user: User) -> dict[str, object]:
    """The user's organization profile and grant applications, for their download (``privacy``)."""
    return {
        "organization_profile": OrganizationProfile.objects.filter(user=user).first(),
        "grant_applications": list(
            GrantApplication.objects.filter(user=user).select_related("grant").order_by("updated_at", "id")
        ),
    }
