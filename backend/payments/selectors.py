from datetime import timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from common.errors import NotFoundError, PermissionDeniedError
from payments.models import Payment, Subscription


def payment_get_for_viewer(*, reference: str, user: User | None) -> Payment:
    """A payment made by a signed-in user is theirs alone; an anonymous one, anyone's who holds
    its reference (it is unguessable). Anything else is answered as not found."""
    payment = Payment.objects.filter(reference=reference.strip().upper()).first()
    if payment is None or (payment.user_id is not None and (user is None or payment.user_id != user.pk)):
        raise NotFoundError(_("Payment not found."), code="not_found")
    return payment


def payments_awaiting_outcome(*, older_than: timedelta) -> QuerySet[Payment]:
    """Pending STK and card intents old enough that their callback may never come."""
    return Payment.objects.filter(
        status=Payment.Status.PENDING,
        flagged=False,
        created_at__lt=timezone.now() - older_than,
        provider__in=[Payment.Provider.MPESA_STK, Payment.Provider.CARD],
    ).exclude(provider=Payment.Provider.MPESA_STK, checkout_request_id__isnull=True)


def user_has_paid(*, user: User) -> bool:
    """A subscriber: a paid subscription period covers the present moment."""
    now = timezone.now()
    return Subscription.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).exists()


def payment_status_for_email(*, user: User, email: str) -> dict[str, bool]:
    """``GET /api/organizations?action=payment-status``: only ever about the signed-in user."""
    if User.normalize_email_address(email) != User.normalize_email_address(user.email):
        raise PermissionDeniedError(_("You can only check your own payment status."), code="forbidden")
    return {"has_paid": user_has_paid(user=user)}


def payments_made_by(*, user: User) -> QuerySet[Payment]:
    """Payments made while signed in, and those credited to the user's pledges (a paybill payment
    with the pledge code may come from someone else's phone: see ``payments_personal_data_export``).
    A user's pledges are those made signed in (``pledges.selectors.pledges_made_by``)."""
    return Payment.objects.filter(Q(user=user) | Q(pledge_link__pledge__user=user))


def payments_personal_data_export(*, user: User) -> dict[str, object]:
    """The user's payments and subscriptions, for their download (``privacy``). A payment credited
    to one of their pledges from someone else's phone is listed without that payer's number and
    address."""
    payments = list(payments_made_by(user=user).distinct().order_by("created_at", "id"))
    for payment in payments:
        if payment.user_id != user.pk:
            payment.payer_phone = payment.payer_email = ""  # for the download only; never saved
    return {
        "payments": payments,
        "subscriptions": list(
            Subscription.objects.filter(user=user).select_related("payment").order_by("starts_at", "id")
        ),
    }
