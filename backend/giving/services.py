"""Sending an organization's givers their statements of the year, and the signed links those
statements are opened by without signing in."""

import time
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.http import base36_to_int, int_to_base36
from django.utils.translation import gettext as _

from accounts.models import User
from audit.models import AuditAction
from audit.services import audit_record
from common.errors import FieldValidationError, NotFoundError, RateLimitedError
from giving import tasks
from giving.models import StatementDelivery, StatementRun, StatementRunStatus
from giving.selectors import Giver, organization_givers, statement_sender
from giving.statement_pdf import statement_pdf
from notifications.messages import giving_statement_queue
from notifications.tasks import deliver_notification
from organizations.models import Organization
from organizations.team_messages import team_message_allowed

# A statement link (in the SMS) opens the statement without signing in for this long.
LINK_MAX_AGE = timedelta(days=30)
LINK_SALT = "giving.statement-link"
# How many hex characters of the giver's digest and of the MAC a link carries: 48 and 80 bits, short
# enough for the link to fit one SMS with its words.
LINK_DIGEST_LENGTH = 12
LINK_MAC_LENGTH = 20
# The run's progress is saved after every this many givers.
PROGRESS_EVERY = 25


def _link_mac(value: str) -> str:
    return salted_hmac(LINK_SALT, value, algorithm="sha256").hexdigest()[:LINK_MAC_LENGTH]


def statement_link(*, organization_id: int, year: int, digest: str) -> str:
    """The signed address of one giver's statement from one organization for one year, short enough for
    one SMS: the organization, year, the giver's digest and the time it was made, and a MAC of them."""
    value = f"{organization_id}.{year}.{digest[:LINK_DIGEST_LENGTH]}.{int_to_base36(int(time.time()))}"
    return f"{settings.SITE_URL}/api/giving/s/{value}.{_link_mac(value)}"


def statement_link_read(*, token: str) -> tuple[int, int, str]:
    """The organization, year and giver digest a link names; 404 for a forged or expired one."""
    value, _dot, mac = token.rpartition(".")
    try:
        organization_id, year, digest, made = value.split(".")
        valid = constant_time_compare(mac, _link_mac(value))
        fresh = time.time() - base36_to_int(made) <= LINK_MAX_AGE.total_seconds()
        if valid and fresh:
            return int(organization_id), int(year), digest
    except ValueError:
        pass
    raise NotFoundError(_("This statement link has expired or is not valid."), code="link_invalid")


def year_checked(year: int) -> int:
    if not 2000 <= year <= timezone.localdate().year:
        raise FieldValidationError(
            _("Please correct the errors below"), field_errors={"year": _("Please choose a past or this year.")}
        )
    return year


def statement_run_start(*, user: User, organization_id: int, year: int) -> StatementRun:
    """Start sending every giver of ``year`` their statement (a background job, ``statement_run_process``).
    One run is one action against the member's team message limits (organizations/team_messages.py);
    each message is also within its recipient's limits. Audited."""
    membership = statement_sender(user=user, organization_id=organization_id)
    year_checked(year)
    if not team_message_allowed(organization_id=organization_id, member_id=user.pk):
        raise RateLimitedError(_("Too many messages sent by you for this organization: please try again later."))
    with transaction.atomic():
        run = StatementRun.objects.create(organization=membership.organization, year=year, requested_by=user)
        audit_record(
            actor=user,
            action=AuditAction.STATEMENTS_SENT,
            target=membership.organization,
            after={"year": year, "run": run.pk},
        )
        transaction.on_commit(lambda: tasks.process_statement_run.enqueue(run_id=run.pk))
    return run


def _deliver(*, run: StatementRun, organization: Organization, giver: Giver) -> StatementDelivery | None:
    """Send one giver theirs, once: the delivery row and its messages commit together, and a second
    row for the same run and giver is refused by the unique constraint (None: already sent)."""
    pdf = statement_pdf(
        statement=giver.statement(organization=organization, year=run.year), language=giver.language or "en"
    )
    link = statement_link(organization_id=organization.pk, year=run.year, digest=giver.digest)
    try:
        with transaction.atomic():
            delivery = StatementDelivery.objects.create(
                run=run, giver_digest=giver.digest, emailed=bool(giver.email), texted=bool(giver.phone)
            )
            logs = giving_statement_queue(
                email=giver.email,
                phone=giver.phone,
                name=giver.name,
                organization_name=organization.name,
                year=run.year,
                total=giver.total,
                link=link,
                pdf=pdf,
                language=giver.language,
            )
            for log in logs:
                transaction.on_commit(partial(deliver_notification.enqueue, log_id=log.pk))
    except IntegrityError:
        return None
    return delivery


def statement_run_process(*, run_id: int) -> StatementRun:
    """Send each giver of the run's year their statement, saving progress as it goes. Run again (a
    retried job) it skips the givers already served: each giver gets theirs once per run."""
    run = StatementRun.objects.select_related("organization").get(pk=run_id)
    if run.status == StatementRunStatus.DONE:
        return run
    organization = run.organization
    givers = organization_givers(organization=organization, year=run.year)
    reachable = [giver for giver in givers if giver.email or giver.phone]
    served = set(StatementDelivery.objects.filter(run=run).values_list("giver_digest", flat=True))
    run.status = StatementRunStatus.RUNNING
    run.giver_count = len(givers)
    run.unreachable_count = len(givers) - len(reachable)
    run.processed_count = run.unreachable_count + len(served)
    run.save(update_fields=["status", "giver_count", "unreachable_count", "processed_count"])
    for giver in reachable:
        if giver.digest in served:
            continue
        _deliver(run=run, organization=organization, giver=giver)
        served.add(giver.digest)
        run.processed_count += 1
        if run.processed_count % PROGRESS_EVERY == 0:
            StatementRun.objects.filter(pk=run.pk).update(processed_count=run.processed_count)
    counts = StatementDelivery.objects.filter(run=run).aggregate(
        emailed=Count("pk", filter=Q(emailed=True)), texted=Count("pk", filter=Q(texted=True))
    )
    run.emailed_count, run.texted_count = counts["emailed"], counts["texted"]
    run.processed_count = run.giver_count
    run.status = StatementRunStatus.DONE
    run.finished_at = timezone.now()
    run.save(update_fields=["emailed_count", "texted_count", "processed_count", "status", "finished_at"])
    return run
