"""Websites allowed to show the organization's campaigns in a frame (config/embed.py)."""

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from common.errors import FieldValidationError, NotFoundError
from organizations.embed_origins import embed_origin_checked
from organizations.models import EmbedOrigin, Organization
from organizations.roles import Permission
from organizations.selectors import membership_allowed

MAX_EMBED_ORIGINS = 20  # each goes into the embed page's Content-Security-Policy header


@transaction.atomic
def embed_origin_add(*, user: User, organization_id: int, origin: str) -> EmbedOrigin:
    """Allow a website to show the organization's campaigns' embed (owners): ``origin`` checked and
    written as a browser writes it (organizations/embed_origins.py). Adding one already there gives it
    back unchanged. Audited."""
    organization = membership_allowed(
        user=user, organization_id=organization_id, permission=Permission.MANAGE_TEAM
    ).organization
    checked = embed_origin_checked(origin)
    Organization.objects.select_for_update().filter(pk=organization.pk).first()  # one add at a time: the cap holds
    if existing := EmbedOrigin.objects.filter(organization=organization, origin=checked).first():
        return existing
    if EmbedOrigin.objects.filter(organization=organization).count() >= MAX_EMBED_ORIGINS:
        raise FieldValidationError(
            _("Please correct the errors below"),
            field_errors={
                "origin": _("At most %(count)d websites can show the campaigns.") % {"count": MAX_EMBED_ORIGINS}
            },
        )
    added = EmbedOrigin.objects.create(organization=organization, origin=checked, added_by=user)
    audit_record(actor=user, action=AuditAction.EMBED_ORIGIN_ADDED, target=organization, after={"origin": checked})
    return added


@transaction.atomic
def embed_origin_remove(*, user: User, organization_id: int, origin_id: int) -> None:
    """Stop a website showing the organization's campaigns (owners): its frames are refused from the
    next load. Audited."""
    organization = membership_allowed(
        user=user, organization_id=organization_id, permission=Permission.MANAGE_TEAM
    ).organization
    found = (
        EmbedOrigin.objects.select_for_update().filter(organization=organization, pk=origin_id).first()
        if 1 <= origin_id < 2**63
        else None
    )
    if found is None:
        raise NotFoundError(_("This website was not found."), code="not_found")
    found.delete()
    audit_record(
        actor=user, action=AuditAction.EMBED_ORIGIN_REMOVED, target=organization, before={"origin": found.origin}
    )
