from django.dispatch import Signal

# Sent after the transaction that recorded them commits (so receivers may enqueue tasks or call
# out over the network): ``pledge=<Pledge>`` when a pledge is recorded, and ``pledge=<Pledge>,
# payment=<Payment>, fully_paid=<bool>`` when a payment is counted towards a pledge; ``pledge=<Pledge>,
# change=<str>`` when an organizer changed it by hand (corrected, cancelled, restored,
# payments_moved to it, payment_reversed), so its pledger hears of it once; ``donation=<Donation>``
# when a gift typed at an event's desk became a donation (once per gift: its giver's receipt).
pledge_created = Signal()
pledge_paid = Signal()
pledge_changed = Signal()
desk_gift_recorded = Signal()
