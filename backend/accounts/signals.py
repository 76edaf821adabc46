from django.dispatch import Signal

# Sent with ``user=<User>`` when an account is created (``user_signed_up``, after the sign-up's
# transaction commits) and when its owner asks for a password reset link
# (``password_reset_requested``, which writes no row), so receivers may enqueue tasks or call out
# over the network. Accounts sit at the bottom of the layers (ARCHITECTURE.md): they announce
# these, and notifications listen.
user_signed_up = Signal()
password_reset_requested = Signal()

# Sent with ``user=<User>``, ``phone=<E.164>`` and ``code=<6 digits>`` after the transaction that
# made a phone verification commits: notifications send the code by SMS (and only there: the
# server keeps its hash).
phone_code_requested = Signal()
