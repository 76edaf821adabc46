"""The running totals: what the boards and pages read is what the ledger credited through each champion,
kept in the transaction that credits, reverses or changes it (``champions_totals_recount``)."""

from datetime import UTC, datetime

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings

from champions.models import Champion, HarambeeCard, Team
from champions.selectors import RecountedTotals, champions_totals_recounted, leaderboards, tonight_start
from champions.services import (
    CardGift,
    card_return_record,
    champion_update,
    team_create,
)
from champions.tests.support import a_choir_of_champions, a_web_pledge_through, gift_steps, paybill_reported
from payments import services as payments
from payments.models import Payment
from pledges.models import Pledge
from pledges.services import pledge_cancel, pledge_payment_assign, pledge_restore

pytestmark = pytest.mark.django_db

FIELDS = [*RecountedTotals.__dataclass_fields__]
TEAM_FIELDS = [field for field in FIELDS if field != "gifts"]

steps = gift_steps(["paybill", "pledge", "pay_pledge", "statement", "reverse", "card", "cancel", "restore"])


@pytest.fixture
def world():
    return a_choir_of_champions()


def kept(champion: Champion) -> dict[str, int]:
    row = Champion.objects.values(*FIELDS, "tonight").get(pk=champion.pk)
    return {
        field: row[field] if row["tonight"] == timezone.localdate() or not field.startswith("tonight_") else 0
        for field in FIELDS
    }


def recounted(champion: Champion) -> dict[str, int]:
    totals = champions_totals_recounted(champion_ids=[champion.pk], since=tonight_start())
    return vars(totals.get(champion.pk, RecountedTotals()))


def statement_row(account: str, amount: int, receipt: str) -> payments.StatementPayment:
    return payments.StatementPayment(
        mpesa_receipt=receipt,
        amount=amount,
        account_reference=account,
        received_at=timezone.now(),
        payer_name="WANJIRU DOE",
        notify_payer=False,
    )


@hypothesis_settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps)
def test_the_running_totals_equal_the_recounted_credits_after_credits_reversals_cancellations_and_cards(world, steps):
    organizer, campaign, connection, champions = world
    with transaction.atomic():
        pledges: list[tuple[int, Pledge]] = []
        imported: list[Payment] = []
        for n, (action, who, amount) in enumerate(steps):
            champion = champions[who]
            if action == "paybill":
                paybill_reported(connection, champion.code, amount, f"SLKP{n:06d}")
            elif action == "pledge":
                pledge = a_web_pledge_through(champion, amount, n)
                pledges.append((who, pledge))
            elif action == "pay_pledge" and pledges:
                _who, pledge = pledges[amount % len(pledges)]
                paybill_reported(connection, pledge.code, amount, f"SLKQ{n:06d}")
            elif action == "statement":
                account = pledges[amount % len(pledges)][1].code if pledges and amount % 2 else champion.code
                imported += payments.payments_record_from_statement(
                    account=connection.account,
                    recorded_by=organizer,
                    found=[statement_row(account, amount, f"SLKS{n:06d}")],
                )
            elif action == "reverse" and imported:
                payments.payments_reverse_imported(
                    payments=[imported[amount % len(imported)]], user=organizer, reason="Imported twice"
                )
            elif action == "card":
                card = HarambeeCard.objects.get(champion=champion)
                if card.returned_at is None:
                    card_return_record(
                        campaign_id=campaign.pk,
                        number=card.number,
                        user=organizer,
                        cash_total=amount,
                        gifts=[CardGift(kind="pledge", amount=amount, name="Mzee Kamau", phone="0712000555")],
                    )
            elif action == "cancel" and pledges:
                _who, pledge = pledges[amount % len(pledges)]
                pledge.refresh_from_db()
                if pledge.cancelled_at is None:
                    pledge_cancel(
                        pledge_id=pledge.pk,
                        user=organizer,
                        reason="Entered twice",
                        payments_to="gift" if pledge.paid_amount else "",
                    )
            elif action == "restore" and pledges:
                _who, pledge = pledges[amount % len(pledges)]
                pledge.refresh_from_db()
                if pledge.cancelled_at is not None:
                    pledge_restore(pledge_id=pledge.pk, user=organizer, reason="Cancelled by mistake")

        for champion in champions:
            assert kept(champion) == recounted(champion)
        choir = Team.objects.get(campaign=campaign)
        for field in TEAM_FIELDS:
            assert getattr(choir, field) == sum(kept(champion)[field] for champion in champions[:2])
        transaction.set_rollback(True)


def test_a_credit_then_its_reversal_brings_the_totals_back(world):
    organizer, campaign, connection, champions = world
    champion = champions[0]
    before = kept(champion)
    team_before = Team.objects.values(*TEAM_FIELDS).get(campaign=campaign)

    with transaction.atomic():
        (payment,) = payments.payments_record_from_statement(
            account=connection.account, recorded_by=organizer, found=[statement_row(champion.code, 2_500, "SLKR000001")]
        )
    assert (kept(champion)["raised"], kept(champion)["tonight_raised"], kept(champion)["gifts"]) == (2_500, 2_500, 1)
    assert Team.objects.get(campaign=campaign).raised == 2_500

    with transaction.atomic():
        payments.payments_reverse_imported(payments=[payment], user=organizer, reason="Imported twice")

    assert kept(champion) == before
    assert Team.objects.values(*TEAM_FIELDS).get(campaign=campaign) == team_before


def test_moving_a_champion_to_another_team_moves_their_totals(world):
    organizer, campaign, connection, champions = world
    champion = champions[0]
    paybill_reported(connection, champion.code, 700, "SLKM000001")
    guild = team_create(campaign_id=campaign.pk, user=organizer, name="Women's guild")

    champion_update(campaign_id=campaign.pk, code=champion.code, user=organizer, team_id=guild.pk)

    assert Team.objects.get(pk=guild.pk).raised == 700
    assert Team.objects.get(name="Choir").raised == 0


def test_tonights_totals_read_as_nothing_on_another_day(world):
    _organizer, campaign, connection, champions = world
    paybill_reported(connection, champions[0].code, 400, "SLKN000001")
    Champion.objects.filter(pk=champions[0].pk).update(tonight=datetime(2026, 1, 1, tzinfo=UTC).date())

    boards = leaderboards(campaign=campaign)

    assert boards.tonight.champions == [] and boards.tonight.raised == 0
    assert boards.overall.raised == 400


def test_a_payment_assigned_to_a_champions_pledge_by_hand_counts_for_them_once_committed(
    world, django_capture_on_commit_callbacks
):
    organizer, campaign, connection, champions = world
    pledge = a_web_pledge_through(champions[0], 2_000, 1)
    paybill_reported(connection, "MISTYPED", 800, "SLKH000001")  # matched nothing: listed as unmatched

    with django_capture_on_commit_callbacks(execute=True):
        pledge_payment_assign(
            pledge_id=pledge.pk, reference=Payment.objects.get(mpesa_receipt="SLKH000001").reference, user=organizer
        )

    assert kept(champions[0]) == recounted(champions[0])
    assert (kept(champions[0])["raised"], Team.objects.get(campaign=campaign).raised) == (800, 800)
