from django.dispatch import Signal

# Sent with ``payment=<Payment>`` when a payment succeeds, inside the transaction that credits
# it: a receiver's writes (a donation counted, a pledge matched) commit or roll back with the
# credit, so they are never lost and never doubled. Receivers must not call out over the network.
payment_succeeded = Signal()

# Sent with ``payments=[<Payment>, ...]`` when many payments succeed at once (a statement's,
# ``payments_record_from_statement``), inside the transaction that credits them: each receiver does
# for every one what it does on ``payment_succeeded``, in a number of queries that does not grow with
# theirs. A receiver of ``payment_succeeded`` that has a part in statements' money listens to both.
payments_succeeded = Signal()

# Sent with ``payments=[<Payment>, ...], user=<User>, reason=<str>`` when succeeded payments are reversed
# (one by hand, or a whole statement import), inside the transaction that records the reversing entries,
# payments locked: receivers take back what their success counted (a pledge's paid amount, a donation),
# in the same transaction and in a number of queries that does not grow with theirs.
payments_reversed = Signal()
