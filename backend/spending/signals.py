"""News from spending, for the apps above it (notifications tell the givers who opted in)."""

from django.dispatch import Signal

# Sent on commit of a progress update: ``update`` (a ProgressUpdate).
progress_update_posted = Signal()
