"""Instalment plans: set by the pledger (by code) or the organizer."""

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from common.errors import FieldValidationError, ServiceError
from common.money import format_ksh
from organizations.roles import Permission
from pledges import instalments
from pledges.models import (
    InstalmentPlan,
    Pledge,
)
from pledges.selectors import (
    pledge_managed_get,
)
from pledges.services.paying import _ensure_live, pledge_get_by_code
from pledges.services.standing_orders import _plan_summary

# Instalment plans ----------------------------------------------------------------------------


def _plan_errors(*, pledge: Pledge, terms: instalments.PlanTerms, backdating: bool) -> dict[str, str]:
    """What is wrong with ``terms`` for ``pledge`` (saved or not), by field: instalment,
    frequency, first_due_on."""
    errors: dict[str, str] = {}
    if not 1 <= terms.instalment <= pledge.amount:
        errors["instalment"] = _("Please enter a whole amount from Ksh 1 to the pledge's %(amount)s.") % {
            "amount": format_ksh(pledge.amount)
        }
    elif instalments.instalment_count(total=pledge.amount, instalment=terms.instalment) > instalments.MAX_INSTALMENTS:
        errors["instalment"] = _("Please choose a larger instalment: at most %(count)s instalments.") % {
            "count": instalments.MAX_INSTALMENTS
        }
    if terms.frequency not in set(instalments.Frequency):
        errors["frequency"] = _("Please choose weekly or monthly.")
    if not backdating and terms.first_due_on < timezone.localdate():
        errors["first_due_on"] = _("The first instalment cannot fall due in the past.")
    if errors:
        return errors
    last = instalments.schedule(
        total=pledge.amount,
        instalment=terms.instalment,
        frequency=instalments.Frequency(terms.frequency),
        first_due_on=terms.first_due_on,
    )[-1]
    campaign = pledge.campaign
    latest = instalments.latest_last_due_on(end_date=campaign.end_date, past_end_allowed=campaign.instalments_past_end)
    if last.due_on > latest:
        errors["first_due_on" if last.number == 1 else "instalment"] = _(
            "The plan must end by %(date)s; this one ends on %(last)s. Choose larger instalments or an earlier start."
        ) % {"date": date_format(latest, "j F Y"), "last": date_format(last.due_on, "j F Y")}
    return errors


def _plan_save(*, pledge: Pledge, terms: instalments.PlanTerms, set_by: User | None) -> InstalmentPlan:
    """Set or replace ``pledge``'s plan, inside the caller's transaction, the pledge locked. A
    fully paid or cancelled pledge takes none; errors by field (see ``_plan_errors``)."""
    _ensure_live(pledge)
    if pledge.is_confirmed:
        raise ServiceError(_("This pledge is already fully paid."), code="pledge_paid")
    if errors := _plan_errors(pledge=pledge, terms=terms, backdating=set_by is not None):
        raise FieldValidationError(_("Please correct the errors below"), field_errors=errors)
    plan, _created = InstalmentPlan.objects.update_or_create(
        pledge=pledge,
        defaults={
            "instalment": terms.instalment,
            "frequency": terms.frequency,
            "first_due_on": terms.first_due_on,
            "set_by": set_by,
            # The order on the payer's phone pays the old terms: they stop it there (the page says how).
            "standing_order": None,
            "updated_at": timezone.now(),
        },
    )
    plan.pledge = pledge
    return plan


def pledge_plan_set_by_code(*, code: str, client_ip: str, terms: instalments.PlanTerms) -> InstalmentPlan:
    """The pledger's plan, set or changed from their pledge page (the code is their capability, as
    for every operation of that page): the first instalment today or later, the last by the
    campaign's end date (or up to 24 months past it, where the campaign allows)."""
    with transaction.atomic():
        found = pledge_get_by_code(code=code, client_ip=client_ip)
        pledge = Pledge.objects.select_for_update().select_related("campaign").get(pk=found.pk)
        return _plan_save(pledge=pledge, terms=terms, set_by=None)


def pledge_plan_set(*, pledge_id: int, user: User, terms: instalments.PlanTerms) -> InstalmentPlan:
    """A treasurer's or owner's plan for a pledge (agreed with its pledger), audited. The first
    instalment may lie in the past: the plan may record an arrangement already running."""
    with transaction.atomic():
        pledge = pledge_managed_get(
            pledge_id=pledge_id, user=user, permission=Permission.MANAGE_PLEDGES, for_update=True
        )
        previous = InstalmentPlan.objects.filter(pledge=pledge).first()
        before = _plan_summary(previous)
        plan = _plan_save(pledge=pledge, terms=terms, set_by=user)
        audit_record(
            actor=user, action=AuditAction.PLEDGE_PLAN_SET, target=pledge, before=before, after=_plan_summary(plan)
        )
    return plan
