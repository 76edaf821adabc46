"""How to pay into each kind of account, word for word in English and Kiswahili: the one wording the
campaign page, the pledge receipt, the pledge SMS and e-mail and the donation dialog all show."""

import pytest
from django.utils import translation

from collection_accounts.instructions import account_instruction, instructions_summary, phone_number_instruction
from collection_accounts.models import CollectionAccount

ACCOUNTS = {
    "paybill": CollectionAccount(kind="paybill", paybill_number="600100"),
    "paybill_fixed_account": CollectionAccount(
        kind="paybill_fixed_account", paybill_number="247247", account_number="0123456789", bank_name="Equity"
    ),
    "till": CollectionAccount(kind="till", till_number="5123456", store_number="5123400"),
    "bank": CollectionAccount(kind="bank", bank_name="KCB", account_name="ICC Imara", account_number="1100223344"),
    "cash": CollectionAccount(kind="cash", location="Church office"),
}

SNAPSHOTS = {
    "en": {
        "paybill": (
            "M-Pesa Paybill",
            [("Business number", "600100"), ("Account number", "ABC1234")],
            "Paybill 600100, account ABC1234",
            "Use your pledge code ABC1234 as the account number, so your payment is matched to your pledge.",
        ),
        "paybill_fixed_account": (
            "M-Pesa Paybill (Equity)",
            [("Business number", "247247"), ("Account number", "0123456789"), ("Reference", "ABC1234")],
            "Paybill 247247, account 0123456789, reference ABC1234",
            "Use account number 0123456789; where your bank asks for a reference, give your pledge code ABC1234, "
            "so your payment is matched to your pledge.",
        ),
        "till": (
            "M-Pesa Till (Buy Goods)",
            [("Till number", "5123456")],
            "Buy Goods till 5123456",
            "A till takes no account number: keep your M-Pesa message and tell the treasurer your pledge code "
            "ABC1234, so they match your payment.",
        ),
        "bank": (
            "Bank Transfer",
            [
                ("Bank", "KCB"),
                ("Account name", "ICC Imara"),
                ("Account number", "1100223344"),
                ("Reference", "ABC1234"),
            ],
            "KCB account 1100223344 (ICC Imara), reference ABC1234",
            "Write your pledge code ABC1234 as the payment reference, so the treasurer matches your payment.",
        ),
        "cash": (
            "Cash",
            [("Where", "Church office")],
            "Cash at Church office, mention ABC1234",
            "Pay in person and mention your pledge code ABC1234: the treasurer records your payment.",
        ),
    },
    "sw": {
        "paybill": (
            "M-Pesa Paybill",
            [("Nambari ya biashara", "600100"), ("Nambari ya akaunti", "ABC1234")],
            "Paybill 600100, akaunti ABC1234",
            "Tumia nambari yako ya ahadi ABC1234 kama nambari ya akaunti, ili malipo yako yalinganishwe na ahadi yako.",
        ),
        "paybill_fixed_account": (
            "Paybill ya M-Pesa (Equity)",
            [("Nambari ya biashara", "247247"), ("Nambari ya akaunti", "0123456789"), ("Kumbukumbu", "ABC1234")],
            "Paybill 247247, akaunti 0123456789, kumbukumbu ABC1234",
            "Tumia nambari ya akaunti 0123456789; benki yako inapouliza kumbukumbu, weka nambari yako ya ahadi "
            "ABC1234, ili malipo yako yalinganishwe na ahadi yako.",
        ),
        "till": (
            "M-Pesa Till (Lipa kwa Till)",
            [("Nambari ya Till", "5123456")],
            "Till ya Lipa kwa Till 5123456",
            "Till haichukui nambari ya akaunti: weka ujumbe wako wa M-Pesa na umwambie mweka hazina nambari "
            "yako ya ahadi ABC1234, ili alinganishe malipo yako.",
        ),
        "bank": (
            "Uhamisho wa Benki",
            [
                ("Benki", "KCB"),
                ("Jina la akaunti", "ICC Imara"),
                ("Nambari ya akaunti", "1100223344"),
                ("Kumbukumbu", "ABC1234"),
            ],
            "KCB akaunti 1100223344 (ICC Imara), kumbukumbu ABC1234",
            "Andika nambari yako ya ahadi ABC1234 kama kumbukumbu ya malipo, ili mweka hazina alinganishe malipo yako.",
        ),
        "cash": (
            "Pesa taslimu",
            [("Mahali", "Church office")],
            "Pesa taslimu katika Church office, taja ABC1234",
            "Lipa ana kwa ana na utaje nambari yako ya ahadi ABC1234: mweka hazina atarekodi malipo yako.",
        ),
    },
}


@pytest.mark.parametrize("language", ["en", "sw"])
@pytest.mark.parametrize("kind", list(ACCOUNTS))
def test_each_kind_of_account_reads_as_its_snapshot(language, kind):
    with translation.override(language):
        instruction = account_instruction(ACCOUNTS[kind], reference="ABC1234")

    label, lines, summary, note = SNAPSHOTS[language][kind]
    assert (instruction.label, list(instruction.lines), instruction.summary, instruction.note) == (
        label,
        lines,
        summary,
        note,
    )


def test_before_there_is_a_code_the_page_says_your_pledge_code():
    instruction = account_instruction(ACCOUNTS["paybill"], reference=None)

    assert instruction.summary == "Paybill 600100, account your pledge code"
    assert instruction.lines[1] == ("Account number", "your pledge code")


def test_a_paybill_is_matched_automatically_only_once_connected():
    connected = CollectionAccount(kind="paybill", paybill_number="600100", mpesa_connected_at="2026-11-24T08:00Z")

    assert account_instruction(connected, reference="ABC1234").matched_automatically is True
    assert account_instruction(ACCOUNTS["paybill"], reference="ABC1234").matched_automatically is False


def test_the_sms_line_joins_every_account_and_a_legacy_number():
    instructions = [
        account_instruction(ACCOUNTS["paybill"], reference="ABC1234"),
        account_instruction(ACCOUNTS["till"], reference="ABC1234"),
        phone_number_instruction("+254712345678", reference="ABC1234"),
    ]

    assert instructions_summary(instructions) == (
        "Paybill 600100, account ABC1234; Buy Goods till 5123456; Send Money to +254712345678"
    )
