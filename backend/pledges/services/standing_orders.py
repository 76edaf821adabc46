"""Paying a plan automatically: an M-Pesa Ratiba standing order."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import validators
from common import ratelimit
from common.errors import FieldValidationError, ServiceError
from payments.models import MpesaStandingOrder
from payments.providers.daraja import StandingOrderTerms
from payments.services import (
    payment_stk_push_limit_enforce,
    standing_order_record,
    standing_order_send,
)
from pledges import instalments
from pledges.models import (
    InstalmentPlan,
    Pledge,
)
from pledges.selectors import (
    pledge_standing_order_account,
)
from pledges.services.core import _clean
from pledges.services.paying import _ensure_live, pledge_get_by_code

# Paying a plan automatically: an M-Pesa Ratiba standing order -----------------------------------

# A prompt not answered in this long has lapsed on the phone: a new order may be asked for.
STANDING_ORDER_PROMPT_LAPSES = timedelta(minutes=5)
STANDING_ORDER_DESCRIPTION = "Pledge"


def _standing_order_name(*, code: str, phone: str) -> str:
    """Unique among the payer's standing orders (Ratiba refuses a second of the same name)."""
    base = f"Pledge {code}"
    earlier = MpesaStandingOrder.objects.filter(phone=phone, name__startswith=base).count()
    return f"{base} ({earlier + 1})" if earlier else base


def pledge_standing_order_start(*, code: str, phone: str, client_ip: str) -> InstalmentPlan:
    """'Pay automatically with M-Pesa' on the pledge's page: ask the payer (the pledge's phone unless
    ``phone``) to approve a standing order for the instalments left, the pledge code as account, on
    the plan's dates. Offered only for an equal-instalment plan on time, to a campaign paid into a
    connected paybill with Ratiba enabled (``pledge_standing_order_account``); 400 otherwise. The
    callback makes the order active or failed; a refused one leaves the plan to be paid by hand.
    Limited like 'Pay now' (prompts per pledge, phone and address)."""
    found = pledge_get_by_code(code=code, client_ip=client_ip)
    phone = _clean(phone) or found.phone
    if message := validators.check_kenyan_phone(phone):
        raise FieldValidationError(_("Please correct the errors below"), field_errors={"phone": message})
    phone = validators.normalize_kenyan_phone(phone)
    ratelimit.enforce(
        scope="pledge-stk-push", identifiers=[found.code, phone[-9:]], limit=settings.RATE_LIMIT_PLEDGE_STK_PUSH
    )
    payment_stk_push_limit_enforce(phone=phone, client_ip=client_ip)
    with transaction.atomic():
        pledge = Pledge.objects.select_for_update().select_related("campaign").get(pk=found.pk)
        _ensure_live(pledge)
        plan = (
            InstalmentPlan.objects.select_for_update(of=("self",))
            .select_related("standing_order")
            .filter(pledge=pledge)
            .first()
        )
        if plan is None:
            raise ServiceError(_("Choose an instalment plan first."), code="plan_missing")
        plan.pledge = pledge
        order = plan.standing_order
        if order is not None and order.status == MpesaStandingOrder.Status.ACTIVE:
            raise ServiceError(_("This plan is already paid automatically."), code="standing_order_active")
        if (
            order is not None
            and order.status == MpesaStandingOrder.Status.PENDING
            and timezone.now() - order.created_at < STANDING_ORDER_PROMPT_LAPSES
        ):
            raise ServiceError(
                _("Approve the standing order on your phone with your M-Pesa PIN."), code="standing_order_pending"
            )
        account = pledge_standing_order_account(pledge=pledge)
        left = instalments.automatic_instalments(
            instalments=plan.schedule(), paid=pledge.paid_amount, today=timezone.localdate()
        )
        if account is None or not left:
            raise ServiceError(
                _("Paying automatically with M-Pesa is not offered for this plan."), code="standing_order_unavailable"
            )
        order = standing_order_record(
            account=account,
            terms=StandingOrderTerms(
                name=_standing_order_name(code=pledge.code, phone=phone),
                phone=phone,
                amount=plan.instalment,
                frequency=plan.frequency,
                start_on=left[0].due_on,
                end_on=left[-1].due_on,
                account_reference=pledge.code,
                description=STANDING_ORDER_DESCRIPTION,
            ),
        )
        plan.standing_order = order
        plan.save(update_fields=["standing_order"])
    standing_order_send(order=order, description=STANDING_ORDER_DESCRIPTION)
    return plan


def _plan_summary(plan: InstalmentPlan | None) -> dict[str, object]:
    if plan is None:
        return {}
    return {"instalment": plan.instalment, "frequency": plan.frequency, "first_due_on": plan.first_due_on.isoformat()}
