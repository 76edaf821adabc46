"""The messages sent when something happens: a pledge recorded or paid, a receipt (by SMS for a
gift typed at an event's desk), a welcome, a password reset link, an organizer's news of a new
pledge (none during an event: ``event_summaries``), a campaign activated, a change to an organization's team asked for or applied (the two-person rule).
Each is queued and delivered through the outbox (``outbox``)."""

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.tokens import password_reset_url
from campaigns.models import Campaign, CampaignStatus
from campaigns.selectors import campaign_payment_instructions, campaign_stk_account
from collection_accounts.instructions import instructions_summary
from common.money import format_ksh
from events.selectors import event_held_at
from notifications import recipient_limits, tasks
from notifications.models import CampaignReminderSettings, NotificationLog
from notifications.outbox import deliver_all, notification_queue_email, notification_queue_sms, sms_fit
from organizations.approvals import change_kind
from organizations.models import ChangeRequest, Invitation
from organizations.selectors import guarded_members
from organizations.team_messages import team_message_allowed
from payments.models import Payment
from pledges.models import Donation, Pledge, PledgeChannel, PledgePayment, shown_giver_name

logger = logging.getLogger(__name__)


def pledge_context(pledge: Pledge) -> dict[str, Any]:
    """What the pledger's messages say, in the active language. How to pay is the campaign's accounts'
    own instructions (``collection_accounts.instructions``), never Harambee's paybill."""
    instructions = campaign_payment_instructions(campaign=pledge.campaign, reference=pledge.code)
    return {
        "pledge": pledge,
        "campaign": pledge.campaign,
        "amount": format_ksh(pledge.amount),
        "paid": format_ksh(pledge.paid_amount),
        "remaining": format_ksh(pledge.remaining_amount),
        "instructions": instructions,
        "how_to_pay": instructions_summary(instructions),
        "offers_stk_push": campaign_stk_account(campaign=pledge.campaign) is not None,
        # The pledger's own page (frontend /pledges/{code}): what is paid, how to pay, 'Pay now with M-Pesa'.
        "pay_url": f"{settings.SITE_URL}/pledges/{pledge.code}",
        "site_url": settings.SITE_URL,
        "ussd_code": settings.USSD_SERVICE_CODE,
        # Pledged from a phone's menu or by text: paid the same way, from any phone (no link to open).
        "by_phone": pledge.channel in (PledgeChannel.USSD, PledgeChannel.SMS),
        "shortcode": settings.SMS_SHORTCODE,
        "sms_pay": sms_pay_text(pledge.code),
    }


def sms_pay_text(code: str) -> str:
    """What to text the shortcode to pay pledge ``code``, in the active language (``sms_keywords``
    understands both): after the organization's keyword on a shared shortcode."""
    # Translators: the SMS keyword that pays a pledge (sms_keywords/keywords.py): LIPA in Kiswahili.
    keyword = _("PAY")
    words = f"{keyword} {code}"
    return f"{settings.SMS_SHARED_KEYWORD} {words}" if settings.SMS_SHARED_KEYWORD else words


def pledge_recorded_notify(*, pledge_id: int) -> None:
    """The pledger's confirmation: amount, campaign, code and how to pay, by e-mail and SMS."""
    pledge = Pledge.objects.select_related("campaign").get(pk=pledge_id)
    with translation.override(pledge.language):
        context = pledge_context(pledge)
        subject = _("Your pledge %(code)s to %(campaign)s") % {"code": pledge.code, "campaign": pledge.campaign.title}
        logs = []
        if pledge.email:  # none for a pledge made by phone (USSD)
            logs.append(
                notification_queue_email(
                    to=pledge.email, subject=subject, template="pledge_recorded", context=context, pledge=pledge
                )
            )
        logs.append(
            notification_queue_sms(
                to=pledge.phone,
                template="pledge_recorded",
                context=context,
                shortenable={"title": pledge.campaign.title},
                pledge=pledge,
            )
        )
        deliver_all(logs)


# A receipt tells of the pledge's payments credited this long before the one that called for it and
# not told of yet: the rows of one statement, the payments one Pull recovered.
RECEIPT_GATHERS = timedelta(hours=1)


def _received_how(payment: Payment) -> str:
    """How the money came, in the payer's words, with the code they hold for it: the M-Pesa code in
    their own SMS, the bank's reference, else our receipt's number."""
    receipt = {"number": payment.receipt_number or payment.reference}
    if payment.mpesa_receipt:
        return _("by M-Pesa %(code)s") % {"code": payment.mpesa_receipt}
    if payment.provider == Payment.Provider.BANK and payment.provider_reference:
        return _("by bank transfer, reference %(reference)s") % {"reference": payment.provider_reference}
    if payment.provider == Payment.Provider.CASH:
        return _("in cash, receipt %(number)s") % receipt
    if payment.provider == Payment.Provider.CARD:
        return _("by card, receipt %(number)s") % receipt
    if payment.provider == Payment.Provider.BANK:
        return _("by bank transfer, receipt %(number)s") % receipt
    return _("by M-Pesa, receipt %(number)s") % receipt


def _payments_to_receipt(pledge: Pledge, payment_id: int) -> list[Payment]:
    """The pledge's payments the receipt for ``payment_id`` tells of: it and those credited shortly
    before it that no receipt told of yet (none, when another's receipt told of it already)."""
    told = PledgePayment.objects.filter(pledge=pledge, payment_id=payment_id).values_list("created_at", flat=True)
    if not told:
        return []  # moved to another pledge, or reversed and taken off, since
    return list(
        Payment.objects.filter(
            pledge_link__pledge=pledge,
            pledge_link__created_at__gte=told[0] - RECEIPT_GATHERS,
            status=Payment.Status.SUCCEEDED,
            notify_payer=True,
            reversal__isnull=True,
            sms_receipts__isnull=True,
        ).order_by("pledge_link__created_at", "pk")
    )


def pledge_payment_notify(*, pledge_id: int, payment_id: int) -> None:
    """Payments counted towards a pledge: one SMS receipt to the pledger for all those credited
    together (a statement's rows, a Pull's payments: ``RECEIPT_GATHERS``), naming what came, how and
    with which code, and what is left; and a thank-you by e-mail and SMS once the pledge is fully paid.
    A payment another receipt told of sends nothing (the e-mail receipt is ``payment_receipt_notify``'s)."""
    with transaction.atomic():
        # Locked: the receipts of one credit's payments, run at once, tell of each payment once.
        pledge = Pledge.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=pledge_id)
        payments = _payments_to_receipt(pledge, payment_id)
        if not payments:
            return
        with translation.override(pledge.language):
            context = {
                **pledge_context(pledge),
                "count": len(payments),
                "received": format_ksh(sum(payment.amount for payment in payments)),
                "how": _received_how(payments[0]),
            }
            receipt = notification_queue_sms(
                to=pledge.phone,
                template="payment_received",
                context=context,
                shortenable={"title": pledge.campaign.title},
                pledge=pledge,
                payment=payments[-1],
            )
            receipt.receipted_payments.set(payments)
            logs = [receipt]
            if pledge.remaining_amount == 0:
                logs += _pledge_paid_thanks(pledge, context)
    deliver_all(logs)


def _pledge_paid_thanks(pledge: Pledge, context: dict[str, Any]) -> list[NotificationLog]:
    subject = _("Thank you: your pledge to %(campaign)s is fully paid") % {"campaign": pledge.campaign.title}
    logs = []
    if pledge.email:  # none for a pledge made by phone (USSD)
        logs.append(
            notification_queue_email(
                to=pledge.email, subject=subject, template="pledge_paid", context=context, pledge=pledge
            )
        )
    # The name only to a number that paid towards the pledge (recipient_limits).
    name = pledge.name if recipient_limits.pledger_phone_confirmed(pledge) else ""
    logs.append(
        notification_queue_sms(
            to=pledge.phone,
            template="pledge_paid",
            context=context,
            shortenable={"title": pledge.campaign.title, "name": name},
            pledge=pledge,
        )
    )
    return logs


def pledge_change_notify(*, pledge_id: int, change: str) -> None:
    """One short SMS to the pledger when an organizer changed their pledge by hand: what changed
    and where it stands now (``change`` as in ``pledges.signals.pledge_changed``)."""
    pledge = Pledge.objects.select_related("campaign").get(pk=pledge_id)
    with translation.override(pledge.language):
        facts = {"code": pledge.code, **pledge_context(pledge)}
        texts = {
            "corrected": _("Your pledge %(code)s to %(title)s is now %(amount)s: paid %(paid)s, %(remaining)s left."),
            "cancelled": _("Your pledge %(code)s to %(title)s was cancelled by the organizer."),
            "restored": _("Your pledge %(code)s to %(title)s of %(amount)s is active again: %(remaining)s left."),
            "payments_moved": _(
                "Payments were counted towards your pledge %(code)s to %(title)s: paid %(paid)s of %(amount)s."
            ),
            "payment_reversed": _(
                "A payment recorded for your pledge %(code)s to %(title)s was reversed: paid %(paid)s of %(amount)s."
            ),
        }
        deliver_all(
            [
                notification_queue_sms(
                    to=pledge.phone,
                    template="pledge_changed",
                    context={
                        "message": sms_fit(
                            lambda values: texts[change] % {**facts, **values}, {"title": pledge.campaign.title}
                        )
                    },
                    pledge=pledge,
                )
            ]
        )


def _receipt_language(payment: Payment) -> str:
    """The language the payer gave or pledged in, else their profile's."""
    if donation := getattr(payment, "donation", None):
        return donation.language
    if pledge_link := getattr(payment, "pledge_link", None):
        return pledge_link.pledge.language
    return payment.user.message_language if payment.user else settings.LANGUAGE_CODE


def _receipt_link(payment: Payment) -> tuple[str, str]:
    """Where the receipt leads, and its button's words: a pledge's own page, the campaign given to,
    or (fees, paid signed in) the dashboard: a pledger or donor may have no account to see one."""
    if pledge_link := getattr(payment, "pledge_link", None):
        return f"{settings.SITE_URL}/pledges/{pledge_link.pledge.code}", _("See your pledge")
    if payment.campaign is not None and payment.purpose != Payment.Purpose.CAMPAIGN_ACTIVATION:
        return payment.campaign.share_url, _("See the campaign")
    return f"{settings.SITE_URL}/dashboard", _("Go to your dashboard")


def payment_receipt_notify(*, payment_id: int) -> None:
    """The e-mailed receipt of any succeeded payment (a donation, a pledge's instalment, a fee),
    to the address given with it or else the payer's account, in the payer's language."""
    payment = (
        Payment.objects.select_related("campaign", "user", "donation", "pledge_link__pledge")
        .filter(pk=payment_id)
        .first()
    )
    if payment is None or payment.status != Payment.Status.SUCCEEDED or not payment.contact_email:
        return
    pledge_link = getattr(payment, "pledge_link", None)
    with translation.override(_receipt_language(payment)):
        link_url, link_label = _receipt_link(payment)
        context = {
            "payment": payment,
            "link_url": link_url,
            "link_label": link_label,
            "amount": format_ksh(payment.amount),
            # An entry recorded by hand states the day the money was received.
            "paid_at": timezone.localtime(payment.received_at or payment.settled_at) if payment.settled_at else None,
            "site_url": settings.SITE_URL,
        }
        subject = _("Your Harambee receipt %(number)s") % {"number": payment.receipt_number}
        deliver_all(
            [
                notification_queue_email(
                    to=payment.contact_email,
                    subject=subject,
                    template="receipt",
                    context=context,
                    pledge=pledge_link.pledge if pledge_link else None,
                    payment=payment,
                )
            ]
        )


DESK_GIFT_RECEIPT = "gift_receipt"


def desk_gift_receipt_notify(*, donation_id: int) -> None:
    """The SMS receipt of a gift typed at an event's desk (cash, or M-Pesa that no receipt of ours
    told of yet), to the phone the desk took, in the language the desk used. Once per gift: a task
    run again finds its log. Limited as unasked (``recipient_limits``): the desk typed the number."""
    donation = Donation.objects.select_related("campaign", "payment").get(pk=donation_id)
    payment = donation.payment
    if NotificationLog.objects.filter(template=f"sms/{DESK_GIFT_RECEIPT}", payment=payment).exists():
        return
    with translation.override(donation.language):
        context = {
            "amount": format_ksh(donation.amount),
            "campaign": donation.campaign,
            "payment": payment,
            "in_cash": payment.provider == Payment.Provider.CASH,
        }
        deliver_all(
            [
                notification_queue_sms(
                    to=donation.phone,
                    template=DESK_GIFT_RECEIPT,
                    context=context,
                    shortenable={"title": donation.campaign.title},
                    payment=payment,
                )
            ]
        )


def user_welcome_notify(*, user_id: int) -> None:
    """The welcome e-mail after sign-up."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return
    with translation.override(user.message_language):
        context = {"user": user, "site_url": settings.SITE_URL}
        deliver_all(
            [
                notification_queue_email(
                    to=user.email, subject=_("Welcome to Harambee"), template="welcome", context=context
                )
            ]
        )


def password_reset_notify(*, user_id: int) -> None:
    """The e-mail carrying the signed, single-use link to /reset-password. The link is made here,
    so it is in no task's arguments, and taken out of the message log once delivery is settled."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return
    with translation.override(user.message_language):
        context = {"user": user, "reset_url": password_reset_url(user), "site_url": settings.SITE_URL}
        subject = _("Reset your Harambee password")
        deliver_all(
            [notification_queue_email(to=user.email, subject=subject, template="password_reset", context=context)]
        )


def phone_code_queue(*, user: User, phone: str, code: str) -> None:
    """The SMS with a one-time code proving ``phone`` is the user's (``accounts.services.
    phone_verification_start``); the code is taken out of the log once delivery is settled."""
    with translation.override(user.message_language):
        log = notification_queue_sms(to=phone, template="phone_code", context={"code": code})
    tasks.deliver_notification.enqueue(log_id=log.pk)


def campaign_manage_url(campaign: Campaign) -> str:
    # Pledge Management is a section of the campaign's page, shown to its organizer and admins.
    return f"{settings.SITE_URL}/campaign/{campaign.pk}"


def wants_digest(campaign: Campaign) -> bool:
    try:
        return campaign.reminder_settings.new_pledge_digest
    except CampaignReminderSettings.DoesNotExist:
        return False


def organizer_new_pledge_notify(*, pledge_id: int) -> None:
    """Tell the organizer about a new pledge at once, unless they chose the daily digest or it was
    made during an event (the summary at its close lists it: ``event_summaries``)."""
    pledge = Pledge.objects.select_related("campaign__organizer", "campaign__reminder_settings").get(pk=pledge_id)
    campaign = pledge.campaign
    if wants_digest(campaign) or event_held_at(campaign_id=campaign.pk, at=pledge.created_at) is not None:
        return
    with translation.override(campaign.organizer.message_language):
        context = {
            "pledge": pledge,
            "giver": shown_giver_name(pledge.name, pledge.phone),
            "campaign": campaign,
            "amount": format_ksh(pledge.amount),
            "manage_url": campaign_manage_url(campaign),
        }
        subject = _("New pledge: %(amount)s to %(campaign)s") % {
            "amount": context["amount"],
            "campaign": campaign.title,
        }
        deliver_all(
            [
                notification_queue_email(
                    to=campaign.organizer.email, subject=subject, template="new_pledge", context=context, pledge=pledge
                )
            ]
        )


def campaign_activated_notify(*, campaign_id: int, payment_id: int) -> None:
    """The organizer's e-mail once their activation fee is paid and the campaign is live."""
    campaign = Campaign.objects.select_related("organizer").get(pk=campaign_id)
    if campaign.status != CampaignStatus.ACTIVE:
        return
    with translation.override(campaign.organizer.message_language):
        payment = Payment.objects.get(pk=payment_id)
        context = {
            "campaign": campaign,
            "organizer": campaign.organizer,
            "fee": format_ksh(payment.amount),
            "campaign_url": campaign_manage_url(campaign),
            "site_url": settings.SITE_URL,
        }
        subject = _("%(campaign)s is now live") % {"campaign": campaign.title}
        deliver_all(
            [
                notification_queue_email(
                    to=campaign.organizer.email,
                    subject=subject,
                    template="campaign_activated",
                    context=context,
                    payment=payment,
                )
            ]
        )


def organization_url(organization_id: int) -> str:
    return f"{settings.SITE_URL}/organizations/{organization_id}"


def change_request_notify(*, change_request_id: int, event: str) -> None:
    """Tell every owner and treasurer of the organization, each in their language, by e-mail and
    (to a phone on their account) SMS, that a guarded change was asked for (``event`` "requested")
    or took effect ("applied")."""
    request = (
        ChangeRequest.objects.select_related("organization", "requested_by", "decided_by")
        .filter(pk=change_request_id)
        .first()
    )
    if request is None:
        return
    # Caused by the one who asked ("requested") or who approved (or applied it at once): counted
    # against them, never against the owners and treasurers told. Held back, the request still
    # shows on the organization's page.
    causer = request.requested_by_id if event == "requested" else request.decided_by_id
    if causer is not None and not team_message_allowed(organization_id=request.organization_id, member_id=causer):
        logger.warning("The notices of change request %s (%s) were held: team message limit", request.pk, event)
        return
    template = f"change_{event}"
    # Every kind but the team's own is about where the money is paid (accounts, campaigns' accounts, M-Pesa).
    payment_details = not request.kind.startswith("team.")
    logs = []
    for member in guarded_members(organization=request.organization):
        recipient = member.user
        if event == "requested" and recipient.pk == request.requested_by_id:
            continue  # it waits for someone else: its asker is not asked to approve it
        with translation.override(recipient.message_language):
            context = {
                "recipient": recipient,
                "organization": request.organization,
                "description": change_kind(request.kind).describe(request),
                "requester": request.requested_by.display_name if request.requested_by else _("Someone"),
                # At once (one owner): no one else approved it.
                "approver": request.decided_by.display_name
                if request.decided_by and request.decided_by_id != request.requested_by_id
                else "",
                "expires": timezone.localtime(request.expires_at).strftime("%d %b %Y %H:%M"),
                "organization_url": organization_url(request.organization_id),
                "payment_details": payment_details,
            }
            subjects = {
                "requested": _("A team change at %(organization)s needs your approval"),
                "applied": _("A team change at %(organization)s has taken effect"),
            }
            if payment_details:
                subjects = {
                    "requested": _("A change to where %(organization)s is paid needs your approval"),
                    "applied": _("A change to where %(organization)s is paid has taken effect"),
                }
            subject = subjects[event] % {"organization": request.organization.name}
            logs.append(
                notification_queue_email(to=recipient.email, subject=subject, template=template, context=context)
            )
            if recipient.phone:
                logs.append(notification_queue_sms(to=recipient.phone, template=template, context=context))
    deliver_all(logs)


def invitation_queue(*, invitation: Invitation, token: str) -> None:
    """The invitation's link, by e-mail or SMS, in the active language (the inviter's); the token
    is taken out of the log once delivery is settled."""
    context = {
        "organization": invitation.organization,
        "inviter": invitation.invited_by.display_name if invitation.invited_by else _("Someone"),
        "role": str(invitation.get_role_display()).lower(),
        "invitation_url": Invitation.link(token),
        "expires": timezone.localtime(invitation.expires_at).strftime("%d %b %Y"),
    }
    if invitation.email:
        subject = _("Join %(organization)s on Harambee") % {"organization": invitation.organization.name}
        log = notification_queue_email(to=invitation.email, subject=subject, template="invitation", context=context)
    else:
        log = notification_queue_sms(to=invitation.phone, template="invitation", context=context)
    tasks.deliver_notification.enqueue(log_id=log.pk)


def giving_statement_queue(
    *,
    email: str,
    phone: str,
    name: str,
    organization_name: str,
    year: int,
    total: int,
    link: str,
    pdf: bytes,
    language: str,
) -> list[NotificationLog]:
    """Queue a giver's yearly statement from an organization: an e-mail with the PDF attached, and an SMS
    with ``link`` (signed, expiring: no sign-in needed), to whichever of ``email`` and ``phone`` there is.
    The caller delivers them once its transaction commits."""
    logs: list[NotificationLog] = []
    with translation.override(language or settings.LANGUAGE_CODE):
        context = {
            "name": name,
            "organization": organization_name,
            "year": year,
            "total": format_ksh(total),
            "link": link,
        }
        if email:
            logs.append(
                notification_queue_email(
                    to=email,
                    subject=_("Your statement of giving for %(year)s") % {"year": year},
                    template="giving_statement",
                    context=context,
                    attachments=[(f"statement-{year}.pdf", "application/pdf", pdf)],
                )
            )
        if phone:
            logs.append(
                notification_queue_sms(
                    to=phone,
                    template="giving_statement",
                    context=context,
                    shortenable={"organization": organization_name},
                )
            )
    return logs
