"""Writes of the ushers' desk: entries (pledge cards, cash and M-Pesa gifts) and desk passcodes.

An entry goes through the same services as the web: a pledge through ``pledges.services`` (its
pledger gets the usual SMS with the code and how to pay), a gift as a donation counted at once
(``donation_record_at_desk``: one M-Pesa receipt, one credit). Each is recorded once per
idempotency key (models.py).
"""

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from campaigns.selectors import campaign_get, campaign_permission_check
from common import ratelimit
from common.errors import FieldValidationError, NotFoundError, PermissionDeniedError, ServiceError
from desk.actors import DeskActor
from desk.models import DeskEntry, DeskEntryKind, DeskPasscode, passcode_draw, passcode_hash
from events.models import Event, EventState
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
    this event only, until its close. Answers the row and the code, shown once."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFoundError(_("Event not found"), code="not_found")
    try:
        campaign = campaign_get(campaign_id=event.campaign_id, user=user)
    except NotFoundError:
        raise NotFoundError(_("Event not found"), code="not_found") from None
    campaign_permission_check(
        campaign=campaign,
        user=user,
        permission=Permission.RUN_EVENTS,
        denied=_("Only the campaign's owners, or an admin, can issue desk passcodes."),
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
    window ends, or a 200 would tell a guesser the right one."""
    ratelimit.refuse_if_limited(
        scope="desk-passcode",
        identifiers=[client_ip],
        limit=settings.RATE_LIMIT_DESK_PASSCODE,
        message=_("Too many passcodes tried. Please wait a while and try again."),
    )
    passcode = DeskPasscode.objects.select_related("event").filter(code_hash=passcode_hash(code)).first()
    if passcode is None or passcode.expired:
        ratelimit.record_attempt(
            scope="desk-passcode", identifiers=[client_ip], window_seconds=settings.RATE_LIMIT_DESK_PASSCODE[1]
        )
        message = _("This passcode does not work: check it with the event's owner.")
        raise FieldValidationError(message, field_errors={"passcode": message})
    return passcode


def desk_personal_data_erase(*, user: User) -> None:
    """Forget the name a deleted account typed its desk entries under (``privacy``); the entries,
    their amounts and what they recorded stay, so the night's figures still add up."""
    DeskEntry.objects.filter(usher=user).update(usher_name=DELETED_USER_NAME)
