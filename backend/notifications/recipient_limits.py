"""At most a few messages to a phone number or e-mail address that its owner did not ask for.

Anyone may pledge in anyone's name with anyone's number, so a pledge's confirmation and its reminders
may reach a stranger: without a limit, pledges could be used to text or e-mail one person without end.
Messages that the recipient caused themselves are never limited: a pledge's messages (its receipts
too) to a number that paid towards that pledge by M-Pesa (proof it is the pledger's), the account
e-mails (with limits of their own), the organizers' notices about their own campaigns and the team's
messages (invitations, approvals: limited per member who caused them, organizations/team_messages.py). The others
are limited, among them the SMS receipt of a gift typed at an event's desk: an usher typed its number,
not the giver (as for a desk's pledge card, whose confirmation is the web's, limited). So are the SMS
an organizer's hand causes to a number not confirmed as the pledger's: a correction, cancellation or
restoration of the pledge (also limited per pledge, ``RATE_LIMIT_PLEDGE_CHANGES``) and the receipt of
a payment they recorded (a payment from another number confirms nothing either). They are limited
per recipient (``RATE_LIMIT_UNASKED_MESSAGES_HOUR``, ``…_DAY``: 3 an hour, 10 a day);
one over the limit is logged as not sent (``NotificationLog.Status.LIMITED``).

For the same reason the name a pledger typed goes into an SMS only to a number that paid towards
the pledge: otherwise a stranger's phone would show whatever name the sender chose.
"""

from django.conf import settings

from common import ratelimit
from common.errors import RateLimitedError
from notifications.models import NotificationLog
from payments.models import Payment
from pledges.models import Pledge

UNASKED_TEMPLATES = frozenset(
    {
        "sms/pledge_recorded",
        "email/pledge_recorded",
        "sms/reminder",
        "email/reminder",
        # A champion's reminder to their circle: the pledger typed the number, or anyone did.
        "sms/circle_reminder",
        # A gift's receipt from an event's desk: the usher typed the number, as for the desk's pledge cards.
        "sms/gift_receipt",
        # An event's thanks, to a number or address anyone may have typed at its desk or online.
        "sms/event_thanks",
        "email/event_thanks",
        # A yearly statement an organization sends to the contacts its givers left.
        "sms/giving_statement",
        "email/giving_statement",
        # What a team member causes by hand (a correction, cancellation or restoration; a payment they
        # recorded): an owner could otherwise text any number they typed into a pledge, again and again.
        "sms/pledge_changed",
        "sms/payment_received",
    }
)


def pledger_phone_confirmed(pledge: Pledge) -> bool:
    """Is ``pledge``'s number its pledger's: given by the mobile network (a USSD pledge), or an M-Pesa
    payment towards it came from it (its owner entered their PIN, or paid from it)? A cash payment an
    organizer recorded proves nothing about the number."""
    return (
        pledge.phone_verified
        or pledge.payment_links.filter(
            payment__payer_phone=pledge.phone,
            payment__provider__in=(Payment.Provider.MPESA_STK, Payment.Provider.MPESA_C2B),
        ).exists()
    )


def unasked_message_allowed(*, log: NotificationLog) -> bool:
    """Count ``log`` against its recipient's limits when they did not ask for it; False past them."""
    if log.template not in UNASKED_TEMPLATES:
        return True
    if log.pledge is not None and log.recipient == log.pledge.phone and pledger_phone_confirmed(log.pledge):
        return True
    limits = [
        ratelimit.Limit("unasked-messages-hour", log.recipient, settings.RATE_LIMIT_UNASKED_MESSAGES_HOUR),
        ratelimit.Limit("unasked-messages-day", log.recipient, settings.RATE_LIMIT_UNASKED_MESSAGES_DAY),
    ]
    try:
        ratelimit.enforce_all(limits=limits)
    except RateLimitedError:
        return False
    return True
