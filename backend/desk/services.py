"""Writes of the ushers' desk: entries (pledge cards, cash and M-Pesa gifts), desk passcodes, the
count of an event's cash against what its desk recorded (models.py ``CashReconciliation``), and an
event's thank-you message to its givers.

An entry goes through the same services as the web: a pledge through ``pledges.services`` (its
pledger gets the usual SMS with the code and how to pay), a gift as a donation counted at once
(``donation_record_at_desk``: one M-Pesa receipt, one credit). Each is recorded once per
idempotency key (models.py).
"""

from dataclasses import asdict, dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from campaigns.selectors import campaign_get, campaign_permission_check
from common import ratelimit
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError, ServiceError
from desk.actors import DeskActor
from desk.models import (
    CashCount,
    CashReconciliation,
    DeskEntry,
    DeskEntryKind,
    DeskPasscode,
    passcode_draw,
    passcode_hash,
)
from desk.selectors import (
    CashReckoning,
    cash_reckoning_of,
    cash_recorded_by_usher,
    event_of_campaign_get,
    event_report_event_get,
    event_report_get,
    reconcile_denied,
    run_events_denied,
)
from events.models import Event, EventState
from notifications.event_thanks import ThanksQueued, ThanksRecipient, event_thanks_queue
from notifications.models import NotificationLog
from notifications.sms_length import sms_length
from organizations.roles import Permission
from pledges.instalments import PlanTerms
from pledges.models import DELETED_USER_NAME
from pledges.services import donation_record_at_desk, pledge_create_at_desk

PASSCODE_ATTEMPTS = 5


def _desk_denied() -> str:
    return _("Only the campaign's owners, treasurers and ushers, or an admin, can record at its desk.")


def desk_event_get(*, actor: DeskActor, event_id: int) -> Event:
    """The event whose desk ``actor`` may add entries to (its campaign attached). A team member:
    any opened event of a campaign they record for (after its close too, so a desk that was offline
    still delivers what it kept). A passcode: its own event, while it is open."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFoundError(_("Event not found"), code="not_found")
    if actor.passcode is not None:
        if actor.passcode.event_id != event.pk:
            raise PermissionDeniedError(_("This passcode is for another event."), code="passcode_other_event")
        if event.state == EventState.CLOSED:
            raise PermissionDeniedError(
                _("This event has closed: its desk passcodes no longer work."), code="passcode_expired"
            )
        event.campaign = campaign_get(campaign_id=event.campaign_id, user=None)
    else:
        assert actor.user is not None
        try:
            event.campaign = campaign_get(campaign_id=event.campaign_id, user=actor.user)
        except NotFoundError:
            raise NotFoundError(_("Event not found"), code="not_found") from None
        campaign_permission_check(
            campaign=event.campaign, user=actor.user, permission=Permission.RECORD_AT_DESK, denied=_desk_denied()
        )
    if event.state == EventState.SCHEDULED:
        raise ServiceError(_("This event has not been opened yet."), code="event_not_open")
    return event


def desk_entry_record(
    *,
    actor: DeskActor,
    event_id: int,
    idempotency_key: str,
    kind: str,
    amount: int,
    name: str,
    phone: str,
    is_anonymous: bool,
    mpesa_receipt: str,
    plan: PlanTerms | None = None,
) -> tuple[DeskEntry, bool]:
    """Record a pledge card (with the instalment ``plan`` it carries, if any) or gift typed at
    ``event_id``'s desk, once per ``idempotency_key``: answers the entry and whether it is new. The
    same key again returns the first entry (whatever the body says), if the same usher sent it.
    Limited per usher (``RATE_LIMIT_DESK_ENTRY``)."""
    key = idempotency_key.strip()
    if not key:
        raise FieldValidationError(_("This entry has no key."), field_errors={"idempotency_key": _("Required")})
    existing = DeskEntry.objects.filter(idempotency_key=key).first()
    if existing is not None:
        return _replayed(existing, actor), False
    if plan is not None and kind != DeskEntryKind.PLEDGE:
        message = _("Only a pledge card is paid in instalments.")
        raise FieldValidationError(message, field_errors={"plan": message})
    event = desk_event_get(actor=actor, event_id=event_id)
    ratelimit.enforce(
        scope="desk-entry",
        identifiers=[actor.limit_key],
        limit=settings.RATE_LIMIT_DESK_ENTRY,
        message=_("Too many entries from this desk in a short time. Please wait a moment."),
    )
    try:
        with transaction.atomic():
            entry = DeskEntry.objects.create(
                idempotency_key=key,
                event=event,
                kind=kind,
                amount=amount,
                usher=actor.user,
                passcode=actor.passcode,
                usher_name=actor.name[:150],
            )
            _entry_carry_out(
                entry,
                actor=actor,
                name=name,
                phone=phone,
                is_anonymous=is_anonymous,
                mpesa_receipt=mpesa_receipt,
                amount=amount,
                plan=plan,
            )
    except IntegrityError:
        # The same entry delivered twice at once (a retry racing the first): the first one won.
        existing = DeskEntry.objects.filter(idempotency_key=key).first()
        if existing is None:
            raise
        return _replayed(existing, actor), False
    return entry, True


def _replayed(entry: DeskEntry, actor: DeskActor) -> DeskEntry:
    usher_id = actor.user.pk if actor.user is not None else None
    passcode_id = actor.passcode.pk if actor.passcode is not None else None
    if not entry.typed_by(usher_id=usher_id, passcode_id=passcode_id):
        raise ServiceError(_("This entry's key was already used by another desk."), code="key_used")
    return entry


def _entry_carry_out(
    entry: DeskEntry,
    *,
    actor: DeskActor,
    name: str,
    phone: str,
    is_anonymous: bool,
    mpesa_receipt: str,
    amount: int,
    plan: PlanTerms | None,
) -> None:
    campaign = entry.event.campaign
    if entry.kind == DeskEntryKind.PLEDGE:
        entry.pledge = pledge_create_at_desk(
            campaign=campaign, amount=amount, name=name, phone=phone, is_anonymous=is_anonymous, plan=plan
        )
    else:
        gift = donation_record_at_desk(
            campaign=campaign,
            method=entry.kind,
            amount=amount,
            name=name,
            phone=phone,
            is_anonymous=is_anonymous,
            mpesa_receipt=mpesa_receipt,
            recorded_by=actor.user,
        )
        entry.donation, entry.payment, entry.already_in_books = gift.donation, gift.payment, gift.already_credited
    entry.save(update_fields=["pledge", "donation", "payment", "already_in_books"])


def desk_passcode_issue(*, user: User, event_id: int, volunteer: str) -> tuple[DeskPasscode, str]:
    """A passcode for one volunteer without an account (owners and admins): it adds entries to
    this event only, until its close. Answers the row and the code, shown once. Audited with the
    volunteer and the event, never the code."""
    event = event_of_campaign_get(
        user=user, event_id=event_id, permission=Permission.RUN_EVENTS, denied=run_events_denied()
    )
    volunteer = " ".join(volunteer.split())
    if not volunteer:
        message = _("Give the volunteer's name: their entries are counted under it.")
        raise FieldValidationError(message, field_errors={"volunteer": message})
    if event.state == EventState.CLOSED:
        raise ServiceError(_("This event has closed."), code="event_closed")
    for attempt in range(PASSCODE_ATTEMPTS):
        code = passcode_draw()
        try:
            with transaction.atomic():
                passcode = DeskPasscode.objects.create(
                    event=event, volunteer=volunteer[:60], code_hash=passcode_hash(code), issued_by=user
                )
                audit_record(
                    actor=user,
                    action=AuditAction.DESK_PASSCODE_ISSUED,
                    target=passcode,
                    after={"volunteer": passcode.volunteer, "event": event.pk},
                )
        except IntegrityError:
            if attempt == PASSCODE_ATTEMPTS - 1:
                raise
            continue
        return passcode, code
    raise AssertionError("unreachable")


def desk_passcode_check(*, code: str, client_ip: str) -> DeskPasscode:
    """The working passcode typed at a desk's sign-in; wrong guesses limited per address
    (``RATE_LIMIT_DESK_PASSCODE``): a wrong or expired one is refused the same way. Only the wrong
    ones count: every volunteer of a hall signs in behind its one Wi-Fi address (bench/desk.py), and
    a right passcode is no guess. Once the guesses are used up, every passcode is refused until the
    window ends, or a 200 would tell a guesser the right one. A revoked passcode is a wrong one.
    Each is counted before it is judged and a right one taken back, so parallel guesses never get
    more than the limit judged."""
    counted = ratelimit.enforce(
        scope="desk-passcode",
        identifiers=[client_ip],
        limit=settings.RATE_LIMIT_DESK_PASSCODE,
        message=_("Too many passcodes tried. Please wait a while and try again."),
    )
    passcode = DeskPasscode.objects.select_related("event").filter(code_hash=passcode_hash(code)).first()
    if passcode is None or not passcode.works:
        message = _("This passcode does not work: check it with the event's owner.")
        raise FieldValidationError(message, field_errors={"passcode": message})
    ratelimit.take_back(counted)
    return passcode


def desk_passcode_revoke(*, user: User, event_id: int, passcode_id: int) -> DeskPasscode:
    """Stop one of ``event_id``'s passcodes at once (owners and admins), even in a browser signed in
    with it (``desk.api._actor`` asks on every request). Its entries stay, counted under its
    volunteer. Audited; revoking it again changes nothing."""
    event = event_of_campaign_get(
        user=user, event_id=event_id, permission=Permission.RUN_EVENTS, denied=run_events_denied()
    )
    with transaction.atomic():
        passcode = DeskPasscode.objects.select_for_update().filter(pk=passcode_id, event=event).first()
        if passcode is None:
            raise NotFoundError(_("This event has no such desk passcode."), code="not_found")
        passcode.event = event
        if passcode.revoked_at is None:
            passcode.revoked_at, passcode.revoked_by = timezone.now(), user
            passcode.save(update_fields=["revoked_at", "revoked_by"])
            audit_record(
                actor=user,
                action=AuditAction.DESK_PASSCODE_REVOKED,
                target=passcode,
                after={"volunteer": passcode.volunteer, "event": event.pk},
            )
        return passcode


def _reconciliation_locked(*, user: User, event_id: int) -> CashReconciliation:
    """The event's cash reconciliation (made on first use), locked, if ``user`` may count its cash
    (``RECONCILE_CASH``): counts, sign-offs and withdrawals of one event happen one at a time."""
    event = event_of_campaign_get(
        user=user, event_id=event_id, permission=Permission.RECONCILE_CASH, denied=reconcile_denied()
    )
    if event.state == EventState.SCHEDULED:
        raise ServiceError(_("This event has not been opened yet: there is no cash to count."), code="event_not_open")
    CashReconciliation.objects.get_or_create(event=event)
    reconciliation = (
        CashReconciliation.objects.select_for_update(of=("self",)).select_related("signed_off_by").get(event=event)
    )
    reconciliation.event = event
    return reconciliation


def _signed_off_refusal(reconciliation: CashReconciliation) -> ServiceError:
    assert reconciliation.signed_off_at is not None
    by = reconciliation.signed_off_by.display_name if reconciliation.signed_off_by else _("a treasurer")
    return ServiceError(
        _(
            "The cash count was signed off by %(name)s on %(date)s and cannot change: withdraw the "
            "sign-off first (it will then need a new sign-off)."
        )
        % {"name": by, "date": timezone.localtime(reconciliation.signed_off_at).strftime("%d/%m/%Y %H:%M")},
        code="signed_off",
    )


def cash_count_record(*, user: User, event_id: int, usher_key: str, counted: int, note: str) -> CashReckoning:
    """The cash ``usher_key`` handed in at ``event_id``, as counted (whole KES) with an optional note,
    entered or corrected by an owner, treasurer or admin until the count is signed off. ``usher_key``
    is someone who recorded at the event's desk or a volunteer it issued a passcode to. Audited with
    what the desk had recorded then; the same count again changes nothing. Answers the whole count."""
    note = " ".join(note.split())
    with transaction.atomic():
        reconciliation = _reconciliation_locked(user=user, event_id=event_id)
        event = reconciliation.event
        if reconciliation.signed_off:
            raise _signed_off_refusal(reconciliation)
        recorded = cash_recorded_by_usher(event=event)
        name = recorded[usher_key].name if usher_key in recorded else _passcode_volunteer(event, usher_key)
        count = CashCount.objects.filter(reconciliation=reconciliation, usher_key=usher_key).first()
        before = {"counted": count.counted, "note": count.note} if count is not None else {}
        if before != {"counted": counted, "note": note}:
            if count is None:
                count = CashCount(reconciliation=reconciliation, usher_key=usher_key)
            count.usher_name = name[:150]
            count.counted, count.note, count.counted_by, count.counted_at = counted, note, user, timezone.now()
            count.save()
            figures = recorded.get(usher_key)
            audit_record(
                actor=user,
                action=AuditAction.CASH_COUNTED,
                target=count,
                before=before,
                after={
                    "event": event.pk,
                    "usher": name,
                    "counted": counted,
                    "note": note,
                    "recorded": figures.total if figures else 0,
                },
            )
    return cash_reckoning_of(event=event, user=user)


def _passcode_volunteer(event: Event, usher_key: str) -> str:
    """The volunteer of ``usher_key`` if it names one of ``event``'s passcodes: someone who recorded
    nothing may still have handed in cash (a phone that died before it could send)."""
    kind, _separator, number = usher_key.partition("-")
    passcode = (
        DeskPasscode.objects.filter(event=event, pk=int(number)).first()
        if kind == "passcode" and number.isdigit()
        else None
    )
    if passcode is None:
        raise NotFoundError(_("No one recorded at this event's desk under that key."), code="not_found")
    return passcode.volunteer


def cash_reconciliation_sign_off(*, user: User, event_id: int) -> CashReckoning:
    """An owner, treasurer or admin signs the event's cash count off, once the event has closed, every
    usher who recorded cash has been counted and every difference explained in a note. The counts are
    frozen beside the figures the desk had recorded at that moment: what a desk delivers later is
    shown apart (``cash_reckoning_of``). Audited with every usher's figures."""
    with transaction.atomic():
        reconciliation = _reconciliation_locked(user=user, event_id=event_id)
        event = reconciliation.event
        if reconciliation.signed_off:
            raise _signed_off_refusal(reconciliation)
        if event.state != EventState.CLOSED:
            raise ServiceError(
                _("Sign the count off once the event has closed: until then more cash may come in."),
                code="event_not_closed",
            )
        reckoning = cash_reckoning_of(event=event, user=user)
        if reckoning.uncounted:
            names = ", ".join(usher.name for usher in reckoning.uncounted)
            raise ServiceError(
                _("Count every usher's cash before signing off. Not counted yet: %(names)s.") % {"names": names},
                code="uncounted",
            )
        unexplained = [
            usher for usher in reckoning.ushers if usher.count is not None and usher.difference and not usher.count.note
        ]
        if unexplained:
            names = ", ".join(usher.name for usher in unexplained)
            raise ServiceError(
                _("Explain each short or over count in its note before signing off: %(names)s.") % {"names": names},
                code="difference_unexplained",
            )
        for usher in reckoning.ushers:
            if usher.count is not None:
                usher.count.signed_recorded_count = usher.recorded_count
                usher.count.signed_recorded_total = usher.recorded_total
                usher.count.save(update_fields=["signed_recorded_count", "signed_recorded_total"])
        reconciliation.signed_off_by, reconciliation.signed_off_at = user, timezone.now()
        reconciliation.save(update_fields=["signed_off_by", "signed_off_at"])
        audit_record(
            actor=user,
            action=AuditAction.CASH_SIGNED_OFF,
            target=reconciliation,
            after={
                "recorded": reckoning.recorded_total,
                "counted": reckoning.counted_total,
                "difference": reckoning.difference,
                "ushers": [
                    {
                        "usher": usher.name,
                        "recorded": usher.recorded_total,
                        "entries": usher.recorded_count,
                        "counted": usher.count.counted if usher.count is not None else None,
                        "note": usher.count.note if usher.count is not None else "",
                    }
                    for usher in reckoning.ushers
                ],
            },
        )
    return cash_reckoning_of(event=event, user=user)


def cash_reconciliation_reopen(*, user: User, event_id: int, reason: str) -> CashReckoning:
    """Withdraw the sign-off of the event's cash count, with a reason (owners, treasurers, admins):
    the counts may be corrected again, against the desk's figures as of now (late deliveries
    included), and the count needs a new sign-off. Audited with the figures that were signed."""
    reason = " ".join(reason.split())
    if not reason:
        message = _("Say why the sign-off is withdrawn: it goes in the audit log.")
        raise FieldValidationError(message, field_errors={"reason": message})
    with transaction.atomic():
        reconciliation = _reconciliation_locked(user=user, event_id=event_id)
        event = reconciliation.event
        if not reconciliation.signed_off:
            raise ServiceError(_("The cash count is not signed off."), code="not_signed_off")
        signed = cash_reckoning_of(event=event, user=user)
        audit_record(
            actor=user,
            action=AuditAction.CASH_SIGN_OFF_WITHDRAWN,
            target=reconciliation,
            before={
                "signed_off_by": reconciliation.signed_off_by_id,
                "signed_off_at": reconciliation.signed_off_at,
                "recorded": signed.recorded_total,
                "counted": signed.counted_total,
                "late": signed.late_total,
            },
            after={"reason": reason},
        )
        CashCount.objects.filter(reconciliation=reconciliation).update(
            signed_recorded_count=None, signed_recorded_total=None
        )
        reconciliation.signed_off_by = reconciliation.signed_off_at = None
        reconciliation.reopened_by, reconciliation.reopened_at, reconciliation.reopen_reason = (
            user,
            timezone.now(),
            reason[:300],
        )
        reconciliation.save(
            update_fields=["signed_off_by", "signed_off_at", "reopened_by", "reopened_at", "reopen_reason"]
        )
    return cash_reckoning_of(event=event, user=user)


def desk_personal_data_erase(*, user: User) -> None:
    """Forget the name a deleted account typed its desk entries under (``privacy``); the entries,
    their amounts and what they recorded stay, so the night's figures still add up."""
    DeskEntry.objects.filter(usher=user).update(usher_name=DELETED_USER_NAME)


@dataclass(frozen=True)
class ThanksSent(ThanksQueued):
    no_contact: int  # gifts with neither a number nor an e-mail address (a cash envelope)


def _thanks_text_refusal(text: str) -> str | None:
    """Why ``text`` cannot be the thank-you message (empty, or longer than one SMS: ``sms_length``)."""
    if not text:
        return _("Write the message: it goes to the givers as one SMS.")
    length = sms_length(text)
    if length.fits_one_sms:
        return None
    if length.encoding == "ucs2":
        return _(
            "The message is %(over)d characters too long for one SMS: with %(characters)s, which the SMS "
            "alphabet lacks, one SMS holds %(limit)d characters."
        ) % {"over": -length.remaining, "characters": " ".join(length.outside_alphabet), "limit": length.limit}
    return _("The message is %(over)d characters too long for one SMS (%(limit)d at most).") % {
        "over": -length.remaining,
        "limit": length.limit,
    }


def event_thanks_send(*, user: User, event_id: int, text: str) -> ThanksSent:
    """Thank everyone who pledged or gave during the closed event (the night's report's entries)
    with ``text`` (one SMS long), each giver once however many pledges they made: by SMS to their
    number, or by e-mail where they gave none. Sending again reaches only those not thanked yet
    (an entry a desk delivered late). Owners, treasurers and admins (``MANAGE_PLEDGES``). Opt-outs,
    limits and quiet hours: ``notifications.event_thanks``."""
    event = event_report_event_get(user=user, event_id=event_id, permission=Permission.MANAGE_PLEDGES)
    if event.state != EventState.CLOSED:
        raise ServiceError(_("Thank the givers once the event is closed."), code="event_not_closed")
    text = text.strip()
    if message := _thanks_text_refusal(text):
        raise FieldValidationError(message, field_errors={"text": message})
    recipients: dict[str, ThanksRecipient] = {}
    no_contact = 0
    for line in event_report_get(event=event).entries:
        if line.phone:
            contact, channel = line.phone, NotificationLog.Channel.SMS
        elif line.email:
            contact, channel = line.email.lower(), NotificationLog.Channel.EMAIL
        else:
            no_contact += 1
            continue
        recipients.setdefault(contact, ThanksRecipient(contact=contact, channel=channel, language=line.language))
    queued = event_thanks_queue(event=event, user=user, text=text, recipients=list(recipients.values()))
    return ThanksSent(**asdict(queued), no_contact=no_contact)
