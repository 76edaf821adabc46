"""A backup restored into a fresh database holds every row of every table, identical.

The SQLite round trip always runs, in databases of its own (temporary files); the PostgreSQL one
when the tests run on PostgreSQL (DATABASE_URL), from the test database into a new one.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connections
from django.utils import timezone

from accounts.models import User
from campaigns.models import Campaign, CampaignStatus
from organizations.models import Membership, Organization
from payments.models import Payment
from pledges.models import Donation, Pledge, PledgePayment

ON_POSTGRESQL = connections["default"].vendor == "postgresql"
KEY_TABLES = ("accounts_user", "campaigns_campaign", "pledges_pledge", "payments_payment", "pledges_donation")


@contextmanager
def database(alias: str, **overrides: Any) -> Iterator[str]:
    """A database alias for the length of a test: the test database's settings with ``overrides``.

    Its connection is registered as a dynamically created one (not in ``connections.settings``),
    which Django's test isolation allows next to the test database.
    """
    connections.settings[alias] = {**connections.settings["default"], **overrides}
    connection = connections.create_connection(alias)
    del connections.settings[alias]
    connections[alias] = connection
    try:
        yield alias
    finally:
        connection.close()
        del connections[alias]


def sqlite_database(path: Path, alias: str) -> Any:
    return database(alias, ENGINE="django.db.backends.sqlite3", NAME=str(path), OPTIONS={}, HOST="", PORT="", USER="")


def make_data(alias: str) -> None:
    """Users, campaigns, pledges, donations and payments, with the kinds of values that go wrong
    in a copy: non-ASCII text, JSON, dates, times, empty and null values."""
    users = User.objects.db_manager(alias)
    organizer = users.create_user("wanjiru@example.com", "Harambee#2026", first_name="Wanjiru", last_name="Kamau")
    users.create_user("admin@example.com", "Harambee#2026", is_staff=True, is_superuser=True)
    church = Organization.objects.using(alias).create(name="Kanisa la Ruiru", kind="church", town="Ruiru")
    Membership.objects.using(alias).create(organization=church, user=organizer, role="owner")
    campaign = Campaign.objects.using(alias).create(
        organizer=organizer,
        organization=church,
        status=CampaignStatus.ACTIVE,
        title="Paa la kanisa — ujenzi ✓",
        description="A roof before the long rains.",
        story="Tunaomba msaada wenu.\nAsanteni!",
        category="church",
        goal=500_000,
        end_date=timezone.localdate() + timedelta(days=30),
        payment_options=[{"method": "paybill", "details": {"paybill_number": "174379", "account_number": "ROOF"}}],
        pledged_total=15_000,
        raised_total=6_000,
        donor_count=2,
    )
    Campaign.objects.using(alias).create(
        organizer=organizer,
        organization=church,
        title="Youth camp",
        description="d",
        story="s",
        category="youth",
        goal=1,
        end_date=timezone.localdate(),
    )
    pledge = Pledge.objects.using(alias).create(
        campaign=campaign, name="Njeri Wanjiru", email="njeri@example.com", phone="+254711000222", amount=15_000
    )
    for index, (provider, purpose, amount) in enumerate(
        [
            (Payment.Provider.MPESA_C2B, Payment.Purpose.PLEDGE_PAYMENT, 5_000),
            (Payment.Provider.CASH, Payment.Purpose.DONATION, 1_000),
        ]
    ):
        payment = Payment.objects.using(alias).create(
            provider=provider, purpose=purpose, amount=amount, campaign=campaign, mpesa_receipt=f"SLK00000{index}"
        )
        payment.issue_receipt(at=timezone.now())
        payment.save(using=alias)
        if purpose == Payment.Purpose.PLEDGE_PAYMENT:
            PledgePayment.objects.using(alias).create(pledge=pledge, payment=payment)
        else:
            Donation.objects.using(alias).create(
                campaign=campaign, payment=payment, amount=amount, counted_at=timezone.now()
            )
    Payment.objects.using(alias).create(
        provider=Payment.Provider.MPESA_STK, purpose=Payment.Purpose.DONATION, amount=250, checkout_request_id="ws_CO_1"
    )


def snapshot(alias: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in a stable order."""
    connection = connections[alias]
    with connection.cursor() as cursor:
        rows = {}
        for table in sorted(connection.introspection.table_names(cursor)):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")  # noqa: S608 - our own table names
            rows[table] = sorted(cursor.fetchall(), key=repr)
    return rows


def assert_identical(original: dict[str, list[tuple[Any, ...]]], restored: dict[str, list[tuple[Any, ...]]]) -> None:
    assert all(original[table] for table in KEY_TABLES)
    assert list(restored) == list(original)
    for table, rows in original.items():
        assert restored[table] == rows, table


@pytest.mark.slow  # migrates a fresh database
@pytest.mark.django_db(transaction=True)
def test_a_sqlite_backup_restores_into_a_fresh_database_with_every_row_identical(tmp_path):
    with sqlite_database(tmp_path / "live.sqlite3", "backup_source") as source:
        call_command("migrate", database=source, verbosity=0)
        make_data(source)
        call_command("backup_create", str(tmp_path / "backup.sqlite3"), database=source, stdout=None)
        original = snapshot(source)

    with sqlite_database(tmp_path / "fresh.sqlite3", "backup_restored") as fresh:
        assert snapshot(fresh) == {}
        call_command("backup_restore", str(tmp_path / "backup.sqlite3"), database=fresh, interactive=False)
        assert_identical(original, snapshot(fresh))


@pytest.mark.skipif(not ON_POSTGRESQL, reason="the tests run on SQLite (set DATABASE_URL to a PostgreSQL database)")
@pytest.mark.django_db(transaction=True)
def test_a_postgresql_backup_restores_into_a_fresh_database_with_every_row_identical(tmp_path):
    make_data("default")
    call_command("backup_create", str(tmp_path / "backup.dump"))
    original = snapshot("default")
    fresh_name = f"{connections['default'].settings_dict['NAME']}_restore"
    with connections["default"].cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{fresh_name}"')
        cursor.execute(f'CREATE DATABASE "{fresh_name}"')
    try:
        with database("backup_restored", NAME=fresh_name) as fresh:
            assert snapshot(fresh) == {}
            call_command("backup_restore", str(tmp_path / "backup.dump"), database=fresh, interactive=False)
            assert_identical(original, snapshot(fresh))
    finally:
        with connections["default"].cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{fresh_name}"')


@pytest.mark.django_db(transaction=True)
def test_a_restore_refuses_a_file_that_is_not_a_backup_of_this_kind_of_database(tmp_path):
    not_a_backup = tmp_path / "notes.txt"
    not_a_backup.write_text("hello")

    with sqlite_database(tmp_path / "fresh.sqlite3", "backup_restored") as fresh:
        with pytest.raises(CommandError, match="is not a sqlite backup"):
            call_command("backup_restore", str(not_a_backup), database=fresh, interactive=False)
        with pytest.raises(CommandError, match="No backup at"):
            call_command("backup_restore", str(tmp_path / "missing.sqlite3"), database=fresh, interactive=False)
        assert snapshot(fresh) == {}
