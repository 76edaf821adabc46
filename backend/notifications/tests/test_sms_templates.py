"""Every SMS template, in English and Kiswahili, with the worst values it meets (a 60-character title
with an en dash, the largest amounts, the longest codes, names and links), is one SMS: 160 GSM-7
characters, or 70 where the text needs UCS-2. Titles and names are shortened to fit; the facts
(amounts, codes, dates, links) are all there."""

from pathlib import Path

import pytest
from django.utils import translation

from giving.services import statement_link
from notifications.outbox import sms_text
from notifications.sms_length import sms_length
from organizations.roles import Role

SITE = "https://harambee.co.ke"
CODE = "K7M2Q9X"  # a pledge code: pledges.codes.CODE_LENGTH
TITLE = "Harambee Night \u2013 Roofing, Pews and the New Sanctuary, Kiambu"  # 60 characters
assert len(TITLE) == 60
NAME = "Bartholomew Ochieng Wafula Mwangi-Kariuki"
AMOUNT, HALF, PART = "Ksh 1,000,000,000", "Ksh 500,000,000", "Ksh 499,999,999"  # AMOUNT_MAX, and what adds up
MPESA_CODE = "SLK4H7PQ2Z"
RECEIPT = "HRB-261127-000123"
HOW_TO_PAY = f"Paybill 600100, account {CODE}"
DUE_ON = {"en": "30 September 2026", "sw": "30 Septemba 2026"}
PLEDGE = {
    "pledge": {"code": CODE, "phone_verified": False},
    "amount": AMOUNT,
    "paid": HALF,
    "remaining": HALF,
    "how_to_pay": HOW_TO_PAY,
    "pay_url": f"{SITE}/pledges/{CODE}",
    "ussd_code": "*384*4242#",
    "shortcode": "22384",
    "sms_pay": f"HARAMBEE PAY {CODE}",  # after the organization's keyword on a shared shortcode
}
# The longest a statement's link gets: a six-digit organization, its signed token (giving.services).
STATEMENT_LINK = statement_link(organization_id=123456, year=2026, digest="f" * 64)
TEMPLATES_DIR = Path(__file__).resolve().parents[1] / "templates" / "notifications" / "sms"

# (template, variant, context, shortenable values, facts that must be in the text)
ROWS = [
    ("pledge_recorded", "web", PLEDGE, {"title": TITLE}, [AMOUNT, HOW_TO_PAY, PLEDGE["pay_url"]]),
    ("pledge_recorded", "web, no account", {**PLEDGE, "how_to_pay": ""}, {"title": TITLE}, [PLEDGE["pay_url"]]),
    (
        "pledge_recorded",
        "by phone",
        {**PLEDGE, "pledge": {"code": CODE, "phone_verified": True}},
        {"title": TITLE},
        [AMOUNT, CODE, HOW_TO_PAY, "*384*4242#"],
    ),
    (
        "payment_received",
        "M-Pesa",
        {**PLEDGE, "count": 1, "received": PART, "how": f"by M-Pesa {MPESA_CODE}", "remaining": "Ksh 500,000,001"},
        {"title": TITLE},
        [PART, MPESA_CODE, CODE, "Ksh 500,000,001", AMOUNT],
    ),
    (
        "payment_received",
        "several",
        {**PLEDGE, "count": 25, "received": PART, "how": "", "remaining": "Ksh 500,000,001"},
        {"title": TITLE},
        ["25", PART, CODE, "Ksh 500,000,001", AMOUNT],
    ),
    ("pledge_paid", "named", PLEDGE, {"title": TITLE, "name": NAME}, [CODE, AMOUNT]),
    ("pledge_paid", "unnamed", PLEDGE, {"title": TITLE, "name": ""}, [CODE, AMOUNT]),
    ("reminder", "web", PLEDGE, {"title": TITLE}, [HALF, CODE, PLEDGE["pay_url"]]),
    ("reminder", "by phone", {**PLEDGE, "by_phone": True}, {"title": TITLE}, [HALF, CODE, "*384*4242#", "22384"]),
    (
        "reminder",
        "instalment due, by phone",
        {**PLEDGE, "by_phone": True, "instalment": HALF, "instalment_due_on": "{due_on}"},
        {"title": TITLE},
        [HALF, CODE, "{due_on}", "*384*4242#", f"HARAMBEE PAY {CODE}"],
    ),
    (
        "reminder",
        "instalment missed, web",
        {**PLEDGE, "instalment": HALF, "instalment_due_on": "{due_on}", "instalment_missed": True},
        {"title": TITLE},
        [HALF, CODE, "{due_on}", PLEDGE["pay_url"]],
    ),
    # A champion's 'Remind my circle' (notifications.circle_reminders), in the champion's name.
    ("circle_reminder", "web", PLEDGE, {"title": TITLE, "champion": NAME}, [HALF, CODE, PLEDGE["pay_url"]]),
    (
        "circle_reminder",
        "by phone",
        {**PLEDGE, "by_phone": True},
        {"title": TITLE, "champion": NAME},
        [HALF, CODE, "*384*4242#", "22384"],
    ),
    (
        "gift_receipt",
        "cash",
        {"amount": HALF, "in_cash": True, "payment": {"receipt_number": RECEIPT}},
        {"title": TITLE},
        [HALF, RECEIPT],
    ),
    (
        "gift_receipt",
        "M-Pesa",
        {"amount": HALF, "in_cash": False, "payment": {"receipt_number": RECEIPT, "mpesa_receipt": MPESA_CODE}},
        {"title": TITLE},
        [HALF, MPESA_CODE, RECEIPT],
    ),
    ("phone_code", "", {"code": "123456"}, {}, ["123456"]),
    (
        "invitation",
        "",
        {"role": "{role}", "invitation_url": f"{SITE}/invitation?token={'x' * 43}"},
        {},
        [f"{SITE}/invitation?token={'x' * 43}"],
    ),
    *[
        (template, variant, {"payment_details": details, "organization_url": f"{SITE}/organizations/123456"}, {}, [])
        for template in ("change_requested", "change_applied")
        for variant, details in (("team", False), ("payment details", True))
    ],
    # A giver's yearly statement from an organization (giving.services): the signed link is the fact.
    (
        "giving_statement",
        "",
        {"year": 2026, "total": "Ksh 1,234,567", "link": STATEMENT_LINK},
        {"organization": TITLE},
        [STATEMENT_LINK, "Ksh 1,234,567"],
    ),
    # Texts composed elsewhere, each held to one SMS where it is made: the event's thanks as its organizer
    # wrote it (desk.services), the keyword answers (sms_keywords), a pledge's change (pledge_change_notify),
    # the USSD list of pledges (ussd.services.pledges_sms_text).
    ("event_thanks", "as written", {"text": "x" * 150 + " \u2013 Ruiru"}, {}, []),
    ("keyword_reply", "as composed", {"message": "x" * 160}, {}, []),
    ("pledge_changed", "as composed", {"message": "x" * 160}, {}, []),
    ("ussd_pledges", "as composed", {"message": "x" * 160}, {}, []),
]


def test_the_table_has_every_sms_template():
    assert {row[0] for row in ROWS} == {path.stem for path in TEMPLATES_DIR.glob("*.txt")}


@pytest.mark.parametrize("language", ["en", "sw"])
@pytest.mark.parametrize(
    ("template", "variant", "context", "shortenable", "facts"), ROWS, ids=[f"{row[0]} {row[1]}" for row in ROWS]
)
def test_every_sms_is_one_sms_in_both_languages_with_every_fact(
    settings, language, template, variant, context, shortenable, facts
):
    settings.SMS_SHARED_KEYWORD = "HARAMBEE"
    due_on = DUE_ON[language]
    with translation.override(language):
        role = max((str(label).lower() for label in Role.labels), key=len)
        context = {
            key: value.format(due_on=due_on, role=role) if isinstance(value, str) else value
            for key, value in context.items()
        }
        text = sms_text(template=template, context=context, shortenable=shortenable)

    length = sms_length(text)
    assert (length.encoding, length.fits_one_sms) == ("gsm7", True), f"{length.used} of {length.limit}: {text}"
    assert text == text.strip() and "\n" not in text
    for fact in facts:
        assert fact.format(due_on=due_on) in text
