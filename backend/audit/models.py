"""The audit log: who did what to money or a campaign's standing, with the state before and after.

Entries are written by the services that make the change, in the same transaction, so a change
and its entry are committed (or rolled back) together. Nothing edits or deletes an entry.
"""

from typing import Any

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AuditAction(models.TextChoices):
    PLEDGE_CONFIRMED = "pledge_confirmed", _("Pledge confirmed")
    PAYMENT_RECORDED = "payment_recorded", _("Cash or bank payment recorded")
    PAYMENT_ASSIGNED = "payment_assigned", _("Unmatched payment assigned")
    PAYMENT_REVERSED = "payment_reversed", _("Payment reversed")
    PLEDGE_CORRECTED = "pledge_corrected", _("Pledge amount corrected")
    PLEDGE_CANCELLED = "pledge_cancelled", _("Pledge cancelled")
    PLEDGE_RESTORED = "pledge_restored", _("Pledge restored")
    PLEDGE_PLAN_SET = "pledge_plan_set", _("Instalment plan set")
    CAMPAIGN_STATUS_CHANGED = "campaign_status_changed", _("Campaign status changed")
    CAMPAIGN_EDITED = "campaign_edited", _("Campaign edited by an admin")
    CAMPAIGN_END_DATE_CHANGED = "campaign_end_date_changed", _("Campaign end date changed")
    ORGANIZATION_EDITED = "organization_edited", _("Organization's details changed")
    TEAM_CHANGED = "team_changed", _("Team member added, given another role or removed")
    CHANGE_REQUESTED = "change_requested", _("Change asked for (two-person rule)")
    CHANGE_APPLIED = "change_applied", _("Change applied (two-person rule)")
    CHANGE_WITHDRAWN = "change_withdrawn", _("Change withdrawn (two-person rule)")
    CHANGE_EXPIRED = "change_expired", _("Change expired unapproved (two-person rule)")
    INVITATION_SENT = "invitation_sent", _("Invitation to the team sent")
    INVITATION_REVOKED = "invitation_revoked", _("Invitation to the team revoked")
    INVITATION_ACCEPTED = "invitation_accepted", _("Invitation to the team accepted")
    COLLECTION_ACCOUNT_CHANGED = "collection_account_changed", _("Collection account added, changed or removed")
    PAYMENT_SET_ASIDE = "payment_set_aside", _("Unmatched payment set aside: not for a campaign")
    MPESA_CREDENTIALS_SET = "mpesa_credentials_set", _("M-Pesa API credentials set or replaced")
    MPESA_CONNECTED = "mpesa_connected", _("M-Pesa account connected")
    AIRTEL_CREDENTIALS_SET = "airtel_credentials_set", _("Airtel Money API credentials set or replaced")
    MPESA_REREGISTERED = "mpesa_reregistered", _("M-Pesa account registered again")
    STATEMENT_IMPORTED = "statement_imported", _("Statement imported")
    STATEMENT_IMPORT_UNDONE = "statement_import_undone", _("Statement import undone")
    MPESA_RATIBA_SET = "mpesa_ratiba_set", _("M-Pesa Ratiba (standing orders) turned on or off")
    PLEDGE_CLAIMED = "pledge_claimed", _("Pledge made by phone claimed by its number's verified owner")
    LIVE_ENTRY_HIDDEN = "live_entry_hidden", _("Entry hidden from the big screen")
    LIVE_ENTRY_UNHIDDEN = "live_entry_unhidden", _("Hidden entry shown on the big screen again")
    DESK_PASSCODE_ISSUED = "desk_passcode_issued", _("Desk passcode issued")
    DESK_PASSCODE_REVOKED = "desk_passcode_revoked", _("Desk passcode revoked")
    CASH_COUNTED = "cash_counted", _("Cash counted for an usher at an event, or its count changed")
    CASH_SIGNED_OFF = "cash_signed_off", _("An event's cash count signed off")
    CASH_SIGN_OFF_WITHDRAWN = "cash_sign_off_withdrawn", _("An event's cash sign-off withdrawn")
    EVENT_THANKS_SENT = "event_thanks_sent", _("Thank-you message sent to an event's givers")
    EMBED_ORIGIN_ADDED = "embed_origin_added", _("Website allowed to embed the campaigns added")
    EMBED_ORIGIN_REMOVED = "embed_origin_removed", _("Website allowed to embed the campaigns removed")
    SPENDING_RECORDED = "spending_recorded", _("Spending line recorded")
    SPENDING_APPROVED = "spending_approved", _("Spending line approved (two-person rule)")
    SPENDING_REVERSED = "spending_reversed", _("Spending line reversed")
    PROGRESS_UPDATE_POSTED = "progress_update_posted", _("Progress update posted")
    STATEMENTS_SENT = "statements_sent", _("Yearly statements of giving sent to the organization's givers")


class AuditEntryQuerySet(models.QuerySet["AuditEntry"]):
    """Bulk writes would go around the instance's guards below."""

    def update(self, **kwargs: Any) -> int:
        raise ValueError("Audit entries are never changed.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise ValueError("Audit entries are never deleted.")


class AuditEntry(models.Model):
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        # An account that acted cannot be deleted (deleting one through the app only empties it),
        # so no entry ever loses who made the change.
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Empty when the system itself acted (e.g. an activation fee was paid)."),
    )
    at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(max_length=32, choices=AuditAction.choices)
    object_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.PositiveBigIntegerField()
    object_repr = models.CharField(max_length=200)
    before = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)

    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        indexes = [models.Index(fields=["object_type", "object_id"], name="audit_object_idx")]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.object_repr}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValueError("Audit entries are never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("Audit entries are never deleted.")
