"""What the champions tests share: a paybill payment as Safaricom reports it, and a champion."""

import json

from django.test import Client

from campaigns.models import Campaign
from champions.models import Champion
from champions.services import champion_create
from collection_accounts.tests.factories import CHURCH_CALLBACK_TOKEN
from payments.models import Payment


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
