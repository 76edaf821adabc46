"""What campaigns announce to the apps above them (docs/architecture/layers.md: upward news travels by signal)."""

from django.dispatch import Signal

# Sent after commit with ``campaign`` (its new end date saved) and ``previous_end_date``:
# notifications re-plan the reminders that hang on the end date.
campaign_end_date_changed = Signal()
