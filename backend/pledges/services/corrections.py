"""Corrections: every one by the campaign's organizer or an admin, with a reason, audited."""

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from common.errors import FieldValidationError, ServiceError
from common.money import AMOUNT_MAX, format_ksh
from organizations.roles import Permission
from pledges.models import (
    Donation,
    Pledge,
    PledgePayment,
)
from pledges.selectors import (
    pledge_managed_get,
)
from pledges.services.core import (
    _ceiling_error,
    _changed,
    _counters_move,
    _hand_change_count,
    _reason_clean,
    _status_settle,
)
from pledges.services.giving import WHOLE_AMOUNT_MESSAGE
from pledges.services.matching import _donation_figures
from pledges.services.paying import _ensure_live

# Corrections: every one by the campaign's organizer or an admin, with a reason, audited -------------


def pledge_amount_correct(*, pledge_id: int, user: User, amount: int, reason: str) -> Pledge:
    """Change a live pledge's amount (a typo, a pledger's change of mind): never below what is
    paid, nor above the campaign's largest pledge. Its status follows (raising a fully paid
    pledge makes it partly paid again); the totals move by the difference; the pledger is told."""
    with transaction.atomic():
        pledge = pledge_managed_get(
            pledge_id=pledge_id, user=user, permission=Permission.MANAGE_PLEDGES, for_update=True
        )
        _ensure_live(pledge)
        reason = _reason_clean(reason)
        _hand_change_count(pledge)
        message = None
        if not 1 <= amount <= AMOUNT_MAX:
            message = str(WHOLE_AMOUNT_MESSAGE)
        elif amount < pledge.paid_amount:
            message = _("The amount cannot be less than what is already paid (%(paid)s).") % {
                "paid": format_ksh(pledge.paid_amount)
            }
        elif amount == pledge.amount:
            message = _("This is already the pledge's amount.")
        else:
            message = _ceiling_error(pledge.campaign, amount)
        if message:
            raise FieldValidationError(_("Please correct the errors below"), field_errors={"amount": message})
        figures = pledge.campaign_figures()
        before = {"amount": pledge.amount, "status": pledge.status}
        pledge.amount = amount
        _status_settle(pledge, by=user)
        pledge.save(update_fields=["amount", "status", "confirmed_at", "confirmed_by"])
        _counters_move(campaign_id=pledge.campaign_id, change=pledge.campaign_figures() - figures)
        _hand_change_audit(pledge, user=user, action=AuditAction.PLEDGE_CORRECTED, before=before, reason=reason)
        _changed(pledge, "corrected")
    return pledge


def _hand_change_audit(pledge: Pledge, *, user: User, action: AuditAction, before: dict[str, Any], reason: str) -> None:
    """The audit entry of a correction or a restoration: ``before``, the amount and status the pledge
    is left with, and the reason (a cancellation's says more: where its payments went)."""
    audit_record(
        actor=user,
        action=action,
        target=pledge,
        before=before,
        after={"amount": pledge.amount, "status": pledge.status, "reason": reason},
    )


def _unreversed_links(pledge: Pledge) -> list[PledgePayment]:
    """The links of the payments that count towards ``pledge`` (not reversed), payments locked."""
    return list(
        PledgePayment.objects.select_for_update(of=("self", "payment"))
        .select_related("payment")
        .filter(pledge=pledge, payment__reversal__isnull=True)
        .order_by("pk")
    )


def pledge_cancel(
    *, pledge_id: int, user: User, reason: str, payments_to: str = "", to_pledge_id: int | None = None
) -> Pledge:
    """Cancel a live pledge: it leaves the pledged totals, the summary and the reminders. The
    money paid towards it stays in the books: with ``payments_to="pledge"`` its payments count
    towards the live pledge ``to_pledge_id`` of the same campaign instead; with ``"gift"`` each
    becomes a donation by the same giver. A pledge with payments needs one of the two."""
    reason = _reason_clean(reason)
    pledge = pledge_managed_get(pledge_id=pledge_id, user=user, permission=Permission.MANAGE_PLEDGES)
    _hand_change_count(pledge)
    with transaction.atomic():
        # The payments first, then the pledges (by id): the order credits and reversals lock them in.
        links = _unreversed_links(pledge)
        target = None
        if links and payments_to == "pledge":
            target = Pledge.objects.filter(pk=to_pledge_id or 0, campaign_id=pledge.campaign_id).first()
            if target is None or target.pk == pledge.pk or not target.is_live:
                raise FieldValidationError(
                    _("Please correct the errors below"),
                    field_errors={"to_pledge_id": _("Please choose another live pledge of this campaign.")},
                )
        elif links and payments_to != "gift":
            raise FieldValidationError(
                _("Please correct the errors below"),
                field_errors={
                    "payments_to": _("This pledge has payments: move them to another pledge or keep them as a gift.")
                },
            )
        locked = {
            locked_pledge.pk: locked_pledge
            for locked_pledge in Pledge.objects.select_for_update()
            .filter(pk__in=[pledge.pk] + ([target.pk] if target else []))
            .order_by("pk")
        }
        pledge, target = locked[pledge.pk], locked.get(target.pk) if target else None
        _ensure_live(pledge)
        if target is not None and not target.is_live:
            raise ServiceError(_("This pledge is cancelled. Restore it first."), code="pledge_cancelled")
        moved = sum(link.payment.amount for link in links)
        figures = pledge.campaign_figures()
        before = {"amount": pledge.amount, "status": pledge.status, "paid_amount": pledge.paid_amount}
        pledge.cancelled_at, pledge.cancelled_by, pledge.cancel_reason = timezone.now(), user, reason
        pledge.paid_amount -= moved
        _status_settle(pledge, by=None)
        pledge.save(
            update_fields=[
                "cancelled_at",
                "cancelled_by",
                "cancel_reason",
                "paid_amount",
                "status",
                "confirmed_at",
                "confirmed_by",
            ]
        )
        change = pledge.campaign_figures() - figures
        if target is not None:
            target_figures = target.campaign_figures()
            PledgePayment.objects.filter(pk__in=[link.pk for link in links]).update(pledge=target, assigned_by=user)
            target.paid_amount += moved
            _status_settle(target, by=user)
            target.save(update_fields=["paid_amount", "status", "confirmed_at", "confirmed_by"])
            change += target.campaign_figures() - target_figures
            _changed(target, "payments_moved")
        for link in links if payments_to == "gift" else []:
            # The payment's link goes; the audit entry below keeps which payments it held.
            link.delete()
            donation = Donation.objects.create(
                campaign_id=pledge.campaign_id,
                payment=link.payment,
                amount=link.payment.amount,
                name=pledge.name,
                email=pledge.email,
                phone=pledge.phone,
                is_anonymous=pledge.is_anonymous,
                language=pledge.language,
                counted_at=link.payment.counted_at,
            )
            change += _donation_figures(donation)
        _counters_move(campaign_id=pledge.campaign_id, change=change)
        audit_record(
            actor=user,
            action=AuditAction.PLEDGE_CANCELLED,
            target=pledge,
            before=before,
            after={
                "reason": reason,
                "paid_amount": pledge.paid_amount,
                "payments": [link.payment.reference for link in links],
                "payments_to": (target.code if target else "gift") if links else "",
            },
        )
        _changed(pledge, "cancelled")
    return pledge


def pledge_restore(*, pledge_id: int, user: User, reason: str) -> Pledge:
    """Undo a cancellation: the pledge counts again, as it stands (payments moved away or kept as
    gifts when it was cancelled stay where they went)."""
    reason = _reason_clean(reason)
    with transaction.atomic():
        pledge = pledge_managed_get(
            pledge_id=pledge_id, user=user, permission=Permission.MANAGE_PLEDGES, for_update=True
        )
        if pledge.is_live:
            raise ServiceError(_("This pledge is not cancelled."), code="pledge_live")
        _hand_change_count(pledge)
        before = {"cancelled_at": pledge.cancelled_at, "cancel_reason": pledge.cancel_reason}
        pledge.cancelled_at, pledge.cancelled_by, pledge.cancel_reason = None, None, ""
        pledge.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
        _counters_move(campaign_id=pledge.campaign_id, change=pledge.campaign_figures())
        _hand_change_audit(pledge, user=user, action=AuditAction.PLEDGE_RESTORED, before=before, reason=reason)
        _changed(pledge, "restored")
    return pledge
