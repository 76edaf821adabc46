"""Answering texts to the shortcode: each keyword carried out once, through the services the web and
the USSD menu use (one ledger, one set of rules, one audit log), and the answer texted back.

``inbound_sms_receive`` records the message under the gateway's ``id`` and, the first time only,
carries out what it asks (``keywords.parse``) in the keyword's language. A retried delivery (the same
``id``, on any instance) finds the row, counts the delivery and does nothing else: never a second
pledge, PIN prompt or reply. Replies are written to the message log and sent by the task worker
(``notifications``); they are messages the sender asked for, so the per-recipient limits on
unasked messages never hold them back, while each number's texts are limited here
(``RATE_LIMIT_SMS_KEYWORDS``). A pledge's answer is its usual confirmation SMS (``pledge_created``).
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from campaigns.selectors import campaign_payment_instructions, campaign_stk_account
from champions.selectors import champion_open_get
from champions.services import champion_pledge_create_by_phone
from collection_accounts.instructions import instructions_summary
from common import ratelimit
from common.errors import NotFoundError, RateLimitedError, ServiceError
from common.money import format_ksh
from notifications import tasks as notification_tasks
from notifications.outbox import notification_queue_sms
from notifications.reminders import phone_reminders_opt_out
from pledges.models import Pledge, PledgeChannel
from pledges.services import pledge_create_by_phone, pledge_stk_push_by_phone
from sms_keywords import keywords, tasks
from sms_keywords.keywords import Action, Command
from sms_keywords.models import InboundSms
from ussd.selectors import caller_language, caller_open_pledges, open_campaign_get
from ussd.services import caller_language_set, pledges_sms_text

logger = logging.getLogger(__name__)

Outcome = InboundSms.Outcome


@dataclass(frozen=True)
class Answer:
    outcome: str
    reply: str
    pledge: Pledge | None = None


def inbound_sms_receive(
    *, message_id: str, sender: str, shortcode: str, text: str, link_id: str, network_code: str, sent_at: str
) -> InboundSms:
    """Record one text the gateway delivered and, the first time its ``id`` is seen, answer it."""
    fields = {
        "sender": sender[:20],
        "shortcode": shortcode[:20],
        "text": text[:1000],
        "link_id": link_id[:100],
        "network_code": network_code[:10],
        "sent_at": sent_at[:40],
    }
    with transaction.atomic():
        try:
            with transaction.atomic():
                message = InboundSms.objects.create(message_id=message_id[:100], outcome=Outcome.HELP, **fields)
        except IntegrityError:
            # Delivered before (or right now, on another instance: the insert waited for it).
            InboundSms.objects.filter(message_id=message_id[:100]).update(deliveries=F("deliveries") + 1)
            return InboundSms.objects.get(message_id=message_id[:100])
        _answer(message)
    return message


def _answer(message: InboundSms) -> None:
    if validators.check_kenyan_phone(message.sender):
        message.outcome = Outcome.NOT_KENYAN
        message.save(update_fields=["outcome"])
        return
    phone = validators.normalize_kenyan_phone(message.sender)
    command = keywords.parse(message.text, shared_keyword=settings.SMS_SHARED_KEYWORD)
    remembered = caller_language(phone=phone)
    message.language = command.language or remembered or settings.LANGUAGE_CODE
    try:
        ratelimit.enforce(scope="sms-keywords", identifiers=[phone], limit=settings.RATE_LIMIT_SMS_KEYWORDS)
    except RateLimitedError:
        message.outcome = Outcome.LIMITED
        message.save(update_fields=["language", "outcome"])
        return
    if command.language and command.language != remembered:
        caller_language_set(phone=phone, language=command.language)
    with translation.override(message.language):
        try:
            answer = ANSWERS[command.action](command=command, phone=phone, message=message)
        except RateLimitedError:
            answer = Answer(Outcome.REFUSED, LIMIT_MESSAGES[command.action]())
        except ServiceError as refusal:
            answer = Answer(Outcome.REFUSED, refusal.message)
        message.outcome, message.pledge = answer.outcome, answer.pledge
        if answer.reply:
            message.reply = notification_queue_sms(
                to=phone, template="keyword_reply", context={"message": answer.reply}, link_id=message.link_id
            )
            transaction.on_commit(partial(notification_tasks.deliver_notification.enqueue, log_id=message.reply.pk))
    message.save(update_fields=["language", "outcome", "pledge", "reply"])


def _help(*, command: Command, phone: str, message: InboundSms) -> Answer:
    return Answer(Outcome.HELP, help_text())


def help_text() -> str:
    return _(
        "To pledge, text PLEDGE, the campaign number and the amount (PLEDGE 14 5000). To pay: PAY and "
        "your pledge code. BAL: your pledges. STOP: no reminders."
    )


def _pledge(*, command: Command, phone: str, message: InboundSms) -> Answer:
    if not command.well_formed:
        return Answer(
            Outcome.HELP, _("To pledge, text PLEDGE, the campaign number and the amount, e.g. PLEDGE 14 5000.")
        )
    assert command.amount is not None
    if command.champion_code:
        champion = champion_open_get(code=command.champion_code)
        if champion is None:
            raise NotFoundError(
                _("No champion of an open campaign has the code %(code)s.") % {"code": command.champion_code}
            )
        create = partial(champion_pledge_create_by_phone, champion=champion)
    else:
        assert command.campaign_number is not None
        if open_campaign_get(number=command.campaign_number) is None:
            raise NotFoundError(_("No open campaign has the number %(number)s.") % {"number": command.campaign_number})
        create = partial(pledge_create_by_phone, campaign_id=command.campaign_number)
    # One limit per number for pledges by phone, whether dialled or texted.
    ratelimit.enforce(scope="ussd-pledge", identifiers=[phone], limit=settings.RATE_LIMIT_USSD_PLEDGES)
    pledge = create(amount=command.amount, phone=phone, is_anonymous=True, channel=PledgeChannel.SMS, plan=command.plan)
    # Its confirmation (code, how to pay) is the pledge's own SMS: no second message.
    return Answer(Outcome.PLEDGED, "", pledge)


def _how_to_pay(pledge: Pledge) -> str:
    instructions = campaign_payment_instructions(campaign=pledge.campaign, reference=pledge.code)
    return instructions_summary(instructions) or f"{settings.SITE_URL}/pledges/{pledge.code}"


def _pay(*, command: Command, phone: str, message: InboundSms) -> Answer:
    if not command.well_formed:
        return Answer(
            Outcome.HELP, _("To pay, text PAY, the pledge code and, for part of it, the amount, e.g. PAY ABC1234 500.")
        )
    pledge = next((pledge for pledge in caller_open_pledges(phone=phone) if pledge.code == command.code), None)
    if pledge is None:
        if Pledge.objects.live().filter(phone=phone, code=command.code).exists():
            return Answer(Outcome.BALANCE, _("Your pledge %(code)s is fully paid. Thank you!") % {"code": command.code})
        # A mistyped code, or one of another number's pledges (which is not told).
        raise NotFoundError(
            _("No unpaid pledge of this number has the code %(code)s. Text BAL to see your pledges.")
            % {"code": command.code}
        )
    remaining = pledge.remaining_amount
    # Without an amount: what is due (on a plan, the instalment due or what is overdue).
    amount = pledge.amount_due() if command.amount is None else command.amount
    if not 1 <= amount <= remaining:
        raise ServiceError(_("Please enter an amount from Ksh 1 to %(left)s.") % {"left": format_ksh(remaining)})
    if campaign_stk_account(campaign=pledge.campaign) is None:
        # No account of the campaign takes PIN prompts: the pledger pays it themselves.
        reply = _("Pay %(amount)s for pledge %(code)s via %(how_to_pay)s.") % {
            "amount": format_ksh(amount),
            "code": pledge.code,
            "how_to_pay": _how_to_pay(pledge),
        }
        return Answer(Outcome.INSTRUCTED, reply, pledge)
    # One limit per number for PIN prompts by phone, whether dialled or texted.
    ratelimit.enforce(scope="ussd-stk", identifiers=[phone], limit=settings.RATE_LIMIT_USSD_STK)
    transaction.on_commit(
        partial(
            tasks.sms_stk_push_send.enqueue,
            pledge_id=pledge.pk,
            phone=phone,
            amount=amount,
            message_id=message.message_id,
            language=translation.get_language(),
        )
    )
    reply = _("Enter your M-Pesa PIN when asked, to pay %(amount)s for pledge %(code)s.") % {
        "amount": format_ksh(amount),
        "code": pledge.code,
    }
    return Answer(Outcome.PROMPTED, reply, pledge)


def _balance(*, command: Command, phone: str, message: InboundSms) -> Answer:
    pledges = caller_open_pledges(phone=phone)
    if pledges:
        return Answer(Outcome.BALANCE, pledges_sms_text(pledges))
    if Pledge.objects.live().filter(phone=phone).exists():
        return Answer(Outcome.BALANCE, _("All your pledges are paid in full. Thank you!"))
    return Answer(
        Outcome.BALANCE, _("You have no pledges. To pledge, text PLEDGE, the campaign number and the amount.")
    )


def _stop(*, command: Command, phone: str, message: InboundSms) -> Answer:
    phone_reminders_opt_out(phone=phone)
    return Answer(
        Outcome.STOPPED,
        _("You will get no more reminders for the pledges of this number. Receipts still come. Text HELP for help."),
    )


ANSWERS: dict[Action, Callable[..., Answer]] = {
    Action.PLEDGE: _pledge,
    Action.PAY: _pay,
    Action.BALANCE: _balance,
    Action.STOP: _stop,
    Action.HELP: _help,
}
LIMIT_MESSAGES: dict[Action, Callable[[], str]] = {
    Action.PLEDGE: lambda: _("You have made many pledges today. Please try again tomorrow."),
    Action.PAY: lambda: _("Too many payment prompts. Please try again in a few minutes."),
}


def sms_stk_push_send(*, pledge_id: int, phone: str, amount: int, message_id: str, language: str) -> None:
    """Send the PIN prompt a PAY text asked for (the task). Keyed on the message, so a repeated task
    prompts once. A refusal (the pledge paid meanwhile, M-Pesa unavailable) is logged: the sender
    may text PAY again."""
    with translation.override(language):
        try:
            pledge_stk_push_by_phone(
                pledge_id=pledge_id, phone=phone, amount=amount, idempotency_key=f"sms-{message_id}"[:64]
            )
        except ServiceError as refusal:
            logger.warning("PIN prompt for SMS %s not sent: %s", message_id, refusal.message)


def sms_keywords_personal_data_erase(*, user: User) -> None:
    """Forget the texts sent from the account's verified number (``privacy``; one DELETE, in its transaction)."""
    if user.verified_phone:
        InboundSms.objects.filter(sender=user.verified_phone).delete()
