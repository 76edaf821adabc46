"""Money given through a champion: paybill with their code, a statement's row, a returned card. Each
payment credits the campaign once, however many reports of it arrive, and is attributed to the champion
once (docs/architecture/payment-identity.md)."""

from datetime import UTC, datetime
from typing import Any
from unittest import mock

import pytest
from django.db import transaction

from campaigns.models import Campaign
from champions.models import Attribution, Champion, HarambeeCard
from champions.selectors import ChampionFigures, champion_circle, champion_totals
from champions.services import CardGift, card_return_record
from champions.tests.support import a_champion, confirmation_body, pay_bill
from common.errors import ServiceError
from payments import services as payments
from payments.models import MpesaConnection, Payment
from payments.providers.daraja import DarajaClient, PulledTransaction
from pledges.models import Donation, PledgePayment
from pledges.tests.factories import make_pledge

pytestmark = pytest.mark.django_db


def raised(campaign: Campaign) -> int:
    return Campaign.objects.get(pk=campaign.pk).raised_total


def totals_of(champion: Champion) -> ChampionFigures:
    """The champion's figures as their page reads them (their row read afresh)."""
    return champion_totals(champion=Champion.objects.select_related("campaign").get(pk=champion.pk))


def connection_of(campaign: Campaign) -> MpesaConnection:
    return MpesaConnection.objects.get(account__organization=campaign.organization, account__paybill_number="600100")


def test_a_paybill_payment_with_a_champion_code_credits_the_campaign_and_the_champion(campaign, member):
    champion = a_champion(campaign, member)

    payment = pay_bill(f" {champion.code.lower()[:3]}-{champion.code[3:]} ", 1_500, "SLK7CH0001")

    donation = Donation.objects.get(payment=payment)
    assert (payment.purpose, payment.campaign_id, payment.organization_id) == (
        Payment.Purpose.DONATION,
        campaign.pk,
        campaign.organization_id,
    )
    assert (donation.amount, donation.counted_at is not None, donation.is_anonymous) == (1_500, True, True)
    assert Attribution.objects.get(donation=donation).champion == champion
    assert raised(campaign) == 1_500
    assert totals_of(champion).raised == 1_500


def test_every_other_report_of_the_same_payment_credits_nothing_more(campaign, member, organizer):
    champion = a_champion(campaign, member)
    connection = connection_of(campaign)
    pay_bill(champion.code, 2_000, "SLK7CH0002")

    # The confirmation again, then Pull Transactions and a statement listing the same receipt.
    payments.payment_record_c2b_confirmation(
        body=confirmation_body(champion.code, 2_000, "SLK7CH0002"), remote_addr="127.0.0.1", connection=connection
    )
    pulled = PulledTransaction(
        trans_id="SLK7CH0002",
        trans_time=datetime(2026, 11, 22, 7, 30, tzinfo=UTC),
        amount=2_000,
        shortcode="600100",
        bill_ref_number=champion.code,
        msisdn="2547 ***** 149",
        transaction_type="c2b-pay-bill-debit",
    )

    def pull_transactions(self: DarajaClient, **period: Any) -> list[PulledTransaction]:
        return [pulled]

    with mock.patch.object(DarajaClient, "pull_transactions", pull_transactions):
        payments.mpesa_pull_run(connection=connection)
    with transaction.atomic():
        payments.payments_record_from_statement(
            account=connection.account,
            recorded_by=organizer,
            found=[
                payments.StatementPayment(
                    mpesa_receipt="SLK7CH0002",
                    amount=2_000,
                    account_reference=champion.code,
                    received_at=datetime(2026, 11, 22, 7, 30, tzinfo=UTC),
                    payer_name="WANJIRU DOE",
                    notify_payer=False,
                )
            ],
        )

    assert Payment.objects.filter(mpesa_receipt="SLK7CH0002").count() == 1
    assert Donation.objects.filter(campaign=campaign).count() == 1
    assert Attribution.objects.filter(champion=champion).count() == 1
    assert raised(campaign) == 2_000
    assert totals_of(champion).raised == 2_000


def test_a_statement_row_with_a_champion_code_credits_the_campaign_and_the_champion(campaign, member, organizer):
    champion = a_champion(campaign, member)
    other = make_pledge(campaign, amount=4_000, phone="0712000444")
    row: dict[str, Any] = {
        "received_at": datetime(2026, 11, 22, 7, 30, tzinfo=UTC),
        "payer_name": "X",
        "notify_payer": False,
    }

    with transaction.atomic():
        payments.payments_record_from_statement(
            account=connection_of(campaign).account,
            recorded_by=organizer,
            found=[
                payments.StatementPayment(
                    mpesa_receipt="SLK7ST0001", amount=700, account_reference=champion.code, **row
                ),
                payments.StatementPayment(mpesa_receipt="SLK7ST0002", amount=900, account_reference=other.code, **row),
                payments.StatementPayment(mpesa_receipt="SLK7ST0003", amount=50, account_reference="TITHE", **row),
            ],
        )

    assert totals_of(champion).raised == 700
    assert PledgePayment.objects.get(payment__mpesa_receipt="SLK7ST0002").pledge == other
    assert raised(campaign) == 700 + 900
    assert Payment.objects.get(mpesa_receipt="SLK7ST0003").campaign_id is None  # nobody's code: unmatched


def test_a_champions_code_on_another_organizations_paybill_credits_nothing(campaign, member):
    from campaigns.tests.factories import CampaignFactory

    elsewhere = CampaignFactory.create()
    champion = a_champion(elsewhere, member)

    payment = pay_bill(champion.code, 1_000, "SLK7CH0003")

    assert not Donation.objects.filter(payment=payment).exists()
    assert totals_of(champion).raised == 0


def test_a_returned_card_records_its_gifts_once_each_and_attributes_them_to_the_champion(campaign, member, organizer):
    champion = a_champion(campaign, member)
    paid_with_code = pay_bill(champion.code, 600, "SLK7CD0001")  # before the card came back
    card = HarambeeCard.objects.get(champion=champion)

    card_return_record(
        campaign_id=campaign.pk,
        number=card.number,
        user=organizer,
        cash_total=1_300,
        mpesa_reported=600 + 400,
        gifts=[
            CardGift(kind="cash", amount=1_000, name="Baba Kevin"),
            CardGift(kind="pledge", amount=5_000, name="Mzee Kamau", phone="0712000555"),
            CardGift(kind="mpesa", amount=600, name="Wanjiru", mpesa_receipt="SLK7CD0001"),  # already in the books
            CardGift(kind="mpesa", amount=400, name="Otieno", mpesa_receipt="SLK7CD0002"),  # its confirmation later
        ],
    )
    pay_bill("ANYTHING", 400, "SLK7CD0002")  # Safaricom's confirmation of the card's M-Pesa line

    campaign.refresh_from_db()
    assert raised(campaign) == 1_000 + 300 + 600 + 400
    assert campaign.pledged_total == 5_000
    assert Attribution.objects.filter(champion=champion).count() == 5  # 2 cash, 1 pledge, 2 M-Pesa
    assert Attribution.objects.get(donation__payment=paid_with_code).card is None  # it came by paybill first
    totals = totals_of(champion)
    assert (totals.raised, totals.pledged) == (2_300, 5_000)
    circle = champion_circle(champion=champion)
    assert {(gift.name, gift.kind, gift.owed) for gift in circle} >= {("Mzee Kamau", "pledge", 5_000), ("", "gift", 0)}
    with pytest.raises(ServiceError) as again:
        card_return_record(campaign_id=campaign.pk, number=card.number, user=organizer, cash_total=1_300)
    assert again.value.code == "card_already_returned"
    assert raised(campaign) == 2_300
