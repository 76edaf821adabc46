"""An organization's sending of a year's statements of giving: one ``StatementRun`` with its progress,
and one ``StatementDelivery`` per giver of the run, unique per run and giver, so that a job retried
after a crash sends each giver their statement once (``services.statement_run_process``)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class StatementRunStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Sending")
    DONE = "done", _("Sent")


class StatementRun(models.Model):
    organization = models.ForeignKey(
        "organizations.Organization", on_delete=models.CASCADE, related_name="statement_runs"
    )
    year = models.PositiveSmallIntegerField()
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=8, choices=StatementRunStatus.choices, default=StatementRunStatus.QUEUED)
    giver_count = models.PositiveIntegerField(default=0, help_text="Givers of the year, counted when the job starts.")
    processed_count = models.PositiveIntegerField(default=0, help_text="Givers handled so far (progress).")
    emailed_count = models.PositiveIntegerField(default=0)
    texted_count = models.PositiveIntegerField(default=0)
    unreachable_count = models.PositiveIntegerField(default=0, help_text="Givers with neither e-mail nor phone.")
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Statements {self.year} of organization {self.organization_id} ({self.status})"


class StatementDelivery(models.Model):
    """One giver's statement in a run: written with its messages in one transaction, so a giver
    with a row has been sent theirs, and the unique constraint stops a second."""

    run = models.ForeignKey(StatementRun, on_delete=models.CASCADE, related_name="deliveries")
    # A digest of who the giver is ('phone:…', 'email:…' or 'account:…'), not the contact itself: the
    # run remembers whom it served without keeping anyone's number or address.
    giver_digest = models.CharField(max_length=64)
    emailed = models.BooleanField(default=False)
    texted = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "giver_digest"], name="giving_delivery_once_per_run")]

    def __str__(self) -> str:
        return f"Statement of run {self.run_id} for {self.giver_digest[:8]}"
