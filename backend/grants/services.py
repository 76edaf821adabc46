"""Writes of the grant tool: the organization profile and the tracking of grants."""

from django.db import models
from django.utils.translation import gettext as _

from accounts.models import User
from common.errors import FieldValidationError, NotFoundError
from grants.models import Grant, GrantApplication, OrganizationProfile
from grants.selectors import ensure_subscriber


def _too_long(limit: int) -> str:
    return _("Please keep this answer under %(limit)s characters.") % {"limit": f"{limit:,}"}


def organization_profile_save(
    *,
    user: User,
    organization_name: str,
    mission: str,
    focus_areas: str,
    organization_type: str,
    location: str,
    funding_range: str,
) -> OrganizationProfile:
    """Create or replace the user's organization profile: every answer is required (spec section 5)."""
    answers = {
        "organization_name": organization_name.strip(),
        "mission": mission.strip(),
        "focus_areas": focus_areas.strip(),
        "organization_type": organization_type.strip(),
        "location": location.strip(),
        "funding_range": funding_range.strip(),
    }
    errors: dict[str, str] = {}
    for name, answer in answers.items():
        field = OrganizationProfile._meta.get_field(name)
        assert isinstance(field, models.Field)
        limit = field.max_length
        if not answer:
            errors[name] = _("Please answer this question.")
        elif limit is not None and len(answer) > limit:
            errors[name] = _too_long(limit)
    if errors:
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    profile, _created = OrganizationProfile.objects.update_or_create(user=user, defaults=answers)
    return profile


def grant_application_set(*, user: User, grant_id: int, state: str, note: str) -> GrantApplication:
    """Record where the user stands with a grant (saved, applied, awarded or declined) and a note."""
    ensure_subscriber(user=user)
    grant = Grant.objects.filter(pk=grant_id).first()
    if grant is None:
        raise NotFoundError(_("Grant not found."), code="not_found")
    errors: dict[str, str] = {}
    if state not in GrantApplication.State.values:
        errors["state"] = _("Please choose saved, applied, awarded or declined.")
    limit = GrantApplication._meta.get_field("note").max_length or 0
    if len(note.strip()) > limit:
        errors["note"] = _("Please keep the note under %(limit)s characters.") % {"limit": f"{limit:,}"}
    if errors:
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    application, _created = GrantApplication.objects.update_or_create(
        user=user, grant=grant, defaults={"state": state, "note": note.strip()}
    )
    return application


def grants_personal_data_erase(*, user: User) -> None:
    """An account deletion (``privacy``): the user's grant applications and organization profile go."""
    for model in (GrantApplication, OrganizationProfile):
        model.objects.filter(user=user).delete()
