"""A statement a treasurer uploaded: previewed first, then confirmed (its rows credited) or left,
and a confirmed one may be undone as a whole.

The parsed rows are kept with the import (``rows``) so that the preview and the confirmation read the
same thing, until it is confirmed (the ledger has them then); the file itself is not kept. Each payment an import recorded is linked to it once
(``ImportedPayment``): that list is what undo reverses, and nothing else.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from collection_accounts.models import CollectionAccount
from organizations.models import Organization
from payments.models import Payment


class StatementImport(models.Model):
    class Status(models.TextChoices):
        PREVIEWED = "previewed", _("Previewed")
        CONFIRMED = "confirmed", _("Confirmed")
        UNDONE = "undone", _("Undone")

    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="statement_imports")
    collection_account = models.ForeignKey(
        CollectionAccount, on_delete=models.PROTECT, related_name="statement_imports"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PREVIEWED)
    file_name = models.CharField(max_length=200, blank=True)
    file_sha256 = models.CharField(max_length=64)
    statement_shortcode = models.CharField(max_length=10, blank=True)
    rows = models.JSONField(help_text="The statement's rows as parsed (statements.parsing.StatementRow).")
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    summary = models.JSONField(
        default=dict, help_text="Rows and shillings of each kind as confirmed (statements.selectors.CATEGORIES)."
    )
    receipts_sent = models.BooleanField(
        default=False, help_text="Whether receipts went out for payments received more than 3 days before."
    )
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undo_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Statement import {self.pk} ({self.status})"


class ImportedPayment(models.Model):
    statement_import = models.ForeignKey(StatementImport, on_delete=models.PROTECT, related_name="imported")
    payment = models.OneToOneField(Payment, on_delete=models.PROTECT, related_name="statement_import_link")

    def __str__(self) -> str:
        return f"{self.payment_id} from import {self.statement_import_id}"
