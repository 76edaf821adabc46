"""What the champions tests share: a paybill payment as Safaricom reports it, and a champion."""

import json

from django.test import Client
from hypothesis import strategies as st

from accounts.models import User
from accounts.tests.factories import UserFactory
from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory
from champions.models import Champion
from champions.services import champion_create, champion_pledge_create, team_create
from collection_accounts.tests.factories import CHURCH_CALLBACK_TOKEN, TEST_PAYBILL
from payments import services as payments
from payments.models import MpesaConnection, Payment
from pledges.models import Pledge


def confirmation_body(account: str, amount: int, trans_id: str, shortcode: str = "600100") -> dict[str, str]:
    return {
        "TransactionType": "Pay Bill",
        "TransID": trans_id,
        "TransTime": "20261122103000",
        "TransAmount": f"{amount}.00",
        "BusinessShortCode": shortcode,
        "BillRefNumber": account,
        "InvoiceNumber": "",
        "OrgAccountBalance": "",
        "ThirdPartyTransID": "",
        "MSISDN": "2547 ***** 149",
        "FirstName": "Wanjiru",
        "MiddleName": "",
        "LastName": "Doe",
    }


def pay_bill(account: str, amount: int, trans_id: str) -> Payment:
    """Safaricom confirming a payment to the church's paybill, delivered to our endpoint."""
    url = f"/api/payments/callbacks/c2b/{CHURCH_CALLBACK_TOKEN}/confirmation"
    body = json.dumps(confirmation_body(account, amount, trans_id))
    answer = Client(enforce_csrf_checks=True).post(url, body, content_type="application/json")
    assert answer.status_code == 200, answer.content
    return Payment.objects.get(mpesa_receipt=trans_id)


def a_champion(campaign: Campaign, user, *, goal: int = 50_000, **fields) -> Champion:
    return champion_create(campaign_id=campaign.pk, user=user, goal=goal, **fields)


def gift_steps(actions: list[str]) -> st.SearchStrategy[list[tuple[str, int, int]]]:
    """Up to 12 steps, each an action, which of three champions, and how much."""
    return st.lists(st.tuples(st.sampled_from(actions), st.integers(0, 2), st.integers(1, 5_000)), max_size=12)


def a_choir_of_champions() -> tuple[User, Campaign, MpesaConnection, list[Champion]]:
    """An organizer's campaign on a connected paybill, with three champions, the first two in its choir."""
    organizer = UserFactory.create()
    campaign = CampaignFactory.create(organizer=organizer, paybill=TEST_PAYBILL)
    connection = MpesaConnection.objects.get(account__organization=campaign.organization)
    choir = team_create(campaign_id=campaign.pk, user=organizer, name="Choir")
    champions = [
        champion_create(
            campaign_id=campaign.pk, user=UserFactory.create(), goal=10_000, team_id=choir.pk if i < 2 else None
        )
        for i in range(3)
    ]
    return organizer, campaign, connection, champions


def a_web_pledge_through(champion: Champion, amount: int, n: int) -> Pledge:
    """The ``n``-th giver's pledge on the champion's page, as a visitor (their own e-mail, phone, address)."""
    return champion_pledge_create(
        campaign_id=champion.campaign_id,
        code=champion.code,
        amount=amount,
        name="Giver",
        email=f"giver{n}@example.com",
        phone=f"07120{n:05d}",
        is_anonymous=False,
        viewer=None,
        client_ip=f"127.0.1.{n}",
    )


def paybill_reported(connection: MpesaConnection, account: str, amount: int, trans_id: str) -> None:
    """Safaricom's confirmation of a paybill payment, recorded as its endpoint records it."""
    payments.payment_record_c2b_confirmation(
        body=confirmation_body(account, amount, trans_id), remote_addr="127.0.0.1", connection=connection
    )
