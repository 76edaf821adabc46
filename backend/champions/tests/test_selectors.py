"""The leaderboards: what they show is what the ledger credited through each champion, under the
public-figure rule and each champion's choice to stay off the board."""

from datetime import timedelta

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from champions.models import Attribution
from champions.selectors import champion_figures, leaderboards
from champions.services import champion_update
from champions.tests.support import a_choir_of_champions, a_web_pledge_through, gift_steps, paybill_reported
from payments.models import Payment
from pledges.models import Donation, Pledge, PledgePayment

pytestmark = pytest.mark.django_db

gifts = gift_steps(["paybill", "pledge", "pay_pledge", "again"])


@pytest.fixture
def world():
    organizer, campaign, connection, champions = a_choir_of_champions()
    champion_update(campaign_id=campaign.pk, code=champions[2].code, user=organizer, on_leaderboard=False)
    return campaign, connection, champions


def attributed_credits(champion) -> int:
    """What the ledger counted for the campaign through ``champion``, read from pledges' own rows."""
    given = sum(
        donation.amount
        for donation in Donation.objects.filter(champion_attribution__champion=champion, counted_at__isnull=False)
    )
    paid = sum(
        link.payment.amount
        for link in PledgePayment.objects.select_related("payment").filter(
            pledge__champion_attribution__champion=champion
        )
    )
    return given + paid


@hypothesis_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=gifts, rule=st.booleans())
def test_leaderboard_totals_equal_the_sum_of_the_credits_attributed_to_each_champion(world, steps, rule):
    campaign, connection, champions = world
    with transaction.atomic():
        campaign.unsigned_pledges_count_after_payment = rule
        campaign.save(update_fields=["unsigned_pledges_count_after_payment"])
        paid: dict[int, int] = {champion.pk: 0 for champion in champions}
        pledges: dict[int, list[Pledge]] = {champion.pk: [] for champion in champions}
        receipts: list[tuple[str, int, str]] = []
        for n, (action, who, amount) in enumerate(steps):
            champion = champions[who]
            if action == "paybill" or (action == "again" and not receipts):
                receipts.append((f"SLKP{n:06d}", amount, champion.code))
                paybill_reported(connection, champion.code, amount, receipts[-1][0])
                paid[champion.pk] += amount
            elif action == "again":  # a second report of an earlier payment: no second credit
                receipt, earlier, code = receipts[amount % len(receipts)]
                paybill_reported(connection, code, earlier, receipt)
            elif action == "pledge":
                pledges[champion.pk].append(a_web_pledge_through(champion, amount, n))
            elif pledges[champion.pk]:
                pledge = pledges[champion.pk][-1]
                paybill_reported(connection, pledge.code, amount, f"SLKQ{n:06d}")
                paid[champion.pk] += amount

        figures = champion_figures(campaign=campaign)
        for champion in champions:
            assert figures.get(champion.pk, None) is None or figures[champion.pk].raised == attributed_credits(champion)
            assert attributed_credits(champion) == paid[champion.pk]
        boards = leaderboards(campaign=campaign)
        shown = {standing.code: standing for standing in boards.overall.champions}
        assert champions[2].code not in shown  # stays off the board; still counted below
        for champion in champions[:2]:
            assert shown[champion.code].raised == paid[champion.pk]
            public_pledged = sum(
                pledge.amount
                for pledge in pledges[champion.pk]
                if not rule or Payment.objects.filter(pledge_link__pledge=pledge).exists()
            )
            assert shown[champion.code].pledged == public_pledged
        assert boards.overall.raised == sum(paid.values()) == boards.tonight.raised
        (choir,) = boards.overall.teams
        assert choir.raised == paid[champions[0].pk] + paid[champions[1].pk]
        assert (
            Payment.objects.filter(campaign=campaign).count()
            == len({receipt for receipt, _amount, _code in receipts})
            + PledgePayment.objects.filter(pledge__campaign=campaign).count()
        )
        transaction.set_rollback(True)


def test_tonights_board_counts_only_what_came_in_since_midnight(world):
    campaign, connection, champions = world
    yesterday = timezone.now() - timedelta(days=1)
    with time_machine.travel(yesterday, tick=False):
        paybill_reported(connection, champions[0].code, 900, "SLKY000001")
    paybill_reported(connection, champions[1].code, 300, "SLKT000001")

    boards = leaderboards(campaign=campaign)

    assert [(s.code, s.raised) for s in boards.overall.champions] == [
        (champions[0].code, 900),
        (champions[1].code, 300),
    ]
    assert [(s.code, s.raised) for s in boards.tonight.champions] == [(champions[1].code, 300)]
    assert Attribution.objects.count() == 2


def test_the_leaderboards_api_is_public_and_reads_a_fixed_number_of_queries_right_after_a_credit(
    world, visitor_client, django_assert_max_num_queries, django_assert_num_queries
):
    campaign, connection, champions = world
    for n, champion in enumerate(champions):
        paybill_reported(connection, champion.code, 100 * (n + 1), f"SLKA00000{n}")

    with django_assert_max_num_queries(12):
        answer = visitor_client.get(f"/api/campaigns/{campaign.pk}/champions")
    paybill_reported(connection, champions[1].code, 1_000, "SLKA000009")  # a credit renews the campaign's version
    # The campaign; both boards' champions and everyone's total; the teams (the version is in the cache).
    with django_assert_num_queries(3):
        after = visitor_client.get(f"/api/campaigns/{campaign.pk}/champions")

    assert answer.status_code == 200
    body = answer.json()
    assert [s["raised"] for s in body["overall"]["champions"]] == [200, 100]  # the third stays off the board
    assert body["overall"]["raised"] == 600
    assert [s["raised"] for s in after.json()["overall"]["champions"]] == [1_200, 100]
    assert body["overall"]["teams"] == [
        {
            "id": body["overall"]["teams"][0]["id"],
            "name": "Choir",
            "goal": 0,
            "raised": 300,
            "pledged": 0,
            "champions": 2,
        }
    ]
