"""A statement a treasurer uploaded: previewed first, then confirmed (its rows credited) or left,
and a confirmed one may be undone as a whole.

The parsed rows are kept with the import (``rows``) so that the preview and the confirmation read the
same thing, until it is confirmed (the ledger has them then); the file itself is not kept. Each payment an import recorded is linked to it once
(``ImportedPayment``): that list is what undo reverses, and nothing else.

A bank statement is read through the columns its treasurer chose for that bank account
(``BankStatementColumns``, one per account, remembered from the last upload and offered again).
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from collection_accounts.models import CollectionAccount, CollectionAccountKind
from organizations.models import Organization
from payments.models import Payment

# Accounts whose payments reach us only on the bank's statement: a bank account, and a bank's
# collection paybill (paid with the church's account number, the pledge code as reference).
BANK_KINDS = (CollectionAccountKind.BANK, CollectionAccountKind.PAYBILL_FIXED_ACCOUNT)


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
    bank_reference = models.CharField(
        max_length=100,
        blank=True,
        help_text="A bank row's reference: with its date and amount, what tells whether a bank payment was "
        "recorded before (M-Pesa payments have their receipt).",
    )

    def __str__(self) -> str:
        return f"{self.payment_id} from import {self.statement_import_id}"


class BankStatementColumns(models.Model):
    """Which column of a bank account's statements holds what, by header name
    (statements.parsing.BankColumns): chosen at an upload, offered again at the next."""

    collection_account = models.OneToOneField(
        CollectionAccount, on_delete=models.CASCADE, related_name="bank_statement_columns"
    )
    date = models.CharField(max_length=100)
    amount = models.CharField(max_length=100, help_text="Money in (a Credit column), or a signed Amount column.")
    debit = models.CharField(max_length=100, blank=True, help_text="Money out, when the bank has a column for it.")
    reference = models.CharField(max_length=100, blank=True)
    description = models.CharField(max_length=100, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "bank statement columns"

    def __str__(self) -> str:
        return f"Columns of account {self.collection_account_id}"
