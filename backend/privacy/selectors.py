"""A user's download of everything the platform holds about them (``PersonalDataOut``)."""

from collections.abc import Callable

from django.utils import timezone

from accounts.models import User
from accounts.selectors import user_personal_data_export
from campaigns.selectors import campaigns_personal_data_export
from champions.selectors import champions_personal_data_export
from feedback.selectors import feedback_personal_data_export
from grants.selectors import grants_personal_data_export
from notifications.selectors import notifications_personal_data_export
from payments.selectors import payments_personal_data_export
from pledges.selectors import pledges_personal_data_export
from sms_keywords.selectors import sms_keywords_personal_data_export
from ussd.selectors import ussd_personal_data_export

# Each app that holds personal data answers for its own records: a new one adds its export here
# (and its part of ``PersonalDataOut``) and its erase to ``services.PERSONAL_DATA_ERASERS``.
PERSONAL_DATA_EXPORTS: tuple[Callable[..., dict[str, object]], ...] = (
    user_personal_data_export,
    campaigns_personal_data_export,
    payments_personal_data_export,
    pledges_personal_data_export,
    grants_personal_data_export,
    feedback_personal_data_export,
    notifications_personal_data_export,
    ussd_personal_data_export,
    sms_keywords_personal_data_export,
    champions_personal_data_export,
)


def personal_data_export(*, user: User) -> dict[str, object]:
    """Everything held about ``user``, for the download on /profile.

    One query per kind of record, however many records there are.
    """
    data: dict[str, object] = {"exported_at": timezone.now()}
    for export in PERSONAL_DATA_EXPORTS:
        data |= export(user=user)
    return data
