"""Answering the USSD gateway: one answer per step, and the closing choices carried out once.

``ussd_answer`` replays the session's input (``menu.walk``) and answers ``CON <screen>``, or carries
out the closing choice and answers ``END <screen>``. The session row is locked while a closing choice
is carried out and keeps its answer, so a retried step (the same ``sessionId`` and ``text``, on any
instance) gets that answer again: never a second pledge, prompt or SMS.

Pledges go through ``pledges.services`` like the web's (one ledger, the same campaign rules and
per-phone limit), recorded for the number the network gave. PIN prompts are sent by a task a few
seconds after the END screen, as a phone cannot show a prompt while the USSD dialogue is open.
"""

import logging
from collections.abc import Callable
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import validators
from accounts.models import User
from campaigns.models import Campaign
from campaigns.selectors import campaign_airtel_account, campaign_payment_instructions, campaign_stk_account
from champions.models import Champion
from champions.services import champion_donation_create_by_phone, champion_pledge_create_by_phone
from common import ratelimit
from common.errors import RateLimitedError, ServiceError
from common.mobile_networks import AIRTEL_NETWORK_CODE
from common.money import format_ksh
from notifications import tasks as notification_tasks
from notifications.outbox import notification_queue_sms
from notifications.sms_length import sms_length
from pledges.airtel import pledge_airtel_push_by_phone
from pledges.instalments import PlanByCount
from pledges.models import Pledge, PledgeChannel
from pledges.services import donation_create_by_phone, pledge_create_by_phone, pledge_stk_push_by_phone
from ussd import menu, tasks
from ussd.models import Caller, Session
from ussd.selectors import caller_language

logger = logging.getLogger(__name__)

# Africa's Talking ends a session after two or three minutes; its row is kept a while longer, for a
# retried last step.
SESSION_KEPT = timedelta(minutes=15)


def _end(text: str) -> str:
    return f"END {text[: menu.SCREEN_MAX]}"


def ussd_answer(*, session_id: str, phone: str, text: str, network_code: str = "") -> str:
    """The gateway's answer to one step of a session from ``phone``: ``CON …`` or ``END …``. A caller on
    Airtel (``network_code`` 63903) who pays a pledge gets the Airtel Money push where the campaign has
    an Airtel Money account, as an M-Pesa prompt cannot reach an Airtel line."""
    if validators.check_kenyan_phone(phone):
        return _end(_("Sorry, this service is for Kenyan numbers."))
    phone = validators.normalize_kenyan_phone(phone)
    session = _session_get_or_start(session_id=session_id, phone=phone)
    if session.phone != phone:
        return _end(_("Sorry, something went wrong. Please dial again."))
    walk = menu.walk(text=text, phone=phone, language=session.language)
    if walk.language_chosen:
        caller_language_set(phone=phone, language=walk.language)
    if walk.final is None:
        return f"CON {menu.screen_text(walk)}"
    return _final_carry_out(session=session, walk=walk, text=text, on_airtel=network_code == AIRTEL_NETWORK_CODE)


def _session_get_or_start(*, session_id: str, phone: str) -> Session:
    session_id = session_id[: Session._meta.get_field("session_id").max_length]
    session = Session.objects.filter(session_id=session_id).first()
    if session is not None:
        return session
    # A new session: forget the ones the gateway has long closed.
    Session.objects.filter(created_at__lt=timezone.now() - SESSION_KEPT).delete()
    language = caller_language(phone=phone) or settings.LANGUAGE_CODE
    session, _created = Session.objects.get_or_create(
        session_id=session_id, defaults={"phone": phone, "language": language}
    )
    return session


def caller_language_set(*, phone: str, language: str) -> None:
    """Remember the language the caller chose on the menu, for their next sessions."""
    Caller.objects.update_or_create(phone=phone, defaults={"language": language})


def _final_carry_out(*, session: Session, walk: menu.Walk, text: str, on_airtel: bool = False) -> str:
    assert walk.final is not None
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session.pk)
        if session.final_answer:
            return session.final_answer
        with translation.override(walk.language):
            try:
                network = {"on_airtel": on_airtel} if walk.final.action == "pay" else {}
                answer = FINALS[walk.final.action](walk=walk, session=session, **walk.final.args, **network)
            except RateLimitedError:
                answer = _end(LIMIT_MESSAGES[walk.final.action]())
            except ServiceError as refusal:
                answer = _end(refusal.message)
        session.final_text, session.final_answer = text[:255], answer
        session.save(update_fields=["final_text", "final_answer"])
    return answer


def _pledge(
    *,
    walk: menu.Walk,
    session: Session,
    campaign: Campaign,
    amount: int,
    anonymous: bool,
    purpose: str,
    plan: PlanByCount | None,
    champion: Champion | None = None,
) -> str:
    ratelimit.enforce(scope="ussd-pledge", identifiers=[walk.phone], limit=settings.RATE_LIMIT_USSD_PLEDGES)
    create = (
        partial(champion_pledge_create_by_phone, champion=champion)
        if champion is not None
        else partial(pledge_create_by_phone, campaign_id=campaign.pk)
    )
    pledge = create(amount=amount, phone=walk.phone, is_anonymous=anonymous, channel=PledgeChannel.USSD, plan=plan)
    how_to_pay = _how_to_pay(campaign=campaign, reference=pledge.code)
    if campaign_stk_account(campaign=campaign) is None:
        return _end(
            _("Thank you! Your pledge code is %(code)s. Pay via %(how_to_pay)s. An SMS follows.")
            % {"code": pledge.code, "how_to_pay": how_to_pay}
        )
    return _end(
        _(
            "Thank you! Your pledge code is %(code)s. Pay via %(how_to_pay)s, or dial again and choose Pay. An SMS follows."
        )
        % {"code": pledge.code, "how_to_pay": how_to_pay}
    )


def _how_to_pay(*, campaign: Campaign, reference: str | None) -> str:
    """The campaign's first account in one line ('Paybill 600100, account ABC1234'): its own, never
    Harambee's; the SMS that follows gives them all."""
    instructions = campaign_payment_instructions(campaign=campaign, reference=reference)
    return instructions[0].summary if instructions else _("the campaign's page")


def _prompt_later(*, kind: str, target_id: int, session: Session, phone: str, amount: int, language: str) -> None:
    """Send the PIN prompt from a task once the END screen has closed the dialogue (on commit)."""
    ratelimit.enforce(scope="ussd-stk", identifiers=[phone], limit=settings.RATE_LIMIT_USSD_STK)
    task = tasks.ussd_stk_push_send
    if task.get_backend().supports_defer:
        task = task.using(run_after=timezone.now() + timedelta(seconds=settings.USSD_STK_DELAY_SECONDS))
    transaction.on_commit(
        partial(
            task.enqueue,
            kind=kind,
            target_id=target_id,
            phone=phone,
            amount=amount,
            session_id=session.session_id,
            language=language,
        )
    )


def _pay(*, walk: menu.Walk, session: Session, pledge: Pledge, amount: int, on_airtel: bool = False) -> str:
    if on_airtel and campaign_airtel_account(campaign=pledge.campaign) is not None:
        _prompt_later(
            kind="pledge_airtel",
            target_id=pledge.pk,
            session=session,
            phone=walk.phone,
            amount=amount,
            language=walk.language,
        )
        return _end(
            _("Enter your Airtel Money PIN when asked, to pay %(amount)s for pledge %(code)s.")
            % {"amount": format_ksh(amount), "code": pledge.code}
        )
    if campaign_stk_account(campaign=pledge.campaign) is None:
        # No account of the campaign takes PIN prompts: the caller pays it themselves.
        return _end(
            _("Pay %(amount)s for pledge %(code)s via %(how_to_pay)s.")
            % {
                "amount": format_ksh(amount),
                "code": pledge.code,
                "how_to_pay": _how_to_pay(campaign=pledge.campaign, reference=pledge.code),
            }
        )
    _prompt_later(
        kind="pledge", target_id=pledge.pk, session=session, phone=walk.phone, amount=amount, language=walk.language
    )
    return _end(
        _("Enter your M-Pesa PIN when asked, to pay %(amount)s for pledge %(code)s.")
        % {"amount": format_ksh(amount), "code": pledge.code}
    )


def _give(
    *,
    walk: menu.Walk,
    session: Session,
    campaign: Campaign,
    amount: int,
    purpose: str,
    champion: Champion | None = None,
) -> str:
    if campaign_stk_account(campaign=campaign) is None:
        # Through a champion: their code is the account number, so the paybill payment counts for them.
        reference = champion.code if champion is not None else None
        return _end(
            _("Give %(amount)s via %(how_to_pay)s.")
            % {"amount": format_ksh(amount), "how_to_pay": _how_to_pay(campaign=campaign, reference=reference)}
        )
    kind, target_id = ("champion_donation", champion.pk) if champion is not None else ("donation", campaign.pk)
    _prompt_later(
        kind=kind, target_id=target_id, session=session, phone=walk.phone, amount=amount, language=walk.language
    )
    return "END " + menu.fitted(
        lambda length: (
            _("Enter your M-Pesa PIN when asked, to give %(amount)s to %(title)s.")
            % {"amount": format_ksh(amount), "title": menu.shortened(campaign.title, length)}
        )
    )


def _pledge_lines(pledges: list[Pledge]) -> list[str]:
    return [
        _("%(code)s %(title)s: paid %(paid)s, left %(left)s")
        % {
            "code": pledge.code,
            "title": menu.shortened(pledge.campaign.title, 20),
            "paid": format_ksh(pledge.paid_amount),
            "left": format_ksh(pledge.remaining_amount),
        }
        for pledge in pledges
    ]


def pledges_sms_text(pledges: list[Pledge]) -> str:
    """A caller's open pledges in one SMS, as many as fit (``sms_length``), in the active language
    (also the SMS keywords' BAL answer)."""
    message = _("Your pledges:")
    for line in _pledge_lines(pledges):
        if not sms_length(f"{message} {line};").fits_one_sms:
            break
        message = f"{message} {line};"
    return message


def _my_pledges(*, walk: menu.Walk, session: Session) -> str:
    pledges = walk.open_pledges()
    if not pledges:
        return _end(_("You have no open pledges. Dial again and choose 1 to pledge."))
    screen = "\n".join([_("Your pledges:"), *_pledge_lines(pledges)])
    if len(screen) <= menu.SCREEN_MAX:
        return f"END {screen}"
    log = notification_queue_sms(to=walk.phone, template="ussd_pledges", context={"message": pledges_sms_text(pledges)})
    transaction.on_commit(partial(notification_tasks.deliver_notification.enqueue, log_id=log.pk))
    return _end(_("You have %(count)s open pledges. We sent you the list by SMS.") % {"count": len(pledges)})


FINALS: dict[str, Callable[..., str]] = {"pledge": _pledge, "pay": _pay, "give": _give, "my_pledges": _my_pledges}
LIMIT_MESSAGES = {
    "pledge": lambda: _("You have made many pledges today. Please try again tomorrow."),
    "pay": lambda: _("Too many payment prompts. Please try again in a few minutes."),
    "give": lambda: _("Too many payment prompts. Please try again in a few minutes."),
}


def ussd_stk_push_send(*, kind: str, target_id: int, phone: str, amount: int, session_id: str, language: str) -> None:
    """Send the PIN prompt a caller asked for on the menu (the task): for their pledge, or for an
    anonymous gift to a campaign (``target_id``) or through a champion (``champion_donation``: theirs). Keyed on the session, so a repeated task prompts once. A refusal
    (the pledge paid meanwhile, the campaign closed, M-Pesa unavailable) is logged: the caller
    sees no prompt and may dial again."""
    key = f"ussd-{session_id}"[:64]
    with translation.override(language):
        try:
            if kind == "pledge":
                pledge_stk_push_by_phone(pledge_id=target_id, phone=phone, amount=amount, idempotency_key=key)
            elif kind == "pledge_airtel":
                pledge_airtel_push_by_phone(pledge_id=target_id, phone=phone, amount=amount, idempotency_key=key)
            elif kind == "champion_donation":
                champion_donation_create_by_phone(
                    champion_id=target_id, amount=amount, phone=phone, idempotency_key=key
                )
            else:
                donation_create_by_phone(campaign_id=target_id, amount=amount, phone=phone, idempotency_key=key)
        except ServiceError as refusal:
            logger.warning("USSD PIN prompt for session %s not sent: %s", session_id, refusal.message)


@transaction.atomic
def ussd_personal_data_erase(*, user: User) -> None:
    """Forget the language choice and sessions of the number on the user's account (``privacy``)."""
    if user.phone:
        Caller.objects.filter(phone=user.phone).delete()
        Session.objects.filter(phone=user.phone).delete()
