from django.dispatch import Signal

# Sent with ``change_request=<ChangeRequest>`` after the transaction that made it commits:
# ``change_requested`` when a change waits for a second person's approval, ``change_applied`` when
# it took effect (at once, or once approved). Notifications listen and tell every owner and
# treasurer by SMS and e-mail; organizations sit below them in the layers (ARCHITECTURE.md).
change_requested = Signal()
change_applied = Signal()

# Sent with ``invitation=<Invitation>`` and ``token=<str>`` (the link's secret, kept nowhere else)
# after the invitation's transaction commits: notifications send the link by e-mail or SMS.
invitation_created = Signal()
