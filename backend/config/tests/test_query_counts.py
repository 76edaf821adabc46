"""Every read of the API runs the same number of queries for 1 row as for 50 (issue #10).

One world of data is built with 1 of everything (campaigns of one organizer, pledges, payments
towards one pledge, unmatched payments, donations, likes, drafts, grants), every GET operation of
the OpenAPI schema is called once and its queries counted; then a second world with 50 of
everything, and the same calls again. Each operation needs a case in ``CASES`` (who asks, and the
path in that world), so a new endpoint without one fails ``test_every_read_has_a_query_count_case``.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.tests.factories import UserFactory
from campaigns.models import Campaign, Draft, DraftToolType
from campaigns.tests.factories import CampaignFactory, CampaignLikeFactory
from campaigns.tests.wizard_support import image_bytes
from champions.models import Champion
from champions.services import champion_create
from collection_accounts.models import CollectionAccountKind
from collection_accounts.tests.factories import CollectionAccountFactory
from config.api import api
from desk.models import CashCount, CashReconciliation, DeskEntry, DeskPasscode
from events.models import Event, HiddenEntry
from events.tests.factories import open_event
from giving.models import StatementRun
from giving.selectors import organization_givers
from giving.services import statement_link
from grants.tests.factories import GrantApplicationFactory, GrantFactory, OrganizationProfileFactory, subscribe
from notifications.selectors import opt_out_token
from organizations.models import ChangeRequest, EmbedOrigin, Invitation, Membership
from organizations.roles import Role
from payments.models import AirtelConnection, MpesaConnection, Payment
from pledges.models import Donation, Pledge
from pledges.tests.factories import make_pledge, paid_donation
from pledges.tests.test_management import pay_bill, typo
from simulators.statements import Line, statement_csv
from spending.models import SpendingRecord
from spending.receipts import receipt_store
from spending.services import spending_approve, spending_record, spending_reverse
from statements.models import StatementImport
from statements.services import statement_import_upload

pytestmark = pytest.mark.django_db

ROWS = (1, 50)


@dataclass
class World:
    organizer: User
    admin: User
    campaign: Campaign
    pledge: Pledge  # with ``rows`` payments
    payment: Payment


def build_world(rows: int, tag: str) -> World:
    organizer = UserFactory.create()
    admin = UserFactory.create(is_staff=True, is_superuser=True)
    subscribe(organizer)
    OrganizationProfileFactory.create(user=organizer)
    # The newest campaign with the ministry title is the one /api/ministry-campaign shows.
    # Paid into its church's connected paybill (a different one in each world).
    paybill = f"60{tag}100"
    campaign = CampaignFactory.create(organizer=organizer, title=settings.MINISTRY_CAMPAIGN_TITLE, paybill=paybill)
    CampaignFactory.create_batch(rows - 1, organizer=organizer)
    CampaignLikeFactory.create_batch(rows, campaign=campaign)
    for member in UserFactory.create_batch(rows):  # the organization's team, each asked to be raised
        membership = Membership.objects.create(organization=campaign.organization, user=member, role=Role.VIEWER)
        ChangeRequest.objects.create(
            organization=campaign.organization,
            kind="team.role_change",
            payload={"membership_id": membership.pk, "name": member.full_name, "role": "treasurer", "was": "viewer"},
            summary="",
            requested_by=organizer,
        )
        Invitation.objects.create(
            organization=campaign.organization,
            role=Role.USHER,
            email=member.email,
            token_hash=Invitation.hash_token(f"{campaign.organization_id}-{member.pk}"),
            invited_by=organizer,
        )
        EmbedOrigin.objects.create(organization=campaign.organization, origin=f"https://site-{member.pk}.example")
    CollectionAccountFactory.create_batch(rows, organization=campaign.organization, is_default=False)
    pledges = [make_pledge(campaign, name=f"Pledger {tag}{i}", phone=f"0711{tag}{i:05d}") for i in range(rows)]
    pledge = pledges[0]
    for i in range(rows):
        pay_bill(pledge.code, 10, f"SL{tag}P{i:06d}", shortcode=paybill)  # towards one pledge: its payments
        pay_bill(typo(pledge.code), 10, f"SL{tag}U{i:06d}", shortcode=paybill)  # unmatched, one typo away
        paid_donation(campaign, name=f"Donor {tag}{i}", amount=100)
        Draft.objects.create(user=organizer, tool_type=DraftToolType.PLEDGING, step_data={"title": f"Draft {i}"})
        GrantApplicationFactory.create(user=organizer, grant=GrantFactory.create())
    champions = [  # the first with as many paybill gifts through it
        champion_create(
            campaign_id=campaign.pk,
            user=organizer,
            goal=10_000,
            name=f"Champion {tag}{i}",
            phone=f"0712{tag}{i:05d}",
            for_someone_else=True,
        )
        for i in range(rows)
    ]
    for i in range(rows):
        pay_bill(champions[0].code, 10, f"SL{tag}C{i:06d}", shortcode=paybill)
    spending_lines(campaign, rows)
    return World(
        organizer=organizer,
        admin=admin,
        campaign=campaign,
        pledge=pledge,
        payment=Payment.objects.filter(pledge_link__pledge=pledge).first(),  # type: ignore[arg-type]
    )


def champion_path(world: World) -> str:
    """The first champion of the campaign: as many gifts through it as the world has rows."""
    first = Champion.objects.filter(campaign=world.campaign).order_by("pk").first()
    assert first is not None
    return f"/api/campaigns/{world.campaign.pk}/champions/{first.code}"


def own_champion_path(world: World) -> str:
    """The organizer becomes a champion of their own campaign too (the others they named)."""
    champion_create(campaign_id=world.campaign.pk, user=world.organizer, goal=10_000)
    return f"/api/campaigns/{world.campaign.pk}/my-champion"


def spending_lines(campaign: Campaign, rows: int) -> None:
    """``rows`` spending lines (every second one a private person's, each with a published receipt)
    recorded by a treasurer and approved by the owner; one more reversed, one waiting."""
    treasurer = UserFactory.create()
    Membership.objects.create(organization=campaign.organization, user=treasurer, role=Role.TREASURER)
    lines = []
    for i in range(rows + 2):
        receipt = receipt_store(file=SimpleUploadedFile("r.png", image_bytes(), content_type="image/png"))
        lines.append(
            spending_record(
                user=treasurer,
                campaign_id=campaign.pk,
                spent_on=timezone.localdate() - timedelta(days=i % 5),
                payee=f"Payee {i}",
                payee_kind="person" if i % 2 else "organization",
                category=["materials", "labour", "transport"][i % 3],
                amount=100 + i,
                receipt=receipt,
                publish_receipt=True,
            )
        )
    for line in lines[:-1]:
        spending_approve(user=campaign.organizer, record_id=line.pk)
    spending_reverse(user=campaign.organizer, record_id=lines[-2].pk, reason="Twice")


def spending_receipt_path(world: World) -> str:
    line = SpendingRecord.objects.counted().filter(campaign=world.campaign).first()
    assert line is not None
    return f"/api/spending/{line.pk}/receipt"


def an_invitation_token(world: World) -> str:
    invitation = Invitation.objects.filter(organization_id=world.campaign.organization_id).first()
    assert invitation is not None and invitation.email
    member = User.objects.get(email=invitation.email)
    return f"{world.campaign.organization_id}-{member.pk}"


Case = tuple[str, Callable[[World], str]]  # who asks ("visitor", "organizer", "admin"), the path
CASES: dict[str, Case] = {
    "accounts_api_session": ("organizer", lambda w: "/api/auth/session"),
    "accounts_api_profile": ("organizer", lambda w: "/api/profile"),
    "pledges_api_my_pledges": ("organizer", lambda w: "/api/my-pledges"),
    "privacy_api_profile_export": ("organizer", lambda w: "/api/profile/export"),
    "accounts_api_privacy_contact": ("visitor", lambda w: "/api/privacy-contact"),
    "ussd_api_ussd_info": ("visitor", lambda w: "/api/ussd"),
    "common_api_challenge": ("visitor", lambda w: "/api/challenge"),
    "analytics_api_campaign_analytics": ("organizer", lambda w: f"/api/campaigns/{w.campaign.pk}/analytics"),
    "analytics_api_campaign_analytics_export": (
        "organizer",
        lambda w: f"/api/campaigns/{w.campaign.pk}/analytics.csv",
    ),
    "campaigns_api_campaign_categories": ("visitor", lambda w: "/api/campaign-categories"),
    "campaigns_api_success_stories": ("visitor", lambda w: "/api/success-stories"),
    "campaigns_api_campaign_list": ("admin", lambda w: "/api/campaigns?page_size=50"),
    "campaigns_api_campaign_detail": ("admin", lambda w: f"/api/campaigns/{w.campaign.pk}"),
    "campaigns_api_campaign_qr": ("visitor", lambda w: f"/api/campaigns/{w.campaign.pk}/qr.svg"),
    "champions_api_leaderboards": ("visitor", lambda w: f"/api/campaigns/{w.campaign.pk}/champions"),
    "champions_api_champion_page": ("visitor", lambda w: champion_path(w)),
    "champions_api_champion_qr": ("visitor", lambda w: f"{champion_path(w)}/qr.svg"),
    "champions_api_champion_circle": ("organizer", lambda w: f"{champion_path(w)}/circle"),
    "champions_api_my_champion": ("organizer", lambda w: own_champion_path(w)),
    "champions_api_champion_roster": ("organizer", lambda w: f"/api/campaigns/{w.campaign.pk}/champion-roster"),
    "champions_api_cards_pdf": ("organizer", lambda w: f"/api/campaigns/{w.campaign.pk}/harambee-cards.pdf"),
    "campaigns_api_draft_list": ("organizer", lambda w: "/api/campaign-drafts?tool_type=pledging"),
    "config_dashboard_dashboard": ("organizer", lambda w: "/api/dashboard"),
    "grants_api_organization_profile": ("organizer", lambda w: "/api/organizations/profile"),
    "grants_api_grant_search": ("organizer", lambda w: "/api/grants"),
    "notifications_api_opt_out": ("visitor", lambda w: "/api/notifications/opt-out?token=" + opt_out_token(w.pledge)),
    "notifications_api_reminder_settings": (
        "organizer",
        lambda w: f"/api/campaigns/{w.campaign.pk}/reminder-settings",
    ),
    "payments_api_organization_payment_status": (
        "organizer",
        lambda w: "/api/organizations?" + urlencode({"action": "payment-status", "user_email": w.organizer.email}),
    ),
    "payments_api_fees": ("visitor", lambda w: "/api/fees"),
    "payments_api_payment_detail": ("visitor", lambda w: f"/api/payments/{w.payment.reference}"),
    "pledges_api_pledge_list": ("organizer", lambda w: f"/api/pledges?campaign_id={w.campaign.pk}&page_size=100"),
    "pledges_api_pledge_export": ("organizer", lambda w: f"/api/pledges/export.csv?campaign_id={w.campaign.pk}"),
    "pledges_api_pledge_by_code": ("visitor", lambda w: f"/api/pledges/{w.pledge.code}"),
    "pledges_api_pledge_payment_list": ("organizer", lambda w: f"/api/pledges/{w.pledge.pk}/payments"),
    "pledges_api_pledge_history": ("organizer", lambda w: f"/api/pledges/{w.pledge.pk}/history"),
    "pledges_api_pledge_summary": ("organizer", lambda w: f"/api/campaigns/{w.campaign.pk}/pledge-summary"),
    "pledges_api_unmatched_payment_list": (
        "organizer",
        lambda w: f"/api/campaigns/{w.campaign.pk}/unmatched-payments?page_size=100",
    ),
    "pledges_api_donation_list": ("visitor", lambda w: f"/api/donations?campaign_id={w.campaign.pk}&page_size=100"),
    "pledges_api_donation_export": ("organizer", lambda w: f"/api/donations/export.csv?campaign_id={w.campaign.pk}"),
    "pledges_api_ministry_campaign": ("visitor", lambda w: "/api/ministry-campaign"),
    "organizations_api_organization_list": ("organizer", lambda w: "/api/orgs"),
    "organizations_api_organization_get": ("organizer", lambda w: f"/api/orgs/{w.campaign.organization_id}"),
    "organizations_api_team_list": ("organizer", lambda w: f"/api/orgs/{w.campaign.organization_id}/members"),
    "collection_accounts_api_account_keywords_get": (
        "organizer",
        lambda w: f"/api/orgs/{w.campaign.organization_id}/account-keywords",
    ),
    "organizations_api_change_request_list": (
        "organizer",
        lambda w: f"/api/orgs/{w.campaign.organization_id}/approvals",
    ),
    "organizations_api_invitation_list": (
        "organizer",
        lambda w: f"/api/orgs/{w.campaign.organization_id}/invitations",
    ),
    "organizations_api_embed_origin_list": (
        "organizer",
        lambda w: f"/api/orgs/{w.campaign.organization_id}/embed-origins",
    ),
    "organizations_api_invitation_preview": ("visitor", lambda w: f"/api/invitations?token={an_invitation_token(w)}"),
    "collection_accounts_api_collection_account_list": (
        "organizer",
        lambda w: f"/api/orgs/{w.campaign.organization_id}/collection-accounts",
    ),
    "payments_api_mpesa_connection_detail": ("organizer", lambda w: mpesa_connection_path(w)),
    "payments_airtel_api_airtel_connection_detail": ("organizer", lambda w: airtel_connection_path(w)),
    # A giver's own giving (the organizer gave too), their statement, and the organization's statements
    "giving_api_my_giving": ("organizer", lambda w: "/api/my-giving"),
    "giving_api_my_giving_statement": ("organizer", lambda w: f"/api/my-giving/statement.pdf?year={this_year()}"),
    "giving_api_statement_by_link": ("visitor", lambda w: statement_link_path(w)),
    "giving_api_statements_preview": ("organizer", lambda w: f"{statements_path(w)}/preview?year={this_year()}"),
    "giving_api_statements_sample": ("organizer", lambda w: f"{statements_path(w)}/sample.pdf?year={this_year()}"),
    "giving_api_statements_runs": ("organizer", lambda w: f"{statements_path(w)}/runs"),
    "giving_api_statements_run": ("organizer", lambda w: f"{statements_path(w)}/runs/{statement_run(w).pk}"),
    "campaigns_api_campaign_accounts_list": (
        "organizer",
        lambda w: f"/api/campaigns/{w.campaign.pk}/collection-accounts",
    ),
    "statements_api_statement_import_list": ("organizer", lambda w: statement_imports_path(w)),
    "statements_api_statement_import_detail": ("organizer", lambda w: statement_preview_path(w)),
    "events_api_event_list": ("organizer", lambda w: events_path(w)),
    "events_api_live_screen": ("visitor", lambda w: f"/api/campaigns/{w.campaign.pk}/live"),
    "events_api_live_hidden_list": ("organizer", lambda w: hidden_entries_path(w)),
    "desk_api_desk": ("organizer", lambda w: desk_path(w)),
    "desk_api_event_report": ("organizer", lambda w: event_report_path(w)),
    "desk_api_event_report_export": ("organizer", lambda w: event_report_path(w) + ".csv"),
    "desk_api_desk_passcode_list": ("organizer", lambda w: desk_passcodes_path(w)),
    "desk_api_cash_reconciliation": ("organizer", lambda w: cash_reconciliation_path(w)),
    "spending_api_accountability": ("visitor", lambda w: f"/api/campaigns/{w.campaign.pk}/accountability"),
    "spending_api_receipt": ("visitor", lambda w: spending_receipt_path(w)),
    "spending_api_spending_list": ("organizer", lambda w: f"/api/campaigns/{w.campaign.pk}/spending"),
    "spending_api_spending_report_csv": ("organizer", lambda w: f"/api/campaigns/{w.campaign.pk}/spending-report.csv"),
    "spending_api_spending_report_pdf": ("organizer", lambda w: f"/api/campaigns/{w.campaign.pk}/spending-report.pdf"),
}


def read_operations() -> set[str]:
    schema = api.get_openapi_schema()
    return {
        operation["operationId"]
        for path in schema["paths"].values()
        for method, operation in path.items()
        if method == "get"
    }


def mpesa_connection_path(world: World) -> str:
    """A connected paybill of the organization (made before the queries are counted)."""
    account = CollectionAccountFactory.create(organization=world.campaign.organization, is_default=False)
    MpesaConnection.objects.create(account=account, consumer_key="k", consumer_secret="s", passkey="p")
    return f"/api/orgs/{account.organization_id}/collection-accounts/{account.pk}/mpesa"


def airtel_connection_path(world: World) -> str:
    """An Airtel Money merchant account of the organization with its app's credentials."""
    account = CollectionAccountFactory.create(
        organization=world.campaign.organization,
        is_default=False,
        kind=CollectionAccountKind.AIRTEL_MONEY,
        merchant_msisdn=f"+2547330{world.campaign.pk:05d}",
    )
    AirtelConnection.objects.create(account=account, client_id="id", client_secret="secret")
    return f"/api/orgs/{account.organization_id}/collection-accounts/{account.pk}/airtel"


def this_year() -> int:
    return timezone.localdate().year


def statements_path(world: World) -> str:
    return f"/api/orgs/{world.campaign.organization_id}/giving-statements"


def statement_run(world: World) -> StatementRun:
    return StatementRun.objects.create(organization=world.campaign.organization, year=this_year())


def statement_link_path(world: World) -> str:
    """The link a giver of the world's organization got by SMS with this year's statement."""
    giver = organization_givers(organization=world.campaign.organization, year=this_year())[0]
    link = statement_link(organization_id=world.campaign.organization_id, year=this_year(), digest=giver.digest)
    return "/api/giving/s/" + link.rpartition("/")[2]


def _statement_uploaded(world: World) -> StatementImport:
    """A statement of as many payments to the pledge as it has (1 or 50), uploaded by the organizer."""
    account = CollectionAccountFactory.create(organization=world.campaign.organization, is_default=False)
    rows = Payment.objects.filter(pledge_link__pledge=world.pledge).count()
    moment = timezone.now() - timedelta(days=1)
    lines = [Line(f"ST{i:08d}", moment, 10, account_number=world.pledge.code) for i in range(rows)]
    return statement_import_upload(
        user=world.organizer,
        organization_id=account.organization_id,
        account_id=account.pk,
        file=SimpleUploadedFile("statement.csv", statement_csv(lines, shortcode=account.paybill_number)),
    )


def statement_preview_path(world: World) -> str:
    preview = _statement_uploaded(world)
    return f"/api/orgs/{preview.organization_id}/statement-imports/{preview.pk}"


def statement_imports_path(world: World) -> str:
    """As many confirmed imports as the pledge has payments (1 or 50); what they credited is not read."""
    account = CollectionAccountFactory.create(organization=world.campaign.organization, is_default=False)
    for _ in range(Payment.objects.filter(pledge_link__pledge=world.pledge).count()):
        StatementImport.objects.create(
            organization=world.campaign.organization,
            collection_account=account,
            status=StatementImport.Status.CONFIRMED,
            file_sha256="0" * 64,
            rows=[],
            summary={"matched": {"rows": 1, "total": 10}},
            uploaded_by=world.organizer,
            confirmed_by=world.organizer,
            confirmed_at=timezone.now(),
        )
    return f"/api/orgs/{world.campaign.organization_id}/statement-imports"


def events_path(world: World) -> str:
    """As many events of the campaign as the pledge has payments (1 or 50)."""
    starts_at = timezone.now() + timedelta(days=1)
    Event.objects.bulk_create(
        Event(
            campaign=world.campaign, title=f"Harambee {i}", starts_at=starts_at, ends_at=starts_at + timedelta(hours=3)
        )
        for i in range(Payment.objects.filter(pledge_link__pledge=world.pledge).count())
    )
    return f"/api/campaigns/{world.campaign.pk}/events"


def hidden_entries_path(world: World) -> str:
    """Every pledge and gift of the campaign (1 or 50 of each) hidden from its big screen."""
    HiddenEntry.objects.bulk_create(
        [
            HiddenEntry(campaign=world.campaign, pledge=pledge)
            for pledge in Pledge.objects.filter(campaign=world.campaign)
        ]
        + [
            HiddenEntry(campaign=world.campaign, donation=donation)
            for donation in Donation.objects.filter(campaign=world.campaign)
        ]
    )
    return f"/api/campaigns/{world.campaign.pk}/live/hidden"


def desk_path(world: World) -> str:
    """The organizer's desk at an open event of another campaign of theirs, with as many of their
    pledge cards as the pledge has payments (1 or 50)."""
    campaign = CampaignFactory.create(organizer=world.organizer)
    event = open_event(campaign)
    for i in range(Payment.objects.filter(pledge_link__pledge=world.pledge).count()):
        DeskEntry.objects.create(
            idempotency_key=f"desk-{campaign.pk}-{i}",
            event=event,
            kind="pledge",
            amount=1_000,
            usher=world.organizer,
            usher_name="Grace",
            pledge=make_pledge(campaign, amount=1_000),
        )
    return f"/api/campaigns/{campaign.pk}/desk"


def event_report_path(world: World) -> str:
    """The report of a closed event of the world's campaign: its pledges and gifts (1 or 50 of each)
    were all made during it, and as many pledge cards as the pledge has payments typed at its desk."""
    event = open_event(world.campaign)
    Event.objects.filter(pk=event.pk).update(opened_at=timezone.now() - timedelta(days=1))
    for i in range(_rows(world)):
        DeskEntry.objects.create(
            idempotency_key=f"report-{event.pk}-{i}",
            event=event,
            kind="pledge",
            amount=1_000,
            usher=world.organizer,
            usher_name=f"Usher {i}",
            pledge=make_pledge(
                world.campaign, amount=1_000, phone=f"0719{event.pk % 100:02d}{i:04d}", email=f"r{event.pk}-{i}@x.org"
            ),
        )
    Event.objects.filter(pk=event.pk).update(closed_at=timezone.now())
    return f"/api/events/{event.pk}/report"


def _rows(world: World) -> int:
    return Payment.objects.filter(pledge_link__pledge=world.pledge).count()


def desk_passcodes_path(world: World) -> str:
    """As many passcodes of an event as the pledge has payments (1 or 50), each with an entry."""
    event = open_event(CampaignFactory.create(organizer=world.organizer))
    for i in range(_rows(world)):
        passcode = DeskPasscode.objects.create(
            event=event, volunteer=f"Volunteer {i}", code_hash=f"{event.pk}-{i}", issued_by=world.organizer
        )
        DeskEntry.objects.create(
            idempotency_key=f"passcode-{event.pk}-{i}",
            event=event,
            kind="cash",
            amount=100,
            passcode=passcode,
            usher_name=passcode.volunteer,
        )
    return f"/api/events/{event.pk}/desk-passcodes"


def cash_reconciliation_path(world: World) -> str:
    """A signed-off cash count of as many ushers as the pledge has payments (1 or 50), each with a
    cash entry and a count, and a volunteer's passcode each."""
    event = open_event(CampaignFactory.create(organizer=world.organizer))
    reconciliation = CashReconciliation.objects.create(
        event=event, signed_off_by=world.organizer, signed_off_at=timezone.now()
    )
    for i, usher in enumerate(UserFactory.create_batch(_rows(world))):
        DeskEntry.objects.create(
            idempotency_key=f"cash-{event.pk}-{i}", event=event, kind="cash", amount=100, usher=usher, usher_name="U"
        )
        CashCount.objects.create(
            reconciliation=reconciliation,
            usher_key=f"user-{usher.pk}",
            usher_name="U",
            counted=100,
            counted_by=world.organizer,
            signed_recorded_count=1,
            signed_recorded_total=100,
        )
        DeskPasscode.objects.create(event=event, volunteer=f"Volunteer {i}", code_hash=f"cash-{event.pk}-{i}")
    return f"/api/events/{event.pk}/cash-reconciliation"


def test_every_read_has_a_query_count_case():
    missing = read_operations() - CASES.keys()

    assert not missing, f"Add a case to CASES for: {sorted(missing)}"


def count_queries(world: World) -> dict[str, int]:
    clients = {"visitor": Client()}
    for role in ("organizer", "admin"):
        clients[role] = Client()
        clients[role].force_login(getattr(world, role))
    counts = {}
    for operation_id, (role, path) in CASES.items():
        url = path(world)
        queries: list[str] = []

        def count(execute, sql, params, many, context, queries=queries):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            response = clients[role].get(url)
        assert response.status_code == 200, (operation_id, url, response.content[:300])
        counts[operation_id] = len(queries)
    return counts


def test_every_read_runs_as_many_queries_for_50_rows_as_for_1(settings):
    settings.RATE_LIMIT_PLEDGE = settings.RATE_LIMIT_GIVING_CONTACT = settings.RATE_LIMIT_GIVING_ACCOUNT = (1000, 600)
    settings.RATE_LIMIT_PLEDGE_LOOKUP = (1000, 600)
    counts = {rows: count_queries(build_world(rows, tag)) for rows, tag in zip(ROWS, "12", strict=True)}

    differing = {op: (counts[1][op], counts[50][op]) for op in CASES if counts[1][op] != counts[50][op]}
    assert not differing, f"queries for 1 row vs 50 rows: {differing}"
