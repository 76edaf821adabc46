"""Each kind of account reads the same, word for word, on every channel a pledger sees, in English
and Kiswahili: the campaign page (before there is a code), the pledge's own page (the receipt), the
pledge SMS and the pledge e-mail. The wording itself is snapshotted in
collection_accounts/tests/test_instructions.py; here each channel is shown to carry it."""

import pytest
from django.core import mail

from campaigns.tests.factories import CampaignFactory, link_account
from collection_accounts.models import CollectionAccount
from collection_accounts.tests.test_instructions import ACCOUNTS, SNAPSHOTS
from pledges.models import Pledge
from simulators.models import SimulatedSms

PLATFORM_PAYBILL = "522522"
YOUR_CODE = {"en": "your pledge code", "sw": "nambari yako ya ahadi"}
DETAILS = ("paybill_number", "account_number", "till_number", "store_number", "bank_name", "account_name", "location")


def saved(kind: str, campaign) -> CollectionAccount:
    template = ACCOUNTS[kind]
    account = CollectionAccount.objects.create(
        organization=campaign.organization,
        kind=kind,
        is_default=True,
        **{field: getattr(template, field) for field in DETAILS},
    )
    link_account(campaign, account)
    return account


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "sw"])
@pytest.mark.parametrize("kind", list(ACCOUNTS))
def test_every_channel_shows_the_accounts_own_instructions(kind, language, sms_gateway, make_api_client, settings):
    settings.MPESA_SHORTCODE = PLATFORM_PAYBILL
    campaign = CampaignFactory.create(title="Church Roof")
    saved(kind, campaign)
    client = make_api_client()
    client.cookies["django_language"] = language
    label, lines, summary, note = SNAPSHOTS[language][kind]

    page = client.get(f"/api/campaigns/{campaign.pk}").json()
    answer = client.post(
        "/api/pledges",
        {
            "campaign_id": campaign.pk,
            "amount": 12_500,
            "name": "Wanjiru Kamau",
            "email": "wanjiru@example.com",
            "phone": "0712345678",
            "is_anonymous": False,
        },
        HTTP_ACCEPT_LANGUAGE=language,
    )
    code = answer.json()["code"]
    receipt = client.get(f"/api/pledges/{code}").json()

    assert Pledge.objects.get(code=code).language == language
    # The campaign page, before there is a code: the snapshot, 'your pledge code' where the code goes.
    [on_page] = page["payment_instructions"]
    assert on_page["label"] == label
    assert [(line["label"], line["value"]) for line in on_page["lines"]] == [
        (name, value.replace("ABC1234", YOUR_CODE[language])) for name, value in lines
    ]
    # The receipt: the snapshot, with the pledge's code.
    [on_receipt] = receipt["payment_instructions"]
    with_code = summary.replace("ABC1234", code)
    assert (on_receipt["label"], on_receipt["summary"], on_receipt["note"]) == (
        label,
        with_code,
        note.replace("ABC1234", code),
    )
    assert [(line["label"], line["value"]) for line in on_receipt["lines"]] == [
        (name, value.replace("ABC1234", code)) for name, value in lines
    ]
    # The SMS: its one-line summary; the e-mail: the label, every line and the note.
    assert with_code in SimulatedSms.objects.get().message
    [email] = [message for message in mail.outbox if message.to == ["wanjiru@example.com"]]
    block = "\n".join(
        [label, *(f"  {name}: {value.replace('ABC1234', code)}" for name, value in lines), f"  {on_receipt['note']}"]
    )
    assert block in email.body
    everything = " ".join([str(page), str(receipt), SimulatedSms.objects.get().message, str(email.body)])
    assert PLATFORM_PAYBILL not in everything
