from django.dispatch import Signal

# Sent with ``payment=<Payment>`` when a payment succeeds, inside the transaction that credits
# it: a receiver's writes (a donation counted, a pledge matched) commit or roll back with the
# credit, so they are never lost and never doubled. Receivers must not call out over the network.
payment_succeeded = Signal()
