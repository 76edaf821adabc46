from django.dispatch import Signal

# Sent after the transaction that closed it commits (so receivers may enqueue tasks): ``event=<Event>``
# when its owner closes an event; the night's summary to the organizer hangs on it.
event_closed = Signal()
